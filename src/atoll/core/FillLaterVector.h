#pragma once
// A std::vector whose resize() and emplace_back() without arguments leave the new elements
// unwritten, for lists whose places are handed out on one thread and written in full later,
// on any thread (the narrow phase's reused pairs: the caller hands out the places in pair
// order, the workers fill them).
//
// Why: a plain vector value-initialises every new element, so the thread that grows the list
// writes every byte of it once, and the thread that fills it writes it again — and with two
// cores every one of those cache lines then moves from one core to the other.
//
// The elements must be implicit-lifetime types (aggregates, or trivially constructible and
// destructible: allocation creates them, C++20 [intro.object]) that are trivially copyable,
// and whoever takes a place must write the whole element before anything reads it.
// Construction with arguments (push_back, emplace_back(x), insert) works as in std::vector.

#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace atl {

template <class T>
class FillLaterAllocator : public std::allocator<T> {
 public:
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                "FillLaterVector holds plain records");
  static_assert(std::is_aggregate_v<T> || std::is_trivially_default_constructible_v<T>,
                "FillLaterVector's elements must be implicit-lifetime types");

  template <class U>
  struct rebind {
    using other = FillLaterAllocator<U>;
  };
  FillLaterAllocator() noexcept = default;
  template <class U>
  explicit FillLaterAllocator(const FillLaterAllocator<U>&) noexcept {}

  /// Value-less construction: leaves the element as allocated.
  template <class U>
  void construct(U*) noexcept {}
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

template <class T, class U>
bool operator==(const FillLaterAllocator<T>&, const FillLaterAllocator<U>&) noexcept {
  return true;
}

template <class T>
using FillLaterVector = std::vector<T, FillLaterAllocator<T>>;

}  // namespace atl
