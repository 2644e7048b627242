#include "chaos/strategy_client.h"

#include <chrono>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "protocol/codec.h"
#include "protocol/messages.h"
#include "rlock/acquire.h"
#include "rlock/error.h"
#include "rlock/patterns/redlock.h"
#include "rlock/redis_address.h"
#include "rlock/redis_connection.h"
#include "rlock/redis_lock.h"
#include "rlock/watchdog.h"

namespace rlock::chaos {
namespace {

using namespace std::chrono_literals;

constexpr auto kBusyRetry = 10ms;  // as the built-in chaos worker asks again for a refused lock

// The harness closed the client's stdin: the trial is over.
struct TrialOver {};

// The harness sent what the protocol does not allow. Not a lock failure: it ends the client.
class HarnessError : public Error {
 public:
  using Error::Error;
};

// The harness's end of the protocol, seen from the client.
class Harness {
 public:
  Harness(std::istream& in, std::ostream& out) : in_(in), out_(out) {}

  // The next message, which must be a `Message`; none when the harness closed stdin.
  template <typename Message>
  std::optional<Message> next() {
    std::string line;
    if (!std::getline(in_, line)) return std::nullopt;
    protocol::HarnessMessage message;
    try {
      message = protocol::decode_harness_message(line);
    } catch (const protocol::BadMessage& e) {
      throw HarnessError(fmt::format("the harness sent {}", e.what()));
    }
    if (const Message* expected = std::get_if<Message>(&message)) return *expected;
    throw HarnessError(fmt::format("expected a message of type {}, got: {}", Message::kType, line));
  }
  template <typename Message>
  Message answer() {
    std::optional<Message> message = next<Message>();
    if (!message) throw TrialOver{};
    return *message;
  }
  void send(const protocol::ClientMessage& message) { out_ << protocol::encode(message) << '\n' << std::flush; }

  struct Read {
    long long balance = 0;
    bool claimed = false;
  };
  // A read; with a fence, one that claims it.
  Read read(long long id, const std::optional<Fence>& claim) {
    send(protocol::Read{id, claim ? std::optional<long long>(claim->value) : std::nullopt, claim.has_value()});
    protocol::ReadOk ok = answer<protocol::ReadOk>();
    return {ok.balance, ok.claimed.value_or(false)};
  }
  bool write(long long id, long long balance, const std::optional<Fence>& fence) {
    send(protocol::Write{id, balance, fence ? std::optional<long long>(fence->value) : std::nullopt});
    return answer<protocol::WriteOk>().applied;
  }

 private:
  std::istream& in_;
  std::ostream& out_;
};

// How one pass from acquisition to release ended, as the built-in worker's read_modify_write says.
enum class Pass { written, rejected, lock_lost };

class StrategyClient {
 public:
  StrategyClient(lab::Strategy strategy, WaitMode wait, Harness& harness, const protocol::Init& init)
      : strategy_(strategy), wait_(wait), harness_(harness), ttl_(init.ttl_ms) {
    for (const std::string& url : init.redis) servers_.push_back(RedisAddress::parse(url));
    if (servers_.empty()) throw UsageError("init named no Redis server");
    if (strategy == lab::Strategy::redlock && servers_.size() < 3) {
      throw UsageError("redlock needs three Redis servers in init: declare the client as NAME@3=COMMAND");
    }
    if (strategy != lab::Strategy::redlock) redis_.emplace(servers_.front());
  }

  // The increment's error, if it gave up; none when its write was applied.
  std::optional<std::string> run(const protocol::Increment& increment) {
    try {
      return strategy_ == lab::Strategy::redlock ? run_redlock(increment) : run_single(increment);
    } catch (const HarnessError&) {
      throw;
    } catch (const Error& e) {
      return e.what();
    }
  }

 private:
  // The acquisition policy of the built-in chaos worker, bounded by 10 TTLs: the harness waits no
  // longer for an answer (the built-in worker, waiting longer, ends up stuck at the trial's end).
  AcquirePolicy policy() const { return AcquirePolicy{.retry = kBusyRetry, .wait = wait_, .deadline = 10 * ttl_}; }

  // The built-in Worker's attempts (lab_worker.cpp), with the account behind the protocol.
  std::optional<std::string> run_single(const protocol::Increment& increment) {
    RedisLock lock(*redis_, LockKey::named(increment.key), LockOptions{.waiters = wait_});
    Acquirer acquirer(lock, servers_.front(), policy());
    for (;;) {
      Acquisition acquired = lab::takes_fence(strategy_) ? acquirer.acquire_fenced(ttl_) : acquirer.acquire(ttl_);
      if (!acquired) return fmt::format("could not acquire {} in 10 TTLs", increment.key);
      const Lease& lease = *acquired.lease;
      std::optional<Watchdog> watchdog;
      if (strategy_ == lab::Strategy::watchdog) {
        watchdog.emplace(servers_.front(), lock.key(), lease.token, ttl_, [](const WatchdogReport&) {});
      }
      Pass pass = read_modify_write(lock, lease, increment);
      if (watchdog) watchdog->stop();
      if (lock.release(lease.token) == ReleaseResult::unknown) {
        return fmt::format("the release of {} got no answer ({})", increment.key, lock.last_release_error());
      }
      if (pass == Pass::written) return std::nullopt;
      if (pass == Pass::rejected && !lab::retries_rejected_write(strategy_)) {
        return fmt::format("the fenced write was rejected (fencing token {} is stale)", lease.fence->value);
      }
    }
  }

  Pass read_modify_write(RedisLock& lock, const Lease& lease, const protocol::Increment& increment) {
    bool claim = strategy_ == lab::Strategy::fenced_claim;
    Harness::Read read = harness_.read(increment.id, claim ? lease.fence : std::nullopt);
    if (claim && !read.claimed) return Pass::rejected;
    if (strategy_ == lab::Strategy::check_before_write && !lock.holds(lease.token).held) return Pass::lock_lost;
    return harness_.write(increment.id, read.balance + increment.amount, lease.fence) ? Pass::written : Pass::rejected;
  }

  // The built-in RedlockWorker: a majority's lock, an unchecked write.
  std::optional<std::string> run_redlock(const protocol::Increment& increment) {
    Redlock lock(servers_, LockKey::named(increment.key));
    RedlockAttempt attempt = RedlockAcquirer(lock, policy()).acquire(ttl_);
    if (!attempt) return fmt::format("could not acquire {} on a majority in 10 TTLs", increment.key);
    Harness::Read read = harness_.read(increment.id, std::nullopt);
    harness_.write(increment.id, read.balance + increment.amount, std::nullopt);
    lock.release(*attempt.token);
    return std::nullopt;
  }

  lab::Strategy strategy_;
  WaitMode wait_;
  Harness& harness_;
  std::chrono::milliseconds ttl_;
  std::vector<RedisAddress> servers_;
  std::optional<RedisConnection> redis_;  // the one server, for all but redlock
};

}  // namespace

void check_client_strategy(lab::Strategy strategy) {
  if (lab::in_postgres(strategy)) {
    throw UsageError(fmt::format(
        "{} locks inside PostgreSQL, around the account that the harness serves: the protocol cannot express it",
        lab::to_string(strategy)));
  }
}

void check_client_wait(lab::Strategy strategy, WaitMode wait) {
  if (strategy == lab::Strategy::redlock && wait != WaitMode::poll) {
    throw UsageError(
        fmt::format("--wait {}: redlock's quorum has no queue and no announcement; it polls", wait_mode_name(wait)));
  }
}

void run_strategy_client(lab::Strategy strategy, WaitMode wait, std::istream& in, std::ostream& out) {
  check_client_strategy(strategy);
  check_client_wait(strategy, wait);
  Harness harness(in, out);
  std::optional<protocol::Init> init = harness.next<protocol::Init>();
  if (!init) return;
  StrategyClient client(strategy, wait, harness, *init);
  harness.send(protocol::InitOk{});
  try {
    while (std::optional<protocol::Increment> increment = harness.next<protocol::Increment>()) {
      harness.send(protocol::Done{increment->id, client.run(*increment)});
    }
  } catch (const TrialOver&) {
  }
}

}  // namespace rlock::chaos
