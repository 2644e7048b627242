# rlock_module(NAME SOURCES...): the static library rlock_NAME of one folder under src/. Its sources
# and its users include the project's headers by folder ("lab/run_log.h", "rlock/redis_lock.h").
function(rlock_module name)
  add_library(rlock_${name} STATIC ${ARGN})
  target_include_directories(rlock_${name} PUBLIC ${PROJECT_SOURCE_DIR}/src)
  target_link_libraries(rlock_${name} PRIVATE rlock_warnings)
endfunction()
