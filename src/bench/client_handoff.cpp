#include "bench/client_handoff.h"

#include <algorithm>
#include <optional>
#include <random>
#include <variant>

#include <fmt/format.h>

#include "bench/bench_contended.h"
#include "bench/client_rows.h"
#include "bench/handoff_sections.h"
#include "protocol/served_account.h"

namespace rlock::bench {
namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

// One client process: the increment it is doing, and the answer to its read while the bench holds it back.
struct HandoffProcess {
  protocol::ClientDriver client;
  std::optional<Clock::time_point> acquired;  // its increment's first read came
  std::optional<std::pair<Clock::time_point, protocol::ReadOk>> held;
  bool parked = false;  // it released: its next increment waits for another client's section
};

class HandoffRun {
 public:
  HandoffRun(const BenchSetup& setup, const protocol::ClientSpec& spec, const std::string& name)
      : key_(LockKey::for_account(setup.account).lock),
        account_(bank::AccountStore::kInitialBalance),
        rng_(std::random_device{}()) {
    for (protocol::ClientDriver& client : start_client_processes(setup, spec, setup.clients, name))
      processes_.push_back(HandoffProcess{std::move(client), std::nullopt, std::nullopt, false});
  }

  // Increments until the case's end, then lets those under way finish: the sections they made.
  std::vector<Section> run(Clock::time_point soonest, Clock::time_point latest) {
    soonest_ = soonest;
    latest_ = latest;
    for (HandoffProcess& p : processes_) next(p);
    while (std::any_of(processes_.begin(), processes_.end(),
                       [](const HandoffProcess& p) { return p.client.under_way(); })) {
      wait_for_messages();
      for (std::size_t i = 0; i < processes_.size(); ++i) serve(processes_[i], static_cast<int>(i));
    }
    return sections_;
  }

  long long balance() const { return account_.balance(); }
  long long expected_balance() const { return account_.expected_balance(); }  // a stale write leaves it short
  std::size_t failed() const { return failed_; }

 private:
  bool ended() const {
    auto now = Clock::now();
    return now >= latest_ || (now >= soonest_ && static_cast<long>(sections_.size()) > kMinHandoffs);
  }

  void next(HandoffProcess& p) {
    p.acquired.reset();
    p.client.send_increment(protocol::Increment{++last_id_, key_, 1});
  }

  // Until a client speaks or a held answer is due, 10 ms at the most.
  void wait_for_messages() {
    auto until = Clock::now() + 10ms;
    std::vector<const protocol::ClientDriver*> clients;
    for (const HandoffProcess& p : processes_) {
      if (p.held) until = std::min(until, p.held->first);
      if (p.client.under_way()) clients.push_back(&p.client);
    }
    auto wait = std::chrono::ceil<std::chrono::milliseconds>(until - Clock::now());
    protocol::wait_for_any(clients, std::max(wait, 0ms));
  }

  void serve(HandoffProcess& p, int index) {
    if (p.held && Clock::now() >= p.held->first) {
      p.client.send(p.held->second);
      p.held.reset();
    }
    while (p.client.under_way() && !p.held) {
      std::optional<protocol::ClientMessage> message = p.client.receive();
      if (!message) break;
      handle(p, index, *message);
      if (!p.client.under_way() && !p.parked && !ended()) next(p);
    }
    if (p.client.under_way() && !p.held) p.client.check_silence(kPeerSilenceLimit);
  }

  void handle(HandoffProcess& p, int index, const protocol::ClientMessage& message) {
    if (const auto* read = std::get_if<protocol::Read>(&message)) {
      auto now = Clock::now();
      if (!p.acquired) {
        p.acquired = now;
        unpark();
      }
      std::uniform_int_distribution<long> work_us(0, std::chrono::microseconds(kMaxWork).count());
      p.held.emplace(now + std::chrono::microseconds(work_us(rng_)), p.client.serve_read(account_, *read, 1));
    } else if (const auto* write = std::get_if<protocol::Write>(&message)) {
      p.client.send(p.client.serve_write(account_, *write));
      sections_.push_back(Section{nanoseconds(p.acquired.value_or(Clock::now())), nanoseconds(Clock::now()), index});
      p.parked = true;
    } else if (const auto* step = std::get_if<protocol::Step>(&message)) {
      p.client.answer(*step);
    } else if (std::get<protocol::Done>(message).error) {
      ++failed_;
    }
  }

  // A section began: those that released before it ask again, as a refused client would, from the back of the
  // queue (a fair lock's), or racing the other waiters (an unfair one's), but never ahead of them, as the releaser
  // that asks at once could.
  void unpark() {
    for (HandoffProcess& p : processes_) {
      if (!p.parked) continue;
      p.parked = false;
      if (!p.client.under_way() && !ended()) next(p);
    }
  }

  std::string key_;
  protocol::ServedAccount account_;
  std::mt19937_64 rng_;
  std::vector<HandoffProcess> processes_;
  Clock::time_point soonest_{}, latest_{};
  long long last_id_ = 0;
  std::size_t failed_ = 0;
  std::vector<Section> sections_;
};

}  // namespace

BenchCase measure_client_handoff(const BenchSetup& setup, const protocol::ClientSpec& client, double redis_rtt_us,
                                 const SleeperFloors& sleepers) {
  std::string name = "handoff-" + client.name;
  reset_accounts(setup, 1);
  try {
    HandoffRun run(setup, client, name);
    auto soonest = Clock::now() + std::chrono::duration_cast<Clock::duration>(setup.seconds);
    std::vector<Section> sections = run.run(soonest, soonest + kOvertime);
    BenchCase result = summarize_handoffs(name, std::move(sections), setup.clients, 2 * redis_rtt_us, sleepers,
                                          run.balance(), run.expected_balance());
    result.extra["failed"] = run.failed();
    return result;
  } catch (const protocol::ClientError& e) {
    throw protocol::ClientError(fmt::format("bench: client {}: {}", client.name, e.what()));
  }
}

}  // namespace rlock::bench
