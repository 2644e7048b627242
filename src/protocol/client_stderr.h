// A protocol client's stderr, read by the harness from a pipe and kept in a file up to a cap: what
// comes past the cap is counted and dropped, so that a client cannot fill the disk or rlock's
// memory, and a note at the file's end says how much was dropped. The last bytes the client wrote
// are kept in memory too, for a client error's report, so that nothing ever reads the file back.
//
// The object owns the pipe's read end and the file. drain() never blocks: the harness calls it
// whenever it reads the client, so that a client that writes a lot never blocks on a full pipe.
// Not thread-safe.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>

namespace rlock::protocol {

inline constexpr std::size_t kClientStderrCap = 1 << 20;  // bytes kept in the file
inline constexpr std::size_t kClientStderrTail = 400;     // bytes kept for a client error

class ClientStderr {
 public:
  // Takes `pipe_end` (the read end, made non-blocking here) and creates or appends to `file`.
  // Throws Error when the file cannot be opened.
  ClientStderr(int pipe_end, const std::filesystem::path& file, std::size_t cap = kClientStderrCap);
  ~ClientStderr();
  ClientStderr(const ClientStderr&) = delete;
  ClientStderr& operator=(const ClientStderr&) = delete;

  // Reads what the client wrote so far (1 MiB at most), without blocking.
  void drain();
  int fd() const { return pipe_; }
  // The last bytes the client wrote (at most kClientStderrTail), trailing blanks removed.
  std::string tail() const;
  // Bytes read past the cap, not kept.
  std::size_t dropped() const { return dropped_; }

 private:
  int pipe_;
  int file_;
  std::size_t cap_;
  std::size_t kept_ = 0;
  std::size_t dropped_ = 0;
  std::string tail_;
};

}  // namespace rlock::protocol
