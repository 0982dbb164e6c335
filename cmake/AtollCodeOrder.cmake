# The atoll program's hot code placed first and together (scripts/hot-code-order.sh says why:
# the code pages a run touches count in its resident memory, 64 KB at a time). Every function of
# the library and the program gets its own section (-ffunction-sections), and lld places those
# named in apps/atoll/hot-code.order first, in that order. Only the program's link uses the list;
# the library's other users (tests, benchmarks, the Python module) link as before. The order
# changes no instruction, so no result: the state hashes are the same with it and without.
# Needs lld (Debian's lld, scripts/setup.sh); without it, or in sanitizer builds, the program
# links as before and says so here.
option(ATOLL_ORDER_HOT_CODE "Link the atoll program with its hot code first (needs lld)" ON)
set(ATOLL_HOT_CODE_ORDER OFF)
if(ATOLL_ORDER_HOT_CODE AND NOT ATOLL_SANITIZE AND CMAKE_SYSTEM_NAME STREQUAL "Linux"
   AND CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
  include(CheckLinkerFlag)
  check_linker_flag(CXX "-fuse-ld=lld" ATOLL_HAVE_LLD)
  if(ATOLL_HAVE_LLD)
    set(ATOLL_HOT_CODE_ORDER ON)
  else()
    message(STATUS "Atoll: lld not found: the atoll program is linked without its hot-code "
                   "order (scripts/setup.sh installs lld)")
  endif()
endif()
