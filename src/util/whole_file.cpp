#include "util/whole_file.h"

#include <fcntl.h>
#include <sys/random.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>

#include <fmt/format.h>

#include "rlock/error.h"

namespace rlock::util {
namespace {

namespace fs = std::filesystem;

constexpr int kNameTries = 16;

[[noreturn]] void cannot_write(const fs::path& path, int error) {
  throw Error(fmt::format("cannot write {}: {}", path.string(), std::strerror(error)));
}

// A name for a temporary beside `path` that is hard to guess: ".NAME.tmp" and 64 random bits.
fs::path temporary_beside(const fs::path& path) {
  std::uint64_t bits = 0;
  if (::getrandom(&bits, sizeof bits, 0) != static_cast<ssize_t>(sizeof bits))
    bits ^= static_cast<std::uint64_t>(::getpid());
  return path.parent_path() / fmt::format(".{}.tmp{:016x}", path.filename().string(), bits);
}

bool write_all(int fd, std::string_view bytes) {
  for (std::size_t done = 0; done < bytes.size();) {
    ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

int open_log(const fs::path& path, int flags) {
  int fd = ::open(path.c_str(), flags | O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) {
    const char* why = errno == ELOOP ? "a symbolic link stands there" : std::strerror(errno);
    throw Error(fmt::format("cannot open {} for writing: {}", path.string(), why));
  }
  return fd;
}

}  // namespace

void write_whole_file(const fs::path& path, std::string_view bytes) {
  fs::path temporary;
  int fd = -1;
  for (int i = 0; i < kNameTries && fd < 0; ++i) {
    temporary = temporary_beside(path);
    fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0 && errno != EEXIST) cannot_write(path, errno);
  }
  if (fd < 0) cannot_write(path, EEXIST);
  bool written = write_all(fd, bytes);
  int error = written ? 0 : (errno != 0 ? errno : EIO);
  if (::close(fd) != 0 && written) written = false, error = errno;
  if (written && ::rename(temporary.c_str(), path.c_str()) != 0) written = false, error = errno;
  if (!written) {
    ::unlink(temporary.c_str());
    cannot_write(path, error);
  }
}

int open_for_append(const fs::path& path) { return open_log(path, O_APPEND); }

int open_for_writing(const fs::path& path) { return open_log(path, O_TRUNC); }

}  // namespace rlock::util
