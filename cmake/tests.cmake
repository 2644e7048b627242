# rlock_test(NAME [LABELS label...] [LIBS lib...]): builds NAME.cpp into a GoogleTest binary and
# registers it as one CTest test. Tests labelled "integration" need the Redis and PostgreSQL that
# scripts/test.sh starts (REDIS_URL, DATABASE_URL); they fail, never skip, when those are missing.
# The others are the target rlock_unit_tests, which CI's sanitized build builds (with rlock).
#
# A test's own code is compiled unoptimized (-O0: the libraries it calls keep the build's flags),
# and with the headers every test parses (GoogleTest, nlohmann/json, fmt) precompiled once and
# reused: together they take most of a test's compile time. -DRLOCK_UNITY_BUILD=OFF, the build that
# checks that each file includes what it uses, precompiles nothing.
add_custom_target(rlock_unit_tests)
if(RLOCK_UNITY_BUILD)
  file(CONFIGURE OUTPUT ${CMAKE_BINARY_DIR}/rlock_test_headers.cpp CONTENT "// the tests' precompiled headers\n")
  add_library(rlock_test_headers OBJECT ${CMAKE_BINARY_DIR}/rlock_test_headers.cpp)
  target_link_libraries(rlock_test_headers PRIVATE rlock_testing rlock_warnings GTest::gtest)
  target_compile_options(rlock_test_headers PRIVATE -O0)
  target_precompile_headers(rlock_test_headers PRIVATE <gtest/gtest.h> <nlohmann/json.hpp> <fmt/format.h> <chrono>
                            <filesystem> <string> <vector>)
endif()
function(rlock_test name)
  cmake_parse_arguments(ARG "" "" "LABELS;LIBS" ${ARGN})
  add_executable(${name} ${name}.cpp)
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} rlock_testing rlock_warnings GTest::gtest GTest::gtest_main)
  target_compile_options(${name} PRIVATE -O0)
  if(RLOCK_UNITY_BUILD)
    target_precompile_headers(${name} REUSE_FROM rlock_test_headers)
  endif()
  add_test(NAME ${name} COMMAND ${name})
  set_tests_properties(${name} PROPERTIES TIMEOUT 120)
  if(ARG_LABELS)
    set_tests_properties(${name} PROPERTIES LABELS "${ARG_LABELS}")
  endif()
  if(NOT "integration" IN_LIST ARG_LABELS)
    add_dependencies(rlock_unit_tests ${name})
  endif()
endfunction()
