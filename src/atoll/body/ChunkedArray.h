#pragma once
// A growable array whose elements never move: storage is a list of fixed-size chunks, each
// contiguous. Growing adds a chunk instead of reallocating, so pointers and references to
// elements stay valid for the array's lifetime — which is what lets constraints, contacts and
// the user keep a Body* across body creation.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <utility>
#include <vector>

#include "atoll/core/Assert.h"
#include "atoll/math/Math.h"

namespace atl {

template <class T, uint32_t k_chunk_size = 256>
class ChunkedArray {
  static_assert(is_power_of_2(k_chunk_size), "chunk size must be a power of 2 (cheap indexing)");

 public:
  ChunkedArray() = default;
  ChunkedArray(const ChunkedArray&) = delete;
  ChunkedArray& operator=(const ChunkedArray&) = delete;
  ~ChunkedArray() { clear(); }

  /// Number of elements.
  uint32_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  T& operator[](uint32_t i) {
    ATOLL_ASSERT(i < size_);
    return chunks_[i / k_chunk_size]->at(i % k_chunk_size);
  }
  const T& operator[](uint32_t i) const {
    ATOLL_ASSERT(i < size_);
    return chunks_[i / k_chunk_size]->at(i % k_chunk_size);
  }

  /// Constructs an element at the end (adding a chunk when the last one is full).
  template <class... Args>
  T& emplace_back(Args&&... args) {
    // new Chunk, not make_unique: no need to zero the storage.
    if (size_ == chunks_.size() * k_chunk_size)
      chunks_.push_back(std::unique_ptr<Chunk>(new Chunk));
    T* slot = chunks_[size_ / k_chunk_size]->raw(size_ % k_chunk_size);
    T* item = new (slot) T(std::forward<Args>(args)...);
    ++size_;
    return *item;
  }

  /// Destroys the last element; its chunk stays for the next emplace_back.
  void pop_back() {
    ATOLL_ASSERT(size_ > 0);
    --size_;
    chunks_[size_ / k_chunk_size]->at(size_ % k_chunk_size).~T();
  }

  /// Destroys every element and frees the chunks.
  void clear() {
    for (uint32_t i = 0; i < size_; ++i) (*this)[i].~T();
    size_ = 0;
    chunks_.clear();
  }

 private:
  // Uninitialized storage for k_chunk_size elements; emplace_back constructs them one by one.
  struct Chunk {
    alignas(T) std::byte storage[sizeof(T) * k_chunk_size];
    T* raw(uint32_t i) { return reinterpret_cast<T*>(storage) + i; }
    T& at(uint32_t i) { return *std::launder(reinterpret_cast<T*>(storage) + i); }
    const T& at(uint32_t i) const { return *std::launder(reinterpret_cast<const T*>(storage) + i); }
  };

  std::vector<std::unique_ptr<Chunk>> chunks_;
  uint32_t size_ = 0;
};

}  // namespace atl
