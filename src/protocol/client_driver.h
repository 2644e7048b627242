// One protocol client as the harness drives it (docs/clients.md): the process started for a
// worker, the handshake, its increment's messages read without blocking and checked, the account
// it reads and writes served, and every client error made in one place, naming the worker and
// quoting the end of the client's stderr on the same line.
//
// What differs between the harnesses stays with them: a chaos trial holds answers back for the
// work time and writes under delayed-write, logs each step and signals the process group; the
// bench answers at once and times the increments. They decide when to send what the driver
// serves, and when the client's silence counts.
//
// Whatever a client does, its trial stays bounded: a line is at most kMaxLineBytes
// (protocol_client.h), an increment at most kMaxMessagesPerIncrement messages, and a client that
// owes an answer may be silent for silence_limit(TTL), the one place that limit is derived.
//
// The driver owns its client (protocol_client.h: its process group ends with the driver). Every
// error of the client throws ClientError, its text made printable (util/printable.h). Not
// thread-safe.
#pragma once

#include <sys/types.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/messages.h"
#include "protocol/protocol_client.h"
#include "protocol/served_account.h"

namespace rlock::protocol {

// A read, a write, its steps and a done, and retries: more than this in one increment is a client error.
inline constexpr int kMaxMessagesPerIncrement = 64;

// How long a client that owes an answer may say nothing: 10 TTLs, as a library waits for its lock,
// and 5 s more.
constexpr std::chrono::milliseconds silence_limit(std::chrono::milliseconds ttl) {
  return 10 * ttl + std::chrono::seconds(5);
}

// How long a client may take to answer init: its runtime's start-up, before any trial's clock, and
// a JVM's is long (its first lock is taken then too; 15 s and more when several start at once on
// two loaded cores). At least 60 s, never less than the silence limit.
constexpr std::chrono::milliseconds start_limit(std::chrono::milliseconds ttl) {
  return std::max<std::chrono::milliseconds>(silence_limit(ttl), std::chrono::seconds(60));
}

class ClientDriver {
 public:
  using Clock = std::chrono::steady_clock;

  // Starts `command` as the client of the worker named `worker`, its stderr to `stderr_file`, with
  // `environment_overrides` (protocol_client.h). Throws Error when it cannot be started at all.
  ClientDriver(std::string worker, const std::string& command, const std::filesystem::path& stderr_file,
               const std::vector<std::string>& environment_overrides = {});

  // The handshake in two halves, so that a trial's clients start side by side: init sent, then
  // init_ok awaited for up to `limit`.
  void send_init(const protocol::Init& init);
  void await_init_ok(std::chrono::milliseconds limit);
  // The second half without blocking (a client started again mid-history): whether init_ok came;
  // a client error past `deadline`.
  bool init_ok_came(Clock::time_point deadline);

  // Sends the increment: until its done, the client's messages must carry its id.
  void send_increment(const protocol::Increment& increment);
  // Sends an answer (read_ok, write_ok), now or when the harness held it long enough.
  void send(const protocol::HarnessMessage& message);
  // Whether an increment was sent and its done has not come yet.
  bool under_way() const { return increment_.has_value(); }

  // The client's next message, if one came, read without blocking: a read, a write, a step or a done
  // of the increment under way (a done ends it). Anything else is a client error, and so is a message
  // past the increment's kMaxMessagesPerIncrement.
  std::optional<protocol::ClientMessage> receive();
  // Lets the client take the step it announced: the harness armed whatever waits for that step.
  void answer(const protocol::Step& step) { send(protocol::StepOk{step.id}); }

  // The answer to the increment's read, served from `account` (`amount`: the increment's).
  protocol::ReadOk serve_read(ServedAccount& account, const protocol::Read& read, long long amount) const;
  // The increment's write applied to `account`, and its answer; a write that is not its read plus
  // its amount, or has no read before it, is a client error.
  protocol::WriteOk serve_write(ServedAccount& account, const protocol::Write& write) const;

  // The client's silence counts from its last message, from the increment sent, or from now.
  void reset_silence() { heard_ = Clock::now(); }
  // A client error when the client has said nothing for longer than `limit`.
  void check_silence(std::chrono::milliseconds limit) const;
  // Ends the client's stdin, then whether it wrote a line within `limit`: a client silent until
  // then held its lines in a buffer it never flushed.
  bool answers_once_stdin_ends(std::chrono::milliseconds limit);

  const std::string& worker() const { return worker_; }
  // The client's process group, for the nemesis's signals.
  pid_t group() const { return client_->group(); }
  // The client's stdout and stderr, for poll(2).
  int stdout_fd() const { return client_->stdout_fd(); }
  int stderr_fd() const { return client_->stderr_fd(); }

 private:
  // The client error `what`, with the end of the client's stderr, in one line.
  [[noreturn]] void fail(std::string_view what) const;
  // The client's next line, if one came; its process's errors are fail's.
  std::optional<std::string> receive_line();
  protocol::ClientMessage decode(const std::string& line) const;

  std::string worker_;
  std::unique_ptr<ProtocolClient> client_;
  std::optional<long long> increment_;  // the id of the increment under way
  int messages_ = 0;                    // of the increment under way
  Clock::time_point heard_{};
};

// Waits up to `timeout` for a line (or stderr to drain) from any of `drivers`' clients.
void wait_for_any(const std::vector<const ClientDriver*>& drivers, std::chrono::milliseconds timeout);

}  // namespace rlock::protocol
