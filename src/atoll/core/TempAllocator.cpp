#include "atoll/core/TempAllocator.h"

#include <algorithm>

#include "atoll/core/Assert.h"

namespace atl {

void* TempAllocator::allocate(size_t size, size_t alignment) {
  ATOLL_ASSERT(alignment != 0 && (alignment & (alignment - 1)) == 0 && alignment <= 64);
  if (size == 0) size = 1;
  for (;;) {
    if (current_ < blocks_.size()) {
      Block& block = blocks_[current_];
      const auto base = reinterpret_cast<uintptr_t>(block.data.get());
      const uintptr_t aligned = (base + offset_ + alignment - 1) & ~(uintptr_t(alignment) - 1);
      const size_t end = static_cast<size_t>(aligned - base) + size;
      if (end <= block.size) {
        used_ += end - offset_;
        offset_ = end;
        return reinterpret_cast<void*>(aligned);
      }
      if (current_ + 1 < blocks_.size()) {
        ++current_;
        offset_ = 0;
        continue;
      }
    }
    // Need a new block big enough for this request (+ worst-case alignment padding).
    const size_t needed = std::max(block_size_, size + alignment);
    blocks_.push_back(Block{std::make_unique<std::byte[]>(needed), needed});
    current_ = blocks_.size() - 1;
    offset_ = 0;
  }
}

void TempAllocator::reset() {
  // Merge all blocks into one large enough for the whole last step, so that steady state needs
  // a single block and never allocates.
  if (blocks_.size() > 1) {
    const size_t total = capacity();
    blocks_.clear();
    blocks_.push_back(Block{std::make_unique<std::byte[]>(total), total});
  }
  current_ = 0;
  offset_ = 0;
  used_ = 0;
}

size_t TempAllocator::capacity() const {
  size_t total = 0;
  for (const Block& block : blocks_) total += block.size;
  return total;
}

}  // namespace atl
