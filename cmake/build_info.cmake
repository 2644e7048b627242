# Run at build time (cmake -P) by src/cli: writes OUT from IN with RLOCK_VERSION and the commit of
# SOURCE_DIR (git rev-parse, "-dirty" with uncommitted changes; "unknown" outside a git checkout).
# configure_file rewrites OUT only when it changes, so an unchanged commit rebuilds nothing.
set(RLOCK_COMMIT unknown)
find_package(Git QUIET)
if(GIT_FOUND)
  execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE_DIR} rev-parse --short=12 HEAD
    OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE failed ERROR_QUIET)
  if(NOT failed)
    set(RLOCK_COMMIT ${commit})
    execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE_DIR} diff --quiet HEAD -- RESULT_VARIABLE dirty ERROR_QUIET)
    if(dirty)
      string(APPEND RLOCK_COMMIT "-dirty")
    endif()
  endif()
endif()
configure_file(${IN} ${OUT} @ONLY)
