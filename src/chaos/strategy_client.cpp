#include "chaos/strategy_client.h"

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "rlock/acquire.h"
#include "rlock/error.h"
#include "rlock/patterns/redlock.h"
#include "rlock/redis_address.h"
#include "rlock/redis_connection.h"
#include "rlock/redis_lock.h"
#include "rlock/watchdog.h"

namespace rlock {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;

constexpr auto kBusyRetry = 10ms;  // as the built-in chaos worker asks again for a refused lock

// The harness closed the client's stdin: the trial is over.
struct TrialOver {};

// The harness sent what the protocol does not allow. Not a lock failure: it ends the client.
class HarnessError : public Error {
 public:
  using Error::Error;
};

struct Increment {
  long long id = 0;
  std::string key;
  long long amount = 0;
};

// The harness's end of the protocol, seen from the client.
class Harness {
 public:
  Harness(std::istream& in, std::ostream& out) : in_(in), out_(out) {}

  // The next message, which must be of `type`; none when the harness closed stdin.
  std::optional<json> next(std::string_view type) {
    std::string line;
    if (!std::getline(in_, line)) return std::nullopt;
    json message = json::parse(line, nullptr, false);
    if (!message.is_object() || message.value("type", "") != type) {
      throw HarnessError(fmt::format("expected a message of type {}, got: {}", type, line));
    }
    return message;
  }
  json answer(std::string_view type) {
    std::optional<json> message = next(type);
    if (!message) throw TrialOver{};
    return *message;
  }
  void send(const json& message) { out_ << message.dump() << '\n' << std::flush; }

  struct Read {
    long long balance = 0;
    bool claimed = false;
  };
  // A read; with a fence, one that claims it.
  Read read(long long id, const std::optional<Fence>& claim) {
    json read{{"type", "read"}, {"id", id}};
    if (claim) read.update({{"token", claim->value}, {"claim", true}});
    send(read);
    json ok = answer("read_ok");
    return {ok.at("balance").get<long long>(), ok.value("claimed", false)};
  }
  bool write(long long id, long long balance, const std::optional<Fence>& fence) {
    json write{{"type", "write"}, {"id", id}, {"balance", balance}};
    if (fence) write["token"] = fence->value;
    send(write);
    return answer("write_ok").value("applied", false);
  }

 private:
  std::istream& in_;
  std::ostream& out_;
};

// How one pass from acquisition to release ended, as the built-in worker's read_modify_write says.
enum class Pass { written, rejected, lock_lost };

class StrategyClient {
 public:
  StrategyClient(Strategy strategy, Harness& harness, const json& init)
      : strategy_(strategy), harness_(harness), ttl_(init.at("ttl_ms").get<long long>()) {
    for (const json& url : init.at("redis")) servers_.push_back(RedisAddress::parse(url.get<std::string>()));
    if (servers_.empty()) throw UsageError("init named no Redis server");
    if (strategy == Strategy::redlock && servers_.size() < 3) {
      throw UsageError("redlock needs three Redis servers in init: declare the client as NAME@3=COMMAND");
    }
    if (strategy != Strategy::redlock) redis_.emplace(servers_.front());
  }

  // The increment's error, if it gave up; none when its write was applied.
  std::optional<std::string> run(const Increment& increment) {
    try {
      return strategy_ == Strategy::redlock ? run_redlock(increment) : run_single(increment);
    } catch (const HarnessError&) {
      throw;
    } catch (const Error& e) {
      return e.what();
    }
  }

 private:
  // The acquisition policy of the built-in chaos worker, bounded by 10 TTLs: the harness waits no
  // longer for an answer (the built-in worker, waiting longer, ends up stuck at the trial's end).
  AcquirePolicy policy() const { return AcquirePolicy{.retry = kBusyRetry, .deadline = 10 * ttl_}; }

  // The built-in Worker's attempts (lab_worker.cpp), with the account behind the protocol.
  std::optional<std::string> run_single(const Increment& increment) {
    RedisLock lock(*redis_, LockKey::named(increment.key));
    Acquirer acquirer(lock, servers_.front(), policy());
    for (;;) {
      Acquisition acquired = takes_fence(strategy_) ? acquirer.acquire_fenced(ttl_) : acquirer.acquire(ttl_);
      if (!acquired) return fmt::format("could not acquire {} in 10 TTLs", increment.key);
      const Lease& lease = *acquired.lease;
      std::optional<Watchdog> watchdog;
      if (strategy_ == Strategy::watchdog) {
        watchdog.emplace(servers_.front(), lock.key(), lease.token, ttl_, [](const WatchdogReport&) {});
      }
      Pass pass = read_modify_write(lock, lease, increment);
      if (watchdog) watchdog->stop();
      if (lock.release(lease.token) == ReleaseResult::unknown) {
        return fmt::format("the release of {} got no answer ({})", increment.key, lock.last_release_error());
      }
      if (pass == Pass::written) return std::nullopt;
      if (pass == Pass::rejected && !retries_rejected_write(strategy_)) {
        return fmt::format("the fenced write was rejected (fencing token {} is stale)", lease.fence->value);
      }
    }
  }

  Pass read_modify_write(RedisLock& lock, const Lease& lease, const Increment& increment) {
    bool claim = strategy_ == Strategy::fenced_claim;
    Harness::Read read = harness_.read(increment.id, claim ? lease.fence : std::nullopt);
    if (claim && !read.claimed) return Pass::rejected;
    if (strategy_ == Strategy::check_before_write && !lock.holds(lease.token).held) return Pass::lock_lost;
    return harness_.write(increment.id, read.balance + increment.amount, lease.fence) ? Pass::written : Pass::rejected;
  }

  // The built-in RedlockWorker: a majority's lock, an unchecked write.
  std::optional<std::string> run_redlock(const Increment& increment) {
    Redlock lock(servers_, LockKey::named(increment.key));
    RedlockAttempt attempt = RedlockAcquirer(lock, policy()).acquire(ttl_);
    if (!attempt) return fmt::format("could not acquire {} on a majority in 10 TTLs", increment.key);
    Harness::Read read = harness_.read(increment.id, std::nullopt);
    harness_.write(increment.id, read.balance + increment.amount, std::nullopt);
    lock.release(*attempt.token);
    return std::nullopt;
  }

  Strategy strategy_;
  Harness& harness_;
  std::chrono::milliseconds ttl_;
  std::vector<RedisAddress> servers_;
  std::optional<RedisConnection> redis_;  // the one server, for all but redlock
};

}  // namespace

void check_client_strategy(Strategy strategy) {
  if (in_postgres(strategy)) {
    throw UsageError(fmt::format(
        "{} locks inside PostgreSQL, around the account that the harness serves: the protocol cannot express it",
        to_string(strategy)));
  }
}

void run_strategy_client(Strategy strategy, std::istream& in, std::ostream& out) {
  check_client_strategy(strategy);
  Harness harness(in, out);
  std::optional<json> init = harness.next("init");
  if (!init) return;
  StrategyClient client(strategy, harness, *init);
  harness.send({{"type", "init_ok"}});
  try {
    while (std::optional<json> message = harness.next("increment")) {
      Increment increment{message->at("id").get<long long>(), message->at("key").get<std::string>(),
                          message->at("amount").get<long long>()};
      std::optional<std::string> error = client.run(increment);
      json done{{"type", "done"}, {"id", increment.id}};
      if (error) done["error"] = *error;
      harness.send(done);
    }
  } catch (const TrialOver&) {
  } catch (const json::exception& e) {
    throw HarnessError(fmt::format("a message without the protocol's fields: {}", e.what()));
  }
}

}  // namespace rlock
