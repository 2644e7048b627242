#include "store/gzip_file.h"

#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "rlock/error.h"
#include "util/plain_files.h"
#include "util/sha256.h"

namespace rlock::store {
namespace {

namespace fs = std::filesystem;

// A file descriptor, closed when it goes.
class Fd {
 public:
  Fd(const fs::path& path, int flags) : Fd(::open(path.c_str(), flags | O_NOFOLLOW | O_CLOEXEC, 0644), path) {
    if (fd_ < 0) throw Error(fmt::format("cannot open {}: {}", path_.string(), std::strerror(errno)));
  }
  // `path` opened as a regular file alone (util/plain_files.h), its size not bounded here.
  static Fd plain(const fs::path& path) {
    return Fd(util::open_plain_file(path, std::numeric_limits<std::uintmax_t>::max()), path);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }

  // Up to `size` bytes; 0 at the end of the file.
  std::size_t read_some(unsigned char* data, std::size_t size) {
    for (;;) {
      ssize_t n = ::read(fd_, data, size);
      if (n >= 0) return static_cast<std::size_t>(n);
      if (errno != EINTR) throw Error(fmt::format("cannot read {}: {}", path_.string(), std::strerror(errno)));
    }
  }

  void write_all(const unsigned char* data, std::size_t size) {
    while (size > 0) {
      ssize_t n = ::write(fd_, data, size);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) throw Error(fmt::format("cannot write {}: {}", path_.string(), std::strerror(errno)));
      data += n;
      size -= static_cast<std::size_t>(n);
    }
  }

  // Flushes to the disk and closes; a failure of either is the write's.
  void sync_and_close() {
    int synced = ::fsync(fd_), closed = ::close(fd_);
    fd_ = -1;
    if (synced != 0 || closed != 0)
      throw Error(fmt::format("cannot write {}: {}", path_.string(), std::strerror(errno)));
  }

 private:
  Fd(int fd, const fs::path& path) : fd_(fd), path_(path) {}

  int fd_;
  fs::path path_;
};

constexpr int kGzipWindow = 15 + 16;  // zlib's largest window, with gzip's header and trailer

uInt chunk_size(std::size_t chunk) {
  if (chunk == 0 || chunk > (std::size_t{1} << 30)) throw Error(fmt::format("gzip chunk of {} bytes", chunk));
  return static_cast<uInt>(chunk);
}

// Length and CRC-32 of what went through.
struct Tally {
  std::uint64_t length = 0;
  uLong crc = crc32(0L, Z_NULL, 0);
  void add(const unsigned char* data, std::size_t size) {
    length += size;
    crc = crc32_z(crc, data, size);
  }
};

// Decompresses the one gzip stream of `path`, handing `sink` each piece.
template <typename Sink>
void gunzip(const fs::path& path, std::size_t chunk, Sink&& sink) {
  uInt size = chunk_size(chunk);
  Fd in = Fd::plain(path);
  z_stream z{};
  if (inflateInit2(&z, kGzipWindow) != Z_OK)
    throw Error(fmt::format("cannot read {}: zlib has no memory", path.string()));
  std::unique_ptr<z_stream, int (*)(z_streamp)> end(&z, inflateEnd);
  std::vector<unsigned char> input(size), output(size);
  int rc = Z_OK;
  while (rc != Z_STREAM_END) {
    z.avail_in = static_cast<uInt>(in.read_some(input.data(), size));
    if (z.avail_in == 0) break;
    z.next_in = input.data();
    do {
      z.next_out = output.data();
      z.avail_out = size;
      rc = inflate(&z, Z_NO_FLUSH);
      if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) {
        throw Error(fmt::format("{} is damaged: {}", path.string(), z.msg != nullptr ? z.msg : "not gzip"));
      }
      sink(output.data(), size - z.avail_out);
    } while (z.avail_out == 0 && rc != Z_STREAM_END);
  }
  if (rc != Z_STREAM_END)
    throw Error(fmt::format("{} is truncated: its gzip stream stops before its end", path.string()));
  std::size_t after = z.avail_in + in.read_some(input.data(), size);
  if (after > 0) throw Error(fmt::format("{} is damaged: bytes follow its gzip stream", path.string()));
}

void gzip_to(const fs::path& from, const fs::path& to, std::size_t chunk, Tally& read) {
  uInt size = chunk_size(chunk);
  Fd in(from, O_RDONLY), out(to, O_WRONLY | O_CREAT | O_TRUNC);
  z_stream z{};
  if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, kGzipWindow, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    throw Error(fmt::format("cannot write {}: zlib has no memory", to.string()));
  }
  std::unique_ptr<z_stream, int (*)(z_streamp)> end(&z, deflateEnd);
  std::vector<unsigned char> input(size), output(size);
  for (int rc = Z_OK; rc != Z_STREAM_END;) {
    std::size_t n = in.read_some(input.data(), size);
    read.add(input.data(), n);
    int flush = n == 0 ? Z_FINISH : Z_NO_FLUSH;
    z.next_in = input.data();
    z.avail_in = static_cast<uInt>(n);
    do {
      z.next_out = output.data();
      z.avail_out = size;
      rc = deflate(&z, flush);
      if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) {
        throw Error(fmt::format("cannot write {}: zlib: {}", to.string(), z.msg != nullptr ? z.msg : "error"));
      }
      out.write_all(output.data(), size - z.avail_out);
    } while (z.avail_out == 0);
    if (z.avail_in != 0) throw Error(fmt::format("cannot write {}: zlib left input unread", to.string()));
  }
  out.sync_and_close();
}

}  // namespace

std::string gzip_file(const fs::path& from, const fs::path& to, std::size_t chunk) {
  fs::path temporary = to;
  temporary += fmt::format(".tmp{}", ::getpid());
  try {
    Tally read, back;
    util::Sha256 digest;
    gzip_to(from, temporary, chunk, read);
    gunzip(temporary, chunk, [&](const unsigned char* data, std::size_t size) {
      back.add(data, size);
      digest.add(data, size);
    });
    if (back.length != read.length || back.crc != read.crc) {
      throw Error(
          fmt::format("cannot write {}: it reads back as {} bytes, not {}", to.string(), back.length, read.length));
    }
    fs::rename(temporary, to);
    return digest.hex();
  } catch (...) {
    std::error_code ignored;
    fs::remove(temporary, ignored);
    throw;
  }
}

std::string for_each_gzip_line(const fs::path& path, std::size_t max_line, std::uint64_t max_total,
                               const std::function<void(std::string_view)>& line, std::size_t chunk) {
  std::string pending;  // a line begun in an earlier piece
  std::uint64_t total = 0;
  util::Sha256 digest;
  auto too_long = [&] { return Error(fmt::format("{} holds a line longer than {} bytes", path.string(), max_line)); };
  gunzip(path, chunk, [&](const unsigned char* data, std::size_t size) {
    total += size;
    if (total > max_total) {
      throw Error(fmt::format("{} holds more than {} bytes: more than rlock reads", path.string(), max_total));
    }
    digest.add(data, size);
    std::string_view text(reinterpret_cast<const char*>(data), size);
    for (std::size_t newline; (newline = text.find('\n')) != std::string_view::npos;) {
      if (pending.size() + newline > max_line) throw too_long();
      if (pending.empty()) {
        line(text.substr(0, newline));
      } else {
        pending.append(text.substr(0, newline));
        line(pending);
        pending.clear();
      }
      text.remove_prefix(newline + 1);
    }
    if (pending.size() + text.size() > max_line) throw too_long();
    pending.append(text);
  });
  if (!pending.empty()) throw Error(fmt::format("{} is truncated: its last line is cut short", path.string()));
  return digest.hex();
}

}  // namespace rlock::store
