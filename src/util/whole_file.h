// How rlock writes a file, every file it writes: never through a symbolic link, never into a file
// someone else made, and a reader never sees half of one.
//
//   write_whole_file  a temporary made beside the target with O_CREAT | O_EXCL | O_NOFOLLOW (a
//                     name nobody else holds, retried under another random name when one does),
//                     written whole, closed, then renamed over the target: a link that stood
//                     there is replaced, never followed
//   open_for_append   a log that rlock appends to, opened with O_NOFOLLOW
//   open_for_writing  a log that rlock starts anew, the same, truncated
//
// Where rlock writes is a directory of its user's own (own_dir.h); these guard each file as well.
// Functions on files; thread-safe for distinct paths.
#pragma once

#include <filesystem>
#include <string_view>

namespace rlock::util {

// Throws rlock::Error, in one line naming `path`, when it cannot be written; `path` is then as it
// was, and no temporary is left.
void write_whole_file(const std::filesystem::path& path, std::string_view bytes);

// A descriptor (the caller closes it), mode 0644 when created. Throws rlock::Error naming the path
// and the cause, a symbolic link at `path` among them.
int open_for_append(const std::filesystem::path& path);
int open_for_writing(const std::filesystem::path& path);

}  // namespace rlock::util
