#include "rlock/redis_connection.h"

#include <hiredis/hiredis.h>
#include <poll.h>

#include <cerrno>
#include <charconv>

#include <fmt/format.h>

#include "rlock/error.h"

namespace rlock {
namespace {

timeval to_timeval(std::chrono::milliseconds ms) {
  return timeval{static_cast<time_t>(ms.count() / 1000), static_cast<suseconds_t>((ms.count() % 1000) * 1000)};
}

// Parses "7.0.15" into {7, 0}.
std::pair<int, int> parse_version(std::string_view text) {
  int major = 0, minor = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), major);
  if (ec == std::errc() && end < text.data() + text.size() && *end == '.') {
    std::from_chars(end + 1, text.data() + text.size(), minor);
  }
  return {major, minor};
}

// The master that the Sentinel in `address` names now.
RedisAddress ask_sentinel(const RedisAddress& address, RedisTimeouts timeouts) {
  const SentinelTarget& target = *address.sentinel;
  RedisAddress sentinel_address;
  sentinel_address.host = target.host;
  sentinel_address.port = target.port;
  RedisConnection sentinel(sentinel_address, timeouts);
  Reply reply = sentinel.checked({"SENTINEL", "get-master-addr-by-name", target.master});
  if (reply.size() != 2) {
    throw Error(fmt::format("Sentinel at {} knows no master named '{}'", sentinel_address.display(), target.master));
  }
  RedisAddress master = address;
  master.sentinel.reset();
  master.socket.clear();
  master.host = reply.element(0).text();
  master.port = std::stoi(reply.element(1).text());
  return master;
}

// Why hiredis gave up on `context`, from its error code: REDIS_ERR_IO carries the errno of the
// failed call (`error_number`, saved right after it), where EAGAIN and ETIMEDOUT mean that the
// timeout passed; REDIS_ERR_EOF, that the server closed the connection.
std::string failure(const redisContext& context, int error_number, std::string_view timed_out) {
  switch (context.err) {
    case REDIS_ERR_IO:
      if (error_number == EAGAIN || error_number == EWOULDBLOCK || error_number == ETIMEDOUT) {
        return std::string(timed_out);
      }
      break;
#ifdef REDIS_ERR_TIMEOUT  // hiredis 1.0 and later
    case REDIS_ERR_TIMEOUT: return std::string(timed_out);
#endif
    case REDIS_ERR_EOF: return "the server closed the connection";
    default: break;
  }
  return context.errstr;
}

}  // namespace

void Reply::Free::operator()(redisReply* reply) const { freeReplyObject(reply); }

Reply Reply::own(void* raw) {
  std::shared_ptr<redisReply> owner(static_cast<redisReply*>(raw), Free{});
  const redisReply* view = owner.get();
  return Reply(std::move(owner), view);
}

bool Reply::is_error() const { return view_->type == REDIS_REPLY_ERROR; }
bool Reply::is_nil() const { return view_->type == REDIS_REPLY_NIL; }
bool Reply::is_array() const { return view_->type == REDIS_REPLY_ARRAY; }

long long Reply::integer() const {
  if (view_->type != REDIS_REPLY_INTEGER) {
    throw Error(fmt::format("Redis answered '{}' where a number was expected", text()));
  }
  return view_->integer;
}

std::string Reply::text() const {
  switch (view_->type) {
    case REDIS_REPLY_STRING:
    case REDIS_REPLY_STATUS:
    case REDIS_REPLY_ERROR: return std::string(view_->str, view_->len);
    case REDIS_REPLY_INTEGER: return std::to_string(view_->integer);
    case REDIS_REPLY_NIL: return "(nil)";
    default: return "(array)";
  }
}

std::size_t Reply::size() const { return is_array() ? view_->elements : 0; }

Reply Reply::element(std::size_t i) const {
  if (i >= size()) throw Error(fmt::format("Redis reply has no element {}", i));
  return Reply(owner_, view_->element[i]);
}

void RedisConnection::Free::operator()(redisContext* context) const { redisFree(context); }

RedisConnection::RedisConnection(RedisAddress address, RedisTimeouts timeouts)
    : address_(std::move(address)), server_(address_), timeouts_(timeouts) {
  connect();
}

// The connection counts as made only once every step succeeded: until then broken_ stays set, so a
// context that failed its AUTH or SELECT is never used by a command, which connects again first.
void RedisConnection::connect() {
  broken_ = true;
  context_.reset();
  server_ = address_.sentinel ? ask_sentinel(address_, timeouts_) : address_;
  timeval timeout = to_timeval(timeouts_.connect);
  errno = 0;
  context_.reset(server_.socket.empty() ? redisConnectWithTimeout(server_.host.c_str(), server_.port, timeout)
                                        : redisConnectUnixWithTimeout(server_.socket.c_str(), timeout));
  int error_number = errno;
  if (!context_) throw Error(fmt::format("cannot connect to Redis at {}: out of memory", server_.display()));
  if (context_->err) {
    std::string cause =
        failure(*context_, error_number, fmt::format("no answer within {} ms", timeouts_.connect.count()));
    throw Error(fmt::format("cannot connect to Redis at {}: {}", server_.display(), cause));
  }
  if (redisSetTimeout(context_.get(), to_timeval(timeouts_.command)) != REDIS_OK) {
    throw Error(fmt::format("cannot set a command timeout on Redis at {}", server_.display()));
  }
  if (!server_.password.empty()) {
    std::vector<std::string_view> auth{"AUTH"};
    if (!server_.user.empty()) auth.push_back(server_.user);
    auth.push_back(server_.password);
    if (Reply reply = send(auth); reply.is_error()) {
      throw Error(fmt::format("Redis at {} refused the password: {}", server_.display(), reply.text()));
    }
  }
  if (server_.db != 0) {
    if (Reply reply = send({"SELECT", std::to_string(server_.db)}); reply.is_error()) {
      throw Error(fmt::format("Redis at {} refused database {}: {}", server_.display(), server_.db, reply.text()));
    }
  }
  refuse_error({"PING"}, send({"PING"}));  // a listening socket is not yet a Redis that answers
  if (address_.sentinel && refuse_error({"ROLE"}, send({"ROLE"})).element(0).text() != "master") {
    throw Error(fmt::format("Redis at {}, named master by Sentinel, is not a master (a failover under way?)",
                            server_.display()));
  }
  broken_ = false;
}

RedisConnection::~RedisConnection() = default;

Reply RedisConnection::command(const std::vector<std::string_view>& args) {
  if (broken_) reconnect();
  return send(args);
}

Reply RedisConnection::send(const std::vector<std::string_view>& args) {
  std::vector<const char*> argv;
  std::vector<size_t> lengths;
  for (std::string_view arg : args) {
    argv.push_back(arg.data());
    lengths.push_back(arg.size());
  }
  errno = 0;
  void* raw = redisCommandArgv(context_.get(), static_cast<int>(argv.size()), argv.data(), lengths.data());
  if (raw == nullptr) {
    broken_ = true;
    std::string cause = failure(*context_, errno, "no answer before the command timeout");
    throw OutcomeUnknown(fmt::format("Redis at {} did not answer {}: {}", server_.display(), args.front(), cause));
  }
  return Reply::own(raw);
}

std::optional<Reply> RedisConnection::receive(std::chrono::milliseconds timeout) {
  if (broken_) reconnect();
  void* raw = nullptr;
  if (redisGetReplyFromReader(context_.get(), &raw) == REDIS_OK && raw == nullptr) {
    pollfd readable{context_->fd, POLLIN, 0};
    int ready = ::poll(&readable, 1, static_cast<int>(timeout.count()));
    if (ready <= 0) return std::nullopt;  // 0: nothing came; -1: EINTR (a SIGSTOP and SIGCONT, say)
    if (redisBufferRead(context_.get()) == REDIS_OK) redisGetReplyFromReader(context_.get(), &raw);
  }
  if (context_->err) {
    broken_ = true;
    std::string cause = failure(*context_, errno, "no answer before the command timeout");
    throw OutcomeUnknown(
        fmt::format("Redis at {}: connection lost while waiting for a message: {}", server_.display(), cause));
  }
  if (raw == nullptr) return std::nullopt;  // only part of a message has arrived yet
  return Reply::own(raw);
}

// A new command on a lost connection gets a new connection; the command that saw the loss has
// already reported its outcome as unknown. This command was never sent: failing here is an Error.
void RedisConnection::reconnect() {
  try {
    connect();
  } catch (const OutcomeUnknown& e) {
    throw Error(e.what());
  }
}

Reply RedisConnection::checked(const std::vector<std::string_view>& args) { return refuse_error(args, command(args)); }

Reply RedisConnection::refuse_error(const std::vector<std::string_view>& args, Reply reply) const {
  if (reply.is_error()) {
    throw Error(fmt::format("Redis at {} refused {}: {}", server_.display(), args.front(), reply.text()));
  }
  return reply;
}

std::string RedisConnection::server_info(std::string_view field) {
  std::string info = checked({"INFO", "server"}).text();
  std::string prefix = fmt::format("{}:", field);
  for (std::size_t at = 0; at < info.size();) {
    std::size_t end = info.find("\r\n", at);
    if (end == std::string::npos) end = info.size();
    if (std::string_view(info).substr(at, end - at).starts_with(prefix)) {
      return info.substr(at + prefix.size(), end - at - prefix.size());
    }
    at = end + 2;
  }
  throw Error(fmt::format("Redis at {} does not report {} in INFO server", server_.display(), field));
}

std::pair<int, int> RedisConnection::server_version() {
  if (!version_) version_ = parse_version(server_info("redis_version"));
  return *version_;
}

}  // namespace rlock
