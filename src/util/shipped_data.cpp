#include "util/shipped_data.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

namespace rlock::util {

namespace fs = std::filesystem;

fs::path shipped_data_dir(const char* variable, const char* folder) {
  if (const char* given = std::getenv(variable); given != nullptr && *given != '\0') return given;
  std::error_code unknown;
  fs::path binary_dir = fs::read_symlink("/proc/self/exe", unknown).parent_path();
  for (fs::path prefix : {RLOCK_INSTALL_PREFIX, RLOCK_PACKAGE_PREFIX}) {
    std::error_code missing;
    if (!unknown && binary_dir == fs::weakly_canonical(prefix / RLOCK_INSTALL_BINDIR, missing)) {
      return prefix / RLOCK_INSTALL_DATADIR / "rlock" / folder;
    }
  }
  return fs::path(RLOCK_CHECKOUT) / folder;
}

std::string untrusted(const fs::path& path) {
  struct stat status {};
  if (::stat(path.c_str(), &status) != 0) return fmt::format("cannot be read ({})", std::strerror(errno));
  if (status.st_uid != 0 && status.st_uid != ::geteuid())
    return fmt::format("is owned by user {}, neither you nor root", status.st_uid);
  if ((status.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
    return fmt::format("can be written by {} (mode {:04o})",
                       (status.st_mode & S_IWOTH) != 0 ? "every user" : "its group", status.st_mode & 07777);
  }
  return "";
}

std::string trust_fix(const fs::path& path) {
  struct stat status {};
  bool theirs = ::stat(path.c_str(), &status) == 0 && status.st_uid != 0 && status.st_uid != ::geteuid();
  return theirs ? "chown it to yourself (or root)" : "chmod go-w it";
}

}  // namespace rlock::util
