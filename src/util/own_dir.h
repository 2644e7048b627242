// Whether a directory that rlock writes in is its user's own: the data directory (--dir), where
// report writes its page, the directory of a run that merge writes. Anyone who can write in it, or
// in a directory above it, can plant a link where rlock is about to write, so such a directory is
// refused before anything is written, in one line:
//
//   it, or a directory above it, is owned by another user than this one or root
//   its group or others can write it; above it, unless it is sticky (as /tmp is)
//   it is a symbolic link that another user made (a link of one's own is followed and checked)
//
// A directory not there yet is judged by the directories above it, as rlock will make it.
// Functions on the file system; thread-safe.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace rlock::util {

// Why rlock must not write in `dir`, as "is owned by user 65534, neither you nor root"; empty
// when it may.
std::string not_own_dir(const std::filesystem::path& dir);

// Throws rlock::UsageError, in one line naming `what` ("the data directory") and `dir`, when
// not_own_dir says why.
void check_own_dir(const std::filesystem::path& dir, std::string_view what);

}  // namespace rlock::util
