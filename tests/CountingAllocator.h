#pragma once
// Replaces the global operator new and delete with ones that count allocations while
// g_counting is set (on every thread, so a pool's workers count too). Include it in exactly one
// file of an executable: the replacement is program-wide, which is why the allocation tests are
// built as executables of their own (*AllocationTest.cpp, tests/CMakeLists.txt).

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>

namespace atl::test {

inline std::atomic<bool> g_counting{false};
inline std::atomic<uint64_t> g_allocations{0};

inline void* counted_allocate(std::size_t size, std::size_t alignment) {
  if (g_counting.load(std::memory_order_relaxed))
    g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (size == 0) size = 1;
  return alignment > alignof(std::max_align_t)
             ? std::aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment)
             : std::malloc(size);
}

}  // namespace atl::test

[[gnu::noinline]] void* operator new(std::size_t size) {
  if (void* p = atl::test::counted_allocate(size, 0)) return p;
  throw std::bad_alloc();
}
[[gnu::noinline]] void* operator new[](std::size_t size) {
  if (void* p = atl::test::counted_allocate(size, 0)) return p;
  throw std::bad_alloc();
}
[[gnu::noinline]] void* operator new(std::size_t size, std::align_val_t alignment) {
  if (void* p = atl::test::counted_allocate(size, static_cast<std::size_t>(alignment))) return p;
  throw std::bad_alloc();
}
[[gnu::noinline]] void* operator new[](std::size_t size, std::align_val_t alignment) {
  if (void* p = atl::test::counted_allocate(size, static_cast<std::size_t>(alignment))) return p;
  throw std::bad_alloc();
}
[[gnu::noinline]] void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  return atl::test::counted_allocate(size, 0);
}
[[gnu::noinline]] void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  return atl::test::counted_allocate(size, 0);
}
[[gnu::noinline]] void operator delete(void* p) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete[](void* p) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete(void* p, std::size_t) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete(void* p, std::size_t, std::align_val_t) noexcept {
  std::free(p);
}
[[gnu::noinline]] void operator delete[](void* p, std::size_t, std::align_val_t) noexcept {
  std::free(p);
}
