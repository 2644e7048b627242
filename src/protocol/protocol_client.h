// A lock client of any language as a process that rlock's line protocol (docs/clients.md) is
// spoken to: lines on its stdin and stdout. What the lines say is the driver's (client_driver.h).
//
// The client runs as `/bin/sh -c COMMAND` in a process group of its own, so that a pause or a kill
// reaches every process and thread of it (a library's renewal thread freezes with the holder), and
// where rlock may (as root), in a PID namespace of its own, whose first process the shell is: when
// it ends, the kernel kills every process left in the namespace, a grandchild that left the group
// with setsid included. It gets only the allowed variables of rlock's environment
// (client_environment.h). Its stderr goes through a pipe to a file, kept up to a cap
// (client_stderr.h).
//
// What the client writes is bounded: a line longer than kMaxLineBytes is a client error, whether
// or not a newline ever comes. The object owns the process group: the destructor closes the
// client's stdin, gives it 1 s to exit, then kills the group, and reaps the shell. Not thread-safe.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <deque>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/client_stderr.h"
#include "rlock/error.h"

namespace rlock::protocol {

inline constexpr std::size_t kMaxLineBytes = 64 * 1024;

// The client broke the protocol (a line that is no valid message, an unknown id), exited early, or
// said nothing in time. Never an anomaly of the lock: the trial
// counts as a client error.
class ClientError : public Error {
 public:
  using Error::Error;
};

// Whether clients get a PID namespace of their own: probed once; when they cannot, one warning
// line says so, and a client's process that leaves its group may outlive its trial.
bool clients_get_pid_namespace();

class ProtocolClient {
 public:
  // Starts the client, its environment's allowed variables with `environment_overrides` (NAME=VALUE)
  // in their place. Throws Error when /bin/sh cannot be started or the stderr file not opened.
  ProtocolClient(const std::string& command, const std::filesystem::path& stderr_file,
                 const std::vector<std::string>& environment_overrides = {});
  ~ProtocolClient();
  ProtocolClient(const ProtocolClient&) = delete;
  ProtocolClient& operator=(const ProtocolClient&) = delete;

  // Writes one line and a newline. Throws ClientError when the client no longer reads (it exited).
  void send(std::string_view line);
  // The client's stdout and its stderr's pipe, for poll(2): readable when a line (or its end) may
  // have arrived, or stderr wants draining.
  int stdout_fd() const { return from_client_; }
  int stderr_fd() const { return stderr_->fd(); }
  // Reads what the client wrote, without blocking, and returns its next complete line, if any.
  // Throws ClientError when the client closed its stdout with no line left (it exited), and for a
  // line longer than kMaxLineBytes.
  std::optional<std::string> receive();
  // Waits up to `limit` for the next line; throws ClientError as receive() does, and when nothing
  // came in time.
  std::string receive_within(std::chrono::milliseconds limit);
  // Ends the client's stdin, as the end of its trial does; what it writes then can still be read.
  void end_stdin();
  // The client's process group, for the nemesis's signals.
  pid_t group() const { return pid_; }
  // The end of the client's stderr, for a client error's report (raw bytes: see printable.h).
  std::string stderr_tail() const { return stderr_->tail(); }

 private:
  std::unique_ptr<ClientStderr> stderr_;
  pid_t pid_ = 0;
  int to_client_ = -1;
  int from_client_ = -1;
  bool closed_ = false;  // the client closed its stdout
  std::string partial_;  // a line not yet complete
  std::deque<std::string> lines_;
};

}  // namespace rlock::protocol
