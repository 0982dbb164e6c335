#pragma once
// A linear (bump) allocator for per-step scratch memory. Allocations are freed all at once by
// reset() at the start of a step, so the hot loop never calls malloc once the blocks have grown
// to the size a scene needs.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <span>
#include <vector>

namespace atl {

class TempAllocator {
 public:
  /// `block_size`: bytes per block (grows on demand; default 1 MiB).
  explicit TempAllocator(size_t block_size = 1u << 20) : block_size_(block_size) {}
  TempAllocator(const TempAllocator&) = delete;
  TempAllocator& operator=(const TempAllocator&) = delete;

  /// Returns `size` bytes aligned to `alignment` (a power of two ≤ 64), valid until reset().
  void* allocate(size_t size, size_t alignment = alignof(std::max_align_t));

  /// Uninitialised array of `count` T (T must be trivially destructible).
  template <class T>
  std::span<T> allocate_array(size_t count) {
    static_assert(std::is_trivially_destructible_v<T>);
    return {static_cast<T*>(allocate(count * sizeof(T), alignof(T))), count};
  }

  /// Frees every allocation. Keeps the largest block so that the next step does not allocate.
  void reset();

  /// Bytes handed out since the last reset.
  size_t used() const { return used_; }
  /// Bytes reserved from the system.
  size_t capacity() const;

 private:
  struct Block {
    std::unique_ptr<std::byte[]> data;
    size_t size = 0;
  };
  size_t block_size_;
  std::vector<Block> blocks_;
  size_t current_ = 0;  // index of the block being filled
  size_t offset_ = 0;   // bytes used in blocks_[current_]
  size_t used_ = 0;
};

}  // namespace atl
