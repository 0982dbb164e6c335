#include <cstdio>

#include "Commands.h"
#include "atoll/core/BuildConfig.h"
#include "atoll/math/Simd.h"
#include "atoll/scene/BuiltinScenes.h"

namespace atl::cli {

int info_command() {
  std::printf("atoll %s\n", ATOLL_VERSION_STRING);
  std::printf("build: %s\n", ATOLL_BUILD_FLAGS);
  std::printf("simd: %s (configured %s)\n", simd_level_name(), ATOLL_SIMD_LEVEL_NAME);
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
  std::printf("built-in scenes:");
  for (std::string_view name : builtin_scene_names())
    std::printf(" %.*s", static_cast<int>(name.size()), name.data());
  std::printf("\n");
  return k_exit_ok;
}

}  // namespace atl::cli
