# rlock_test(NAME [LABELS label...] [LIBS lib...]): builds NAME.cpp into a GoogleTest binary and
# registers it as one CTest test. Tests labelled "integration" need the Redis and PostgreSQL that
# scripts/test.sh starts (REDIS_URL, DATABASE_URL); they fail, never skip, when those are missing.
# The others are the target rlock_unit_tests, which CI's sanitized build builds (with rlock).
add_custom_target(rlock_unit_tests)
function(rlock_test name)
  cmake_parse_arguments(ARG "" "" "LABELS;LIBS" ${ARGN})
  add_executable(${name} ${name}.cpp)
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} rlock_testing rlock_warnings GTest::gtest GTest::gtest_main)
  add_test(NAME ${name} COMMAND ${name})
  set_tests_properties(${name} PROPERTIES TIMEOUT 120)
  if(ARG_LABELS)
    set_tests_properties(${name} PROPERTIES LABELS "${ARG_LABELS}")
  endif()
  if(NOT "integration" IN_LIST ARG_LABELS)
    add_dependencies(rlock_unit_tests ${name})
  endif()
endfunction()
