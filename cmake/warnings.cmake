# Warnings as an INTERFACE target, linked by every rlock target (not set globally).
add_library(rlock_warnings INTERFACE)
target_compile_options(rlock_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion
  -Wnon-virtual-dtor -Wold-style-cast -Wimplicit-fallthrough)
