// A lock client of any language as a process that rlock's line protocol (docs/clients.md) is
// spoken to: lines on its stdin and stdout. What the lines say is the driver's (client_driver.h).
//
// The client runs as `/bin/sh -c COMMAND` in a process group of its own, so that a pause or a kill
// reaches every process and thread of it (a library's renewal thread freezes with the holder). Its
// stderr goes to a file, never to a pipe that could fill and block it. The object owns the process
// group: the destructor closes the client's stdin, gives it 1 s to exit, then kills the group, and
// reaps the shell. Not thread-safe.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <deque>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "rlock/error.h"

namespace rlock {

// The client broke the protocol (a line that is no valid message, an unknown id), exited early, or
// said nothing in time. Never an anomaly of the lock: the trial
// counts as a client error.
class ClientError : public Error {
 public:
  using Error::Error;
};

class ProtocolClient {
 public:
  // Starts the client. Throws Error when /bin/sh cannot be started or the stderr file not opened.
  ProtocolClient(const std::string& command, const std::filesystem::path& stderr_file);
  ~ProtocolClient();
  ProtocolClient(const ProtocolClient&) = delete;
  ProtocolClient& operator=(const ProtocolClient&) = delete;

  // Writes one line and a newline. Throws ClientError when the client no longer reads (it exited).
  void send(std::string_view line);
  // The client's stdout, for poll(2): readable when a line (or its end) may have arrived.
  int stdout_fd() const { return from_client_; }
  // Reads what the client wrote, without blocking, and returns its next complete line, if any.
  // Throws ClientError when the client closed its stdout with no line left (it exited).
  std::optional<std::string> receive();
  // Waits up to `limit` for the next line; throws ClientError as receive() does, and when nothing
  // came in time.
  std::string receive_within(std::chrono::milliseconds limit);

  // The client's process group, for the nemesis's signals.
  pid_t group() const { return pid_; }
  // The end of the client's stderr file (at most `bytes`), for a client error's report.
  std::string stderr_tail(std::size_t bytes = 400) const;

 private:
  std::filesystem::path stderr_file_;
  pid_t pid_ = 0;
  int to_client_ = -1;
  int from_client_ = -1;
  bool closed_ = false;  // the client closed its stdout
  std::string partial_;  // a line not yet complete
  std::deque<std::string> lines_;
};

}  // namespace rlock
