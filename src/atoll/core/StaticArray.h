#pragma once
// A fixed-capacity array that lives inline (no heap): for small per-contact lists such as
// supporting faces and manifold points in the hot loop.

#include <cstddef>
#include <initializer_list>
#include <new>
#include <type_traits>

#include "atoll/core/Assert.h"

namespace atl {

template <class T, size_t N>
class StaticArray {
  static_assert(std::is_trivially_copyable_v<T>, "StaticArray holds trivially copyable types");

 public:
  // The elements are left unconstructed until pushed (see data_), so an empty array costs
  // nothing to make.
  StaticArray() {}
  StaticArray(std::initializer_list<T> values) {
    for (const T& v : values) push_back(v);
  }

  static constexpr size_t capacity() { return N; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  bool full() const { return size_ == N; }
  void clear() { size_ = 0; }
  void resize(size_t n) {
    ATOLL_ASSERT(n <= N);
    for (size_t i = size_; i < n; ++i) new (&data_[i]) T();
    size_ = n;
  }
  void push_back(const T& v) {
    ATOLL_ASSERT(size_ < N, "StaticArray overflow");
    data_[size_++] = v;
  }
  void pop_back() {
    ATOLL_ASSERT(size_ > 0);
    --size_;
  }
  /// Removes element i by moving the last element into its place (order not kept).
  void swap_remove(size_t i) {
    ATOLL_ASSERT(i < size_);
    data_[i] = data_[--size_];
  }
  void erase(size_t i) {
    ATOLL_ASSERT(i < size_);
    for (size_t j = i + 1; j < size_; ++j) data_[j - 1] = data_[j];
    --size_;
  }

  T& operator[](size_t i) {
    ATOLL_ASSERT(i < size_);
    return data_[i];
  }
  const T& operator[](size_t i) const {
    ATOLL_ASSERT(i < size_);
    return data_[i];
  }
  T& front() { return (*this)[0]; }
  T& back() { return (*this)[size_ - 1]; }
  const T& back() const { return (*this)[size_ - 1]; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  T* data() { return data_; }
  const T* data() const { return data_; }

 private:
  // In an anonymous union, the elements are not default-constructed with the array: the narrow
  // phase makes a 2 KB ContactPoints and a 512-byte SupportingFace per mesh triangle it tests,
  // and zeroing them was a fifth of the convex-vs-mesh step.
  union {
    T data_[N];
  };
  size_t size_ = 0;
};

}  // namespace atl
