# Libraries and rlock are compiled as unity builds: 8 sources to a translation unit, so that the heavy
# headers (fmt, nlohmann/json, CLI11, the project's own) are parsed once a batch, not once a file.
# Names local to a source file (anonymous namespace, static) are therefore unique within its target.
# -DRLOCK_UNITY_BUILD=OFF compiles file by file, as when checking that each file includes what it uses.
option(RLOCK_UNITY_BUILD "Compile the libraries and rlock 8 sources to a translation unit" ON)
function(rlock_unity_build target)
  set_target_properties(${target} PROPERTIES UNITY_BUILD ${RLOCK_UNITY_BUILD} UNITY_BUILD_BATCH_SIZE 8)
  # gcc warns of a class whose field's type is in an anonymous namespace unless the class is defined
  # in the main file, which a source included by a batch no longer is.
  if(RLOCK_UNITY_BUILD AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_compile_options(${target} PRIVATE -Wno-subobject-linkage)
  endif()
endfunction()

# rlock_module(NAME SOURCES...): the static library rlock_NAME of one folder under src/. Its sources
# and its users include the project's headers by folder ("lab/run_log.h", "rlock/redis_lock.h").
function(rlock_module name)
  add_library(rlock_${name} STATIC ${ARGN})
  target_include_directories(rlock_${name} PUBLIC ${PROJECT_SOURCE_DIR}/src)
  target_link_libraries(rlock_${name} PRIVATE rlock_warnings)
  rlock_unity_build(rlock_${name})
endfunction()
