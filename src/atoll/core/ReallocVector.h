#pragma once
// A vector of plain records that grows with realloc: a large block is moved by remapping its
// pages (glibc's realloc uses mremap for blocks it mapped on their own), never copied, so that
// growing a list does not hold its old and its new copy at once.
//
// Why: std::vector grows by allocating the new block, copying and freeing the old one; for a
// moment both are resident. The contact lists are the largest a step keeps, and the pyramid's
// contact headers and manifolds (1.1 MB) doubled on the step that was the program's peak:
// capacity that no step fills costs no memory, but that copy did (peak 17.9 → 16.9 MB).
//
// The elements must be trivially copyable and destructible implicit-lifetime types (realloc
// moves their bytes, C++20 [intro.object]) with at most malloc's alignment. The interface is
// the part of std::vector's that the contact cache uses, with its semantics: resize and
// emplace_back() value-initialise, unless `k_fill_later` (FillLaterVector), which leaves the new
// elements unwritten.

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>

namespace atl {

template <class T, bool k_fill_later = false>
class ReallocVector {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                "ReallocVector holds plain records");
  static_assert(std::is_aggregate_v<T> || std::is_trivially_default_constructible_v<T>,
                "ReallocVector's elements must be implicit-lifetime types");
  static_assert(alignof(T) <= alignof(std::max_align_t), "realloc aligns to max_align_t");

 public:
  ReallocVector() = default;
  ReallocVector(const ReallocVector& other) { *this = other; }
  ReallocVector(ReallocVector&& other) noexcept { swap(other); }
  ReallocVector& operator=(const ReallocVector& other) {
    if (this == &other) return *this;
    clear();
    reserve(other.size_);
    if (other.size_ != 0) std::memcpy(data_, other.data_, other.size_ * sizeof(T));
    size_ = other.size_;
    return *this;
  }
  ReallocVector& operator=(ReallocVector&& other) noexcept {
    ReallocVector moved(std::move(other));
    swap(moved);
    return *this;
  }
  ~ReallocVector() { std::free(data_); }

  void swap(ReallocVector& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    std::swap(capacity_, other.capacity_);
  }

  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }
  bool empty() const { return size_ == 0; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  T& back() { return data_[size_ - 1]; }
  const T& back() const { return data_[size_ - 1]; }

  /// Capacity for at least `count` elements (the elements keep their values).
  void reserve(size_t count) {
    if (count <= capacity_) return;
    void* grown = std::realloc(data_, count * sizeof(T));
    if (grown == nullptr) throw std::bad_alloc();
    data_ = static_cast<T*>(grown);
    capacity_ = count;
  }
  /// `count` elements; new ones are value-initialised (unwritten with k_fill_later).
  void resize(size_t count) {
    if (count > capacity_) reserve(std::max(count, 2 * capacity_));
    if constexpr (!k_fill_later)
      for (size_t i = size_; i < count; ++i) ::new (static_cast<void*>(data_ + i)) T();
    size_ = count;
  }
  void clear() { size_ = 0; }
  void push_back(const T& value) {
    const T copy = value;  // `value` may be an element, which growing moves
    if (size_ == capacity_) reserve(capacity_ == 0 ? 8 : 2 * capacity_);
    ::new (static_cast<void*>(data_ + size_)) T(copy);
    ++size_;
  }
  template <class... Args>
  T& emplace_back(Args&&... args) {
    if constexpr (k_fill_later && sizeof...(Args) == 0) {
      resize(size_ + 1);
    } else {
      const T made = T(std::forward<Args>(args)...);
      push_back(made);
    }
    return back();
  }

 private:
  T* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

}  // namespace atl
