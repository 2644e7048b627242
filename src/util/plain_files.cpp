#include "util/plain_files.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "rlock/error.h"

namespace rlock::util {
namespace {

namespace fs = std::filesystem;

// A file descriptor, closed when it goes.
class OwnedFd {
 public:
  explicit OwnedFd(int fd) : fd_(fd) {}
  OwnedFd(OwnedFd&& other) noexcept : fd_(other.release()) {}
  OwnedFd(const OwnedFd&) = delete;
  OwnedFd& operator=(const OwnedFd&) = delete;
  ~OwnedFd() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }
  int release() { return std::exchange(fd_, -1); }

 private:
  int fd_;
};

[[noreturn]] void cannot(const char* what, const fs::path& path) {
  throw Error(fmt::format("cannot {} {}: {}", what, path.string(), std::strerror(errno)));
}

[[noreturn]] void not_plain(const fs::path& path, unsigned mode, const char* wanted) {
  throw Error(
      fmt::format("{} is {}, not {}: rlock takes no other kind of file there", path.string(), file_kind(mode), wanted));
}

void check_size(const fs::path& path, const struct stat& st, std::uintmax_t max_bytes) {
  if (static_cast<std::uintmax_t>(st.st_size) > max_bytes)
    throw Error(fmt::format("{} is larger than {} bytes: more than rlock reads", path.string(), max_bytes));
}

// `name` in the directory `dir`, opened with `flags` once lstat has found it of type `type`
// (S_IFREG or S_IFDIR), and found so again through the descriptor.
OwnedFd open_in(int dir, const char* name, const fs::path& shown, unsigned type, int flags, std::uintmax_t max_bytes) {
  const char* wanted = type == S_IFDIR ? "a directory" : "a regular file";
  struct stat st {};
  if (::fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) != 0) cannot("read", shown);
  if ((st.st_mode & S_IFMT) != type) not_plain(shown, st.st_mode, wanted);
  OwnedFd fd(::openat(dir, name, flags | O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
  if (fd.get() < 0) cannot("open", shown);
  if (::fstat(fd.get(), &st) != 0) cannot("read", shown);
  if ((st.st_mode & S_IFMT) != type) not_plain(shown, st.st_mode, wanted);
  if (type == S_IFREG) check_size(shown, st, max_bytes);
  return fd;
}

void copy_bytes(int from, const fs::path& from_shown, const fs::path& to, std::uintmax_t max_bytes) {
  OwnedFd out(::open(to.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
  if (out.get() < 0) cannot("create", to);
  std::vector<char> buffer(1 << 16);
  std::uintmax_t total = 0;
  for (;;) {
    ssize_t n = ::read(from, buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) cannot("read", from_shown);
    if (n == 0) break;
    total += static_cast<std::uintmax_t>(n);
    if (total > max_bytes)
      throw Error(fmt::format("{} is larger than {} bytes: more than rlock reads", from_shown.string(), max_bytes));
    for (ssize_t done = 0; done < n;) {
      ssize_t w = ::write(out.get(), buffer.data() + done, static_cast<std::size_t>(n - done));
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) cannot("write", to);
      done += w;
    }
  }
  if (::close(out.release()) != 0) cannot("write", to);
}

void copy_dir(int from, const fs::path& from_shown, const fs::path& to, FileCopy how, std::uintmax_t max_file_bytes,
              int depth) {
  if (::mkdir(to.c_str(), 0755) != 0) cannot("create", to);
  int listed = ::dup(from);
  if (listed < 0) cannot("read", from_shown);
  std::unique_ptr<DIR, int (*)(DIR*)> dir(::fdopendir(listed), ::closedir);
  if (!dir) {
    ::close(listed);
    cannot("read", from_shown);
  }
  while (const dirent* entry = ::readdir(dir.get())) {
    std::string name = entry->d_name;
    if (name == "." || name == "..") continue;
    fs::path shown = from_shown / name, target = to / name;
    struct stat st {};
    if (::fstatat(from, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) cannot("read", shown);
    if (S_ISDIR(st.st_mode)) {
      if (depth <= 0) throw Error(fmt::format("{} is nested deeper than rlock writes", shown.string()));
      OwnedFd sub = open_in(from, name.c_str(), shown, S_IFDIR, O_DIRECTORY, 0);
      copy_dir(sub.get(), shown, target, how, max_file_bytes, depth - 1);
    } else if (!S_ISREG(st.st_mode)) {
      not_plain(shown, st.st_mode, "a regular file or a directory");
    } else {
      check_size(shown, st, max_file_bytes);
      if (how == FileCopy::hard_link && ::linkat(from, name.c_str(), AT_FDCWD, target.c_str(), 0) == 0) continue;
      if (how == FileCopy::hard_link && errno != EXDEV) cannot("link", target);
      OwnedFd file = open_in(from, name.c_str(), shown, S_IFREG, 0, max_file_bytes);
      copy_bytes(file.get(), shown, target, max_file_bytes);
    }
  }
}

}  // namespace

std::string file_kind(unsigned mode) {
  switch (mode & S_IFMT) {
    case S_IFREG: return "a regular file";
    case S_IFDIR: return "a directory";
    case S_IFLNK: return "a symbolic link";
    case S_IFIFO: return "a FIFO";
    case S_IFCHR: return "a character device";
    case S_IFBLK: return "a block device";
    case S_IFSOCK: return "a socket";
    default: return "an unknown kind of file";
  }
}

int open_plain_file(const fs::path& path, std::uintmax_t max_bytes) {
  return open_in(AT_FDCWD, path.c_str(), path, S_IFREG, 0, max_bytes).release();
}

std::string read_plain_file(const fs::path& path, std::uintmax_t max_bytes) {
  OwnedFd fd(open_plain_file(path, max_bytes));
  std::string text;
  char buffer[1 << 16];
  for (;;) {
    ssize_t n = ::read(fd.get(), buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) cannot("read", path);
    if (n == 0) return text;
    text.append(buffer, static_cast<std::size_t>(n));
    if (text.size() > max_bytes)
      throw Error(fmt::format("{} is larger than {} bytes: more than rlock reads", path.string(), max_bytes));
  }
}

void copy_plain_tree(const fs::path& from, const fs::path& to, FileCopy how, std::uintmax_t max_file_bytes,
                     int max_depth) {
  OwnedFd dir = open_in(AT_FDCWD, from.c_str(), from, S_IFDIR, O_DIRECTORY, 0);
  copy_dir(dir.get(), from, to, how, max_file_bytes, max_depth);
}

}  // namespace rlock::util
