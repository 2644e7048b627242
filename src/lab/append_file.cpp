#include "lab/append_file.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include <fmt/format.h>

#include "rlock/error.h"
#include "util/whole_file.h"

namespace rlock::lab {

AppendFile::AppendFile(std::filesystem::path path) : path_(std::move(path)), fd_(util::open_for_append(path_)) {}

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
