// The atoll command-line program. Sub-commands: info (more arrive with the world: run, bench).

#include <cstdio>
#include <cstring>

#include "atoll/core/BuildConfig.h"
#include "atoll/math/Simd.h"

namespace {

int print_usage(std::FILE* out) {
  std::fprintf(out,
               "usage: atoll <command>\n"
               "commands:\n"
               "  info    print version, build flags and SIMD level\n");
  return out == stderr ? 2 : 0;
}

int run_info() {
  std::printf("atoll %s\n", ATOLL_VERSION_STRING);
  std::printf("build: %s\n", ATOLL_BUILD_FLAGS);
  std::printf("simd: %s (configured %s)\n", atl::simd_level_name(), ATOLL_SIMD_LEVEL_NAME);
#if defined(ATOLL_CROSS_PLATFORM_DETERMINISTIC)
  std::printf("cross-platform deterministic: yes\n");
#else
  std::printf("cross-platform deterministic: no\n");
#endif
#if defined(ATOLL_ENABLE_ASSERTS)
  std::printf("asserts: on\n");
#else
  std::printf("asserts: off\n");
#endif
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return print_usage(stderr);
  if (std::strcmp(argv[1], "info") == 0) return run_info();
  if (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "help") == 0)
    return print_usage(stdout);
  std::fprintf(stderr, "atoll: unknown command '%s'\n", argv[1]);
  return print_usage(stderr);
}
