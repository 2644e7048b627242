// A stored run's files read and copied without trusting what stands at a path that someone else
// could have written (a shard of `rlock merge`, a run given to `rlock analyze`): only regular
// files and directories are taken, never through a symbolic link (O_NOFOLLOW, lstat), never
// blocking on a FIFO or a device (O_NONBLOCK), each file bounded in size. Anything else is
// refused by rlock::Error, in one line naming the path and what stands there.
//
// Functions on files; thread-safe for distinct paths.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

namespace rlock::util {

// What a file of mode `mode` (st_mode) is, as "a symbolic link", "a FIFO", "a directory"...
std::string file_kind(unsigned mode);

// A descriptor of the regular file `path`, opened read-only, its last component not followed.
// Throws Error when it cannot be opened, is no regular file or is larger than `max_bytes`.
// The caller closes it.
int open_plain_file(const std::filesystem::path& path, std::uintmax_t max_bytes);

// The bytes of the regular file `path`, opened as open_plain_file does.
std::string read_plain_file(const std::filesystem::path& path, std::uintmax_t max_bytes);

// What copy_plain_tree does with a regular file.
enum class FileCopy {
  hard_link,  // a hard link, or a copy across file systems: for rlock's own files
  bytes,      // a copy of its bytes: for files another user may still change
};

// Copies the directory `from` to `to` (created, so absent before), with its regular files and its
// directories down to `max_depth` levels. Throws Error for a symbolic link, a FIFO, a device or a
// socket anywhere in it (naming it), a file larger than `max_file_bytes`, a tree deeper than
// `max_depth`, and when `to` exists or cannot be written; what was copied then stays in `to`.
void copy_plain_tree(const std::filesystem::path& from, const std::filesystem::path& to, FileCopy how,
                     std::uintmax_t max_file_bytes, int max_depth = 8);

}  // namespace rlock::util
