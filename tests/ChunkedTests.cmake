# Registers a GoogleTest executable's tests with CTest in chunks of ATOLL_CHUNK_SIZE tests, one
# process per chunk (tests/CMakeLists.txt, AddressSanitizer builds). CTest includes this when it starts
# (the test directory's TEST_INCLUDE_FILES), after a generated file has set:
#   ATOLL_CHUNK_EXE     the test executable
#   ATOLL_CHUNK_NAME    its target name, the prefix of the chunks' names
#   ATOLL_CHUNK_LABELS  the chunks' labels
#   ATOLL_CHUNK_SIZE    tests per chunk
#   ATOLL_CHUNK_DIR     the working directory
# An AddressSanitizer process takes 80 ms to start and end (leak check included) before a test
# runs: one process per test spent ~80 s of CPU on 987 tests, chunks of 8 spend ~10.
# A failing chunk's output names the failed tests; the disabled ones are left out.

execute_process(COMMAND "${ATOLL_CHUNK_EXE}" --gtest_list_tests
                OUTPUT_VARIABLE atoll_listing RESULT_VARIABLE atoll_rc
                WORKING_DIRECTORY "${ATOLL_CHUNK_DIR}")
if(NOT atoll_rc EQUAL 0)
  # Shows as a failed test: the executable is missing or cannot list its tests.
  add_test("${ATOLL_CHUNK_NAME}/cannot-list-tests" "${ATOLL_CHUNK_EXE}" --gtest_list_tests)
  return()
endif()

set(atoll_suite "")
set(atoll_chunk "")
set(atoll_count 0)
set(atoll_index 0)
string(REPLACE "\n" ";" atoll_lines "${atoll_listing}")

macro(atoll_flush_chunk)
  if(atoll_count GREATER 0)
    string(REPLACE ";" ":" atoll_filter "${atoll_chunk}")
    set(atoll_test "${ATOLL_CHUNK_NAME}/${atoll_index}")
    add_test("${atoll_test}" "${ATOLL_CHUNK_EXE}" "--gtest_filter=${atoll_filter}")
    set_tests_properties("${atoll_test}" PROPERTIES LABELS "${ATOLL_CHUNK_LABELS}"
                         WORKING_DIRECTORY "${ATOLL_CHUNK_DIR}")
    math(EXPR atoll_index "${atoll_index} + 1")
    set(atoll_chunk "")
    set(atoll_count 0)
  endif()
endmacro()

foreach(atoll_line IN LISTS atoll_lines)
  if(atoll_line MATCHES "^([^ #][^ ]*)\\.( |$)")
    set(atoll_suite "${CMAKE_MATCH_1}")
  elseif(atoll_line MATCHES "^  ([^ #]+)")
    set(atoll_name "${CMAKE_MATCH_1}")
    if(NOT atoll_name MATCHES "^DISABLED_" AND NOT atoll_suite MATCHES "(^|/)DISABLED_")
      list(APPEND atoll_chunk "${atoll_suite}.${atoll_name}")
      math(EXPR atoll_count "${atoll_count} + 1")
      if(atoll_count EQUAL ATOLL_CHUNK_SIZE)
        atoll_flush_chunk()
      endif()
    endif()
  endif()
endforeach()
atoll_flush_chunk()
