#include "lab/append_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include <fmt/format.h>

#include "rlock/error.h"

namespace rlock::lab {

AppendFile::AppendFile(std::filesystem::path path)
    : path_(std::move(path)), fd_(::open(path_.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644)) {
  if (fd_ < 0) throw Error(fmt::format("cannot open {} for appending: {}", path_.string(), std::strerror(errno)));
}

AppendFile::~AppendFile() { ::close(fd_); }

void AppendFile::append_line(std::string_view line) const {
  std::string record;
  record.reserve(line.size() + 1);
  record.append(line).push_back('\n');
  ssize_t written;
  do {
    written = ::write(fd_, record.data(), record.size());
  } while (written < 0 && errno == EINTR);
  if (written < 0) throw Error(fmt::format("cannot append to {}: {}", path_.string(), std::strerror(errno)));
  // Retrying the rest would let another writer's line land in between: report it instead.
  if (static_cast<std::size_t>(written) != record.size()) {
    throw Error(fmt::format("short write to {}: {} of {} bytes", path_.string(), written, record.size()));
  }
}

}  // namespace rlock::lab
