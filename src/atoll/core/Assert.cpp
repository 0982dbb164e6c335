#include "atoll/core/Assert.h"

#include <cstdio>
#include <cstdlib>

namespace atl::detail {

void assert_failed(const char* expression, const char* message, const char* file, int line) {
  std::fprintf(stderr, "%s:%d: ATOLL_ASSERT(%s) failed%s%s\n", file, line, expression,
               message[0] != '\0' ? ": " : "", message);
  std::abort();
}

}  // namespace atl::detail
