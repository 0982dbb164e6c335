# Select the SIMD level at configure time. AUTO picks the best level the build machine runs.
# The scalar fallback and the SIMD paths compute element-wise with the same IEEE operations in
# the same order, so with ATOLL_CROSS_PLATFORM_DETERMINISTIC (no FMA contraction) they agree bit
# for bit.
set(ATOLL_SIMD_LEVEL ${ATOLL_SIMD})
if(ATOLL_SIMD STREQUAL "AUTO")
  set(ATOLL_SIMD_LEVEL "SCALAR")
  if(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64|amd64")
    try_run(_avx2_run _avx2_compile ${CMAKE_BINARY_DIR}/simd_probe
      SOURCES ${CMAKE_CURRENT_LIST_DIR}/simd_probe.cpp
      RUN_OUTPUT_VARIABLE _simd_out)
    if(_avx2_compile AND _avx2_run EQUAL 0)
      string(STRIP "${_simd_out}" ATOLL_SIMD_LEVEL)
    endif()
  endif()
endif()
set(ATOLL_SIMD_FLAGS "")
if(ATOLL_SIMD_LEVEL STREQUAL "AVX2")
  set(ATOLL_SIMD_FLAGS -msse4.1 -mavx2)
elseif(ATOLL_SIMD_LEVEL STREQUAL "SSE4_1")
  set(ATOLL_SIMD_FLAGS -msse4.1)
endif()
if(ATOLL_SIMD_LEVEL STREQUAL "AVX2" AND NOT ATOLL_CROSS_PLATFORM_DETERMINISTIC)
  list(APPEND ATOLL_SIMD_FLAGS -mfma)
endif()
message(STATUS "Atoll SIMD level: ${ATOLL_SIMD_LEVEL}")
