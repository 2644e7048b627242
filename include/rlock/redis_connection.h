// A synchronous connection to one Redis server, owning its hiredis context (RAII).
//
// Connecting and every command are bounded by timeouts. Failures become rlock errors that name the
// server's address and the cause: rlock::Error when connecting fails or the server answers with an
// error, rlock::OutcomeUnknown when a command was sent and no answer came back (timeout, connection
// lost). The next command after a lost connection reconnects first (and throws Error when it
// cannot): the lost command's outcome stays unknown, but a restarted Redis is reachable again. A
// connection counts as made only once AUTH, SELECT and PING all succeeded: a command never runs on
// one that failed them (unauthenticated, or in another database); it tries to connect again.
// With a Sentinel in the address, every connect and reconnect asks it for the current master, so a
// connection follows a failover. Not thread-safe: one connection per thread (the watchdog opens its own).
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rlock/redis_address.h"

struct redisContext;
struct redisReply;

namespace rlock {

struct RedisTimeouts {
  std::chrono::milliseconds connect{2000};
  std::chrono::milliseconds command{2000};
};

// One reply, owned. Nested replies (array elements) are views into their parent.
class Reply {
 public:
  bool is_error() const;
  bool is_nil() const;
  bool is_array() const;
  long long integer() const;  // throws Error unless the reply is an integer
  std::string text() const;   // a string, status or error reply
  std::size_t size() const;   // number of array elements
  Reply element(std::size_t i) const;

 private:
  friend class RedisConnection;
  struct Free {
    void operator()(redisReply* reply) const;
  };
  Reply(std::shared_ptr<redisReply> owner, const redisReply* view) : owner_(std::move(owner)), view_(view) {}
  static Reply own(void* raw);  // takes a reply that hiredis handed over
  std::shared_ptr<redisReply> owner_;
  const redisReply* view_;
};

class RedisConnection {
 public:
  // Connects, then AUTH and SELECT as the address asks, then PING. Throws Error naming the address
  // and the cause (a refused password or database, the connect timeout, a refused connection), or
  // OutcomeUnknown when the server accepted the connection but did not answer.
  explicit RedisConnection(RedisAddress address, RedisTimeouts timeouts = {});
  ~RedisConnection();
  RedisConnection(const RedisConnection&) = delete;
  RedisConnection& operator=(const RedisConnection&) = delete;

  // Sends one command and returns its reply, which may be an error reply (see Reply::is_error).
  Reply command(const std::vector<std::string_view>& args);
  // Like command(), but an error reply throws Error with the server's message.
  Reply checked(const std::vector<std::string_view>& args);

  // Waits up to `timeout` for one more reply that no command asked for: a message on a connection
  // that sent SUBSCRIBE, a line of MONITOR. Empty when none came in time (or a signal cut the wait
  // short). Throws OutcomeUnknown when the connection is lost; a subscription does not survive it
  // (the next command reconnects, unsubscribed).
  std::optional<Reply> receive(std::chrono::milliseconds timeout);

  // One field of INFO server, e.g. "uptime_in_seconds". Throws Error when the server lacks it.
  std::string server_info(std::string_view field);
  // The server's redis_version from INFO server, as {major, minor}; asked once and remembered.
  std::pair<int, int> server_version();

  // Drops the connection and connects again (asking the Sentinel again, when there is one).
  // Throws Error when that fails.
  void reconnect();

  // The server this connection talks to (for a Sentinel address, the master it named last).
  const RedisAddress& address() const { return server_; }

 private:
  struct Free {
    void operator()(redisContext* context) const;
  };
  void connect();
  // Sends one command on the context as it is, without connecting first.
  Reply send(const std::vector<std::string_view>& args);
  // `reply`, unless it is an error reply: then throws Error naming the command and the server.
  Reply refuse_error(const std::vector<std::string_view>& args, Reply reply) const;

  RedisAddress address_;  // as given: may name a Sentinel
  RedisAddress server_;   // as connected
  RedisTimeouts timeouts_;
  std::unique_ptr<redisContext, Free> context_;
  bool broken_ = false;
  std::optional<std::pair<int, int>> version_;
};

}  // namespace rlock
