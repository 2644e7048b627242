#include "protocol/strategy_client.h"

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "protocol/codec.h"
#include "protocol/messages.h"
#include "rlock/acquire.h"
#include "rlock/error.h"
#include "rlock/redis_address.h"
#include "strategy/account.h"
#include "strategy/incrementer.h"
#include "strategy/step_hook.h"

namespace rlock::protocol {
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

 private:
  std::istream& in_;
  std::ostream& out_;
};

// The account the harness serves, through the protocol's read, claim and write messages of the
// increment being answered. The work between read and write is the harness's: it holds the read's
// answer back.
class ServedAccount final : public strategy::Account {
 public:
  explicit ServedAccount(Harness& harness) : harness_(harness) {}

  void serve(long long increment) { id_ = increment; }
  long long serving() const { return id_; }

  long long read() override {
    harness_.send(protocol::Read{id_, std::nullopt, false});
    return harness_.answer<protocol::ReadOk>().balance;
  }
  std::optional<long long> claim_read(Fence fence) override {
    harness_.send(protocol::Read{id_, fence.value, true});
    protocol::ReadOk ok = harness_.answer<protocol::ReadOk>();
    if (!ok.claimed.value_or(false)) return std::nullopt;
    return ok.balance;
  }
  void write(long long balance) override { send_write(balance, std::nullopt); }
  long long fenced_write(long long balance, Fence fence) override { return send_write(balance, fence.value) ? 1 : 0; }
  long long claimed_write(long long balance, Fence fence) override { return fenced_write(balance, fence); }
  long long add_atomically(long long) override { throw UsageError(kPostgresOnly); }
  long long locked_update(bank::AccountStore::TxLock, const std::function<long long(long long)>&) override {
    throw UsageError(kPostgresOnly);
  }

 private:
  static constexpr const char* kPostgresOnly = "the protocol cannot lock inside PostgreSQL";

  bool send_write(long long balance, std::optional<long long> token) {
    harness_.send(protocol::Write{id_, balance, token});
    return harness_.answer<protocol::WriteOk>().applied;
  }

  Harness& harness_;
  long long id_ = 0;
};

// The steps a harness's fault may wait for, announced (docs/clients.md): the release.
class AnnouncedSteps final : public strategy::StepHook {
 public:
  AnnouncedSteps(Harness& harness, const ServedAccount& account) : harness_(harness), account_(account) {}

  void before(lab::Step step) override {
    if (step != lab::Step::release) return;
    harness_.send(protocol::Step{account_.serving(), std::string(protocol::kReleaseStep)});
    harness_.answer<protocol::StepOk>();
  }

 private:
  Harness& harness_;
  const ServedAccount& account_;
};

// The strategy on the servers init named, its lock the increment's key: built again when an
// increment names another key.
class StrategyClient {
 public:
  StrategyClient(lab::Strategy strategy, WaitMode wait, Harness& harness, const protocol::Init& init)
      : account_(harness), steps_(harness, account_) {
    setting_.strategy = strategy;
    setting_.name = init.name;
    setting_.ttl = std::chrono::milliseconds(init.ttl_ms);
    // The built-in chaos worker's retry, bounded by 10 TTLs: the harness waits no longer for an
    // answer (the built-in worker, waiting longer, ends up stuck at the trial's end).
    setting_.policy = AcquirePolicy{.retry = kBusyRetry, .wait = wait, .deadline = 10 * setting_.ttl};
    for (const std::string& url : init.redis) setting_.redlock.push_back(RedisAddress::parse(url));
    if (setting_.redlock.empty()) throw UsageError("init named no Redis server");
    if (setting_.redlock.size() < static_cast<std::size_t>(lab::lock_servers(strategy))) {
      throw UsageError("redlock needs three Redis servers in init: declare the client as NAME@3=COMMAND");
    }
    setting_.redis = setting_.redlock.front();
  }

  // The increment's error, if it gave up; none when its write was applied.
  std::optional<std::string> run(const protocol::Increment& increment) {
    try {
      if (!strategy_ || setting_.key.lock != increment.key) {
        strategy_.reset();
        setting_.key = LockKey::named(increment.key);
        strategy_ = strategy::make_incrementer(setting_, {account_, journal_, steps_});
      }
      account_.serve(increment.id);
      strategy_->increment(increment.amount);
      return std::nullopt;
    } catch (const HarnessError&) {
      throw;
    } catch (const Error& e) {
      return e.what();
    }
  }

 private:
  strategy::Setting setting_;
  ServedAccount account_;
  strategy::Journal journal_;  // the history is the harness's
  AnnouncedSteps steps_;
  std::unique_ptr<strategy::Incrementer> strategy_;
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
  if (lab::lock_servers(strategy) == 3 && wait != WaitMode::poll) {
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

}  // namespace rlock::protocol
