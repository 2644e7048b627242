#include "util/own_dir.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include <fmt/format.h>

#include "rlock/error.h"

namespace rlock::util {
namespace {

namespace fs = std::filesystem;

constexpr int kMostLinks = 8;  // links followed on the way

bool ours(const struct stat& st) { return st.st_uid == 0 || st.st_uid == ::geteuid(); }

// Why the directory `path` (lstat: `st`) cannot be trusted; `itself`: it is the one rlock writes
// in, not one above it. Empty when it can.
std::string judged(const fs::path& path, const struct stat& st, bool itself) {
  if (!ours(st)) return fmt::format("{} is owned by user {}, neither you nor root", path.string(), st.st_uid);
  bool writable = (st.st_mode & (S_IWGRP | S_IWOTH)) != 0;
  if (writable && (itself || (st.st_mode & S_ISVTX) == 0)) {
    return fmt::format("{} can be written by {} (mode {:04o})", path.string(),
                       (st.st_mode & S_IWOTH) != 0 ? "every user" : "its group", st.st_mode & 07777);
  }
  return "";
}

struct Walk {
  std::string why;  // empty: every directory on the way can be trusted
  fs::path at;      // where the walk got to, links followed
  bool missing = false;
};

// Walks the absolute, normal `path` from the root, judging each directory on the way and following
// each link of one's own; `ends_there`: its last component is the directory rlock writes in.
Walk walk(const fs::path& path, bool ends_there, int links) {
  std::vector<fs::path> parts;
  for (auto part = std::next(path.begin()); part != path.end(); ++part) {
    if (!part->empty()) parts.push_back(*part);
  }
  fs::path at = path.root_path();
  for (std::size_t i = 0; i <= parts.size(); ++i) {
    fs::path next = i == 0 ? at : at / parts[i - 1];
    bool itself = ends_there && i == parts.size();
    struct stat st {};
    if (::lstat(next.c_str(), &st) != 0) {
      if (errno == ENOENT) return {"", next, true};  // rlock makes the rest: the walk so far decides
      return {fmt::format("{} cannot be read ({})", next.string(), std::strerror(errno)), next};
    }
    if (S_ISLNK(st.st_mode)) {
      if (!ours(st))
        return {fmt::format("{} is a symbolic link of user {}, neither you nor root", next.string(), st.st_uid), next};
      if (links >= kMostLinks)
        return {fmt::format("{} leads through more than {} links", path.string(), kMostLinks), next};
      std::error_code unknown;
      fs::path target = fs::read_symlink(next, unknown);
      if (unknown) return {fmt::format("{} cannot be read ({})", next.string(), unknown.message()), next};
      Walk followed = walk((target.is_absolute() ? target : at / target).lexically_normal(), itself, links + 1);
      if (!followed.why.empty() || followed.missing) return followed;
      at = followed.at;
      continue;
    }
    if (!S_ISDIR(st.st_mode)) return {"", next, true};  // no directory: nothing is written there, as rlock then says
    if (std::string why = judged(next, st, itself); !why.empty()) return {why, next};
    at = next;
  }
  return {"", at};
}

}  // namespace

std::string not_own_dir(const fs::path& dir) {
  std::error_code unknown;
  fs::path absolute = fs::absolute(dir, unknown);
  if (unknown) return fmt::format("{} cannot be resolved ({})", dir.string(), unknown.message());
  return walk(absolute.lexically_normal(), true, 0).why;
}

void check_own_dir(const fs::path& dir, std::string_view what) {
  if (std::string why = not_own_dir(dir); !why.empty()) {
    throw UsageError(
        fmt::format("{} {}: {} rlock writes nothing where another user could plant a link; give a "
                    "directory of your own",
                    what, dir.string(), why + ";"));
  }
}

}  // namespace rlock::util
