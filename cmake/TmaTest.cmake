# SPDX-License-Identifier: Apache-2.0
# tma_add_gtest(<name> SOURCES ... [LIBS ...] [LABEL <label>] [PREFIX <ctest-prefix>] [TIMEOUT s])
#   Builds a GoogleTest executable and registers every TEST with ctest under
#   "<prefix>/<Suite>.<Test>" (prefix defaults to the label), labelled <label> (default unit).
find_package(GTest REQUIRED)
include(GoogleTest)

function(tma_add_gtest name)
  cmake_parse_arguments(ARG "" "LABEL;PREFIX;TIMEOUT" "SOURCES;LIBS" ${ARGN})
  if(NOT ARG_LABEL)
    set(ARG_LABEL unit)
  endif()
  if(NOT ARG_PREFIX)
    set(ARG_PREFIX ${ARG_LABEL})
  endif()
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 300)
  endif()
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} GTest::gtest GTest::gtest_main)
  target_compile_options(${name} PRIVATE -Wall -Wextra)
  gtest_discover_tests(${name}
    TEST_PREFIX "${ARG_PREFIX}/"
    PROPERTIES LABELS ${ARG_LABEL} TIMEOUT ${ARG_TIMEOUT}
    DISCOVERY_TIMEOUT 60)
endfunction()
