// What this binary was built from: the project's version (CMakeLists.txt) and the commit of the
// source tree at build time (cmake/build_info.cmake), "unknown" outside a git checkout. Constants.
#pragma once

namespace rlock::cli {

extern const char* const kVersion;
extern const char* const kCommit;

}  // namespace rlock::cli
