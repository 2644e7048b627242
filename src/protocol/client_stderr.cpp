#include "protocol/client_stderr.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "rlock/error.h"

namespace rlock::protocol {
namespace {

void write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // a full disk: the client's stderr is not worth failing its trial
    data += n;
    size -= static_cast<std::size_t>(n);
  }
}

}  // namespace

ClientStderr::ClientStderr(int pipe_end, const std::filesystem::path& file, std::size_t cap)
    : pipe_(pipe_end),
      file_(::open(file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0644)),
      cap_(cap) {
  if (file_ < 0) {
    ::close(pipe_);
    throw Error(fmt::format("cannot open {}: {}", file.string(), std::strerror(errno)));
  }
  ::fcntl(pipe_, F_SETFL, ::fcntl(pipe_, F_GETFL) | O_NONBLOCK);
}

ClientStderr::~ClientStderr() {
  drain();
  if (dropped_ > 0) {
    std::string note = fmt::format("\n[rlock: {} more bytes of stderr dropped past the first {}]\n", dropped_, cap_);
    write_all(file_, note.data(), note.size());
  }
  ::close(file_);
  ::close(pipe_);
}

void ClientStderr::drain() {
  char buffer[65536];
  for (int reads = 0; reads < 16; ++reads) {  // 1 MiB a call: a client that never stops cannot hold rlock here
    ssize_t n = ::read(pipe_, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // nothing more now, or the client closed it
    auto size = static_cast<std::size_t>(n);
    std::size_t keep = std::min(size, cap_ - kept_);
    write_all(file_, buffer, keep);
    kept_ += keep;
    dropped_ += size - keep;
    tail_.append(buffer + size - std::min(size, kClientStderrTail), std::min(size, kClientStderrTail));
    if (tail_.size() > kClientStderrTail) tail_.erase(0, tail_.size() - kClientStderrTail);
  }
}

std::string ClientStderr::tail() const {
  std::string text = tail_;
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

}  // namespace rlock::protocol
