#pragma once
// ATOLL_ASSERT checks internal invariants. It is on in debug, sanitizer and test builds
// (ATOLL_ENABLE_ASSERTS) and compiles to nothing in distribution builds. It is never used for
// errors a user can cause: those return a Result or throw atl::Error.

namespace atl::detail {
[[noreturn]] void assert_failed(const char* expression, const char* message, const char* file,
                                int line);
}  // namespace atl::detail

#if defined(ATOLL_ENABLE_ASSERTS)
#define ATOLL_ASSERT(expr, ...)                                                           \
  do {                                                                                    \
    if (!(expr)) ::atl::detail::assert_failed(#expr, "" __VA_ARGS__, __FILE__, __LINE__); \
  } while (false)
#else
#define ATOLL_ASSERT(expr, ...) \
  do {                          \
  } while (false)
#endif
