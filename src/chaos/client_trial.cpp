#include "chaos/client_trial.h"

#include <signal.h>

#include <algorithm>
#include <iterator>
#include <thread>
#include <utility>

#include <fmt/format.h>

#include "protocol/client_driver.h"
#include "rlock/error.h"

namespace rlock {
namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

constexpr auto kTrialLimit = 10s;  // as for the built-in workers: then the unfinished are stuck

Clock::duration seconds(double s) {
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
}

// One worker of the trial: its client process and where its increment stands.
struct ClientWorker {
  const WorkerSchedule& plan;
  ClientDriver client;
  long long id = 0;
  bool sent = false;     // its increment was sent
  bool done = false;     // it said done, or was killed
  bool applied = false;  // one of its writes was applied
  WorkerExit exit;
};

// A read's answer, held back for the worker's work time.
struct HeldReply {
  Clock::time_point due;
  std::size_t worker;
  protocol::ReadOk message;
};

// A write the network holds (delayed-write), applied once due as sent at `sent_at` (the log's clock).
struct HeldWrite {
  Clock::time_point due;
  std::size_t worker;
  protocol::Write message;
  double sent_at;
};

// Removes from `held` what is due by `now` and returns it, both in the order they were held.
template <typename Held>
std::vector<Held> take_due(std::vector<Held>& held, Clock::time_point now) {
  auto due = std::stable_partition(held.begin(), held.end(), [&](const Held& h) { return h.due > now; });
  std::vector<Held> taken(std::make_move_iterator(due), std::make_move_iterator(held.end()));
  held.erase(due, held.end());
  return taken;
}

class ClientTrial {
 public:
  ClientTrial(const TrialSpec& spec, const Schedule& schedule, const ClientTrialSetup& setup, const LabDir& dir)
      : spec_(spec), schedule_(schedule), setup_(setup), account_(setup.initial_balance),
        silence_limit_(silence_limit(setup.ttl)) {
    for (std::size_t i = 0; i < schedule.workers.size(); ++i) {
      const WorkerSchedule& w = schedule.workers[i];
      workers_.push_back(ClientWorker{w, ClientDriver(w.name, setup.client.command,
                                                      dir.root() / fmt::format("client-{}.stderr", w.name)),
                                      static_cast<long long>(i + 1), false, false, false,
                                      WorkerExit{w.name, w.amount, false, 0}});
    }
  }

  // Runs the trial from now, the run log's start: `start_clock` starts it and returns the log.
  ClientTrialOutcome run(const std::function<const RunLog&()>& start_clock,
                         const std::function<Nemesis(const RunLog&)>& nemesis_of) {
    ClientTrialOutcome outcome{{}, account_, std::nullopt};
    try {
      initialize();
      log_ = &start_clock();
      nemesis_ = nemesis_of(*log_);
      drive(Clock::now());
    } catch (const ClientError& e) {
      outcome.client_error = fmt::format("client {}: {}", setup_.client.name, e.what());
    }
    for (ClientWorker& w : workers_) outcome.exits.push_back(w.exit);
    outcome.account = account_;
    return outcome;
  }

 private:
  void initialize() {
    for (ClientWorker& w : workers_) {
      w.client.send_init(protocol::Init{protocol::kVersion, w.plan.name, setup_.redis[static_cast<std::size_t>(w.id - 1)],
                                        setup_.ttl.count()});
    }
    for (ClientWorker& w : workers_) w.client.await_init_ok(silence_limit_);
  }

  void drive(Clock::time_point start) {
    auto deadline = start + kTrialLimit;
    while (!all_done() && Clock::now() < deadline) {
      auto now = Clock::now();
      for (ClientWorker& w : workers_) {
        if (!w.sent && now >= start + seconds(w.plan.delay_s)) send_increment(w);
      }
      send_due_replies(now);
      apply_due_writes(now);
      if (paused_ && now >= resume_at_) resume();
      if (heal_ && now >= heal_at_) std::exchange(heal_, {})();
      if (nemesis_.tick && now >= tick_at_) {
        nemesis_.tick();
        tick_at_ = now + 10ms;
      }
      poll_clients();
      for (std::size_t i = 0; i < workers_.size(); ++i) serve(i);
    }
    if (paused_) resume();
    if (heal_) std::exchange(heal_, {})();
    for (ClientWorker& w : workers_) w.exit.stuck = !w.done;  // the time ran out on them
  }

  void send_increment(ClientWorker& w) {
    w.sent = true;
    w.client.send_increment(protocol::Increment{w.id, setup_.key, w.plan.amount});
  }

  void send_due_replies(Clock::time_point now) {
    for (const HeldReply& reply : take_due(held_, now)) {
      ClientWorker& w = workers_[reply.worker];
      if (w.done) continue;
      bool target = reply.worker == schedule_.target;
      // A pause lands before the answer, which waits in the pipe: struck after it, the client
      // could write first, which the built-in holder, pausing in its work, never does.
      if (target && spec_.fault == Fault::pause) strike(w);
      w.client.send(reply.message);
      w.client.reset_silence();  // the client's silence counts from its answer
      if (target) strike(w);
    }
  }

  // The nemesis on the client's processes, once the target's read has been answered.
  void strike(ClientWorker& target) {
    if (struck_) return;
    struck_ = true;
    if (spec_.fault == Fault::pause) {
      signal_group(target, SIGSTOP, "SIGSTOP");
      paused_ = true;
      resume_at_ = Clock::now() + seconds(schedule_.pause_s);
    } else if (spec_.fault == Fault::kill) {
      signal_group(target, SIGKILL, "SIGKILL");
      target.done = true;  // its outcome: unknown unless a write of it was applied
    }
  }

  // The nemesis on Redis's host or the network, as soon as the target has read: while it works
  // (its answer held back), as the built-in workers' holder works through a restart or a failover.
  void strike_host() {
    if (struck_ || !nemesis_.strike) return;
    struck_ = true;
    heal_ = nemesis_.strike();
    heal_at_ = Clock::now() + seconds(nemesis_.heal_after_s);
  }

  void resume() {
    ClientWorker& target = workers_[schedule_.target];
    signal_group(target, SIGCONT, "SIGCONT");
    paused_ = false;
    target.client.reset_silence();  // a stopped client cannot be late
  }

  void signal_group(const ClientWorker& w, int number, const char* name) {
    log_->record("host", EventKind::signal, {{"signal", name}, {"target", w.plan.name}});
    ::kill(-w.client.group(), number);
  }

  void poll_clients() {
    std::vector<const ClientDriver*> clients;
    for (const ClientWorker& w : workers_) {
      if (!w.done) clients.push_back(&w.client);
    }
    wait_for_any(clients, 2ms);
  }

  // Handles every message worker i has sent, and checks its silence.
  void serve(std::size_t i) {
    ClientWorker& w = workers_[i];
    if (w.done) return;
    while (std::optional<protocol::ClientMessage> message = w.client.receive()) {
      handle(i, *message);
      if (w.done) return;
    }
    bool owes = w.sent && !(paused_ && i == schedule_.target) && !holds_reply_for(i);
    if (owes) w.client.check_silence(silence_limit_);
  }

  // The client's read, write or done (the driver checked that it is one, of its increment).
  void handle(std::size_t i, const protocol::ClientMessage& message) {
    ClientWorker& w = workers_[i];
    if (const auto* read_message = std::get_if<protocol::Read>(&message)) {
      read(i, *read_message);
    } else if (const auto* write_message = std::get_if<protocol::Write>(&message)) {
      if (spec_.fault == Fault::delayed_write && i == schedule_.target && !write_held_) {
        write_held_ = true;
        log_->record("host", EventKind::network, {{"action", "its write held"}, {"target", w.plan.name}});
        held_writes_.push_back(HeldWrite{Clock::now() + seconds(schedule_.pause_s), i, *write_message, log_->elapsed()});
      } else {
        write(w, *write_message, log_->elapsed());
      }
    } else {
      finish(w, std::get<protocol::Done>(message));
    }
  }

  void read(std::size_t i, const protocol::Read& message) {
    ClientWorker& w = workers_[i];
    protocol::ReadOk reply = w.client.serve_read(account_, message, w.plan.amount);
    if (reply.claimed == false) {
      log_->record(w.plan.name, EventKind::claim_rejected, {{"fence", *message.token}});
    } else {
      log_->record(w.plan.name, EventKind::read,
                  reply.claimed ? nlohmann::json{{"balance", reply.balance}, {"fence", *message.token}}
                                : nlohmann::json{{"balance", reply.balance}});
    }
    held_.push_back(HeldReply{Clock::now() + seconds(w.plan.work_s), i, reply});
    if (i == schedule_.target) strike_host();
  }

  // The held write, applied once due: Kleppmann's write that arrives after the next holder's.
  void apply_due_writes(Clock::time_point now) {
    for (const HeldWrite& held : take_due(held_writes_, now)) {
      ClientWorker& w = workers_[held.worker];
      log_->record("host", EventKind::network, {{"action", "its write delivered"}, {"target", w.plan.name}});
      if (!w.done) write(w, held.message, held.sent_at);
    }
  }

  void write(ClientWorker& w, const protocol::Write& message, double sent_at) {
    protocol::WriteOk reply = w.client.serve_write(account_, message);
    w.applied = w.applied || reply.applied;
    long long balance = message.balance;
    if (message.token) {
      log_->record(w.plan.name, EventKind::fenced_write,
                  {{"balance", balance}, {"fence", *message.token}, {"rowcount", reply.applied ? 1 : 0}, {"sent_at", sent_at}});
    } else {
      log_->record(w.plan.name, EventKind::wrote,
                  {{"before", balance - w.plan.amount}, {"amount", w.plan.amount}, {"after", balance}, {"sent_at", sent_at}});
    }
    w.client.send(reply);
  }

  void finish(ClientWorker& w, const protocol::Done& message) {
    w.done = true;
    account_.done(w.id, message.error.has_value());
    w.exit.exited = true;
    if (!message.error) return;
    w.exit.code = 1;
    log_->record(w.plan.name, EventKind::error,
                {{"message", *message.error}, {"amount", w.plan.amount}, {"added", w.applied}, {"in_doubt", false}});
  }

  bool holds_reply_for(std::size_t i) const {
    return std::any_of(held_.begin(), held_.end(), [i](const HeldReply& r) { return r.worker == i; }) ||
           std::any_of(held_writes_.begin(), held_writes_.end(), [i](const HeldWrite& r) { return r.worker == i; });
  }

  bool all_done() const {
    return std::all_of(workers_.begin(), workers_.end(), [](const ClientWorker& w) { return w.done; });
  }

  const TrialSpec& spec_;
  const Schedule& schedule_;
  const ClientTrialSetup& setup_;
  const RunLog* log_ = nullptr;
  Nemesis nemesis_;
  Heal heal_;
  Clock::time_point heal_at_{}, tick_at_{};
  ServedAccount account_;
  std::chrono::milliseconds silence_limit_;
  std::vector<ClientWorker> workers_;
  std::vector<HeldReply> held_;
  std::vector<HeldWrite> held_writes_;
  bool write_held_ = false;
  bool struck_ = false;
  bool paused_ = false;
  Clock::time_point resume_at_{};
};

}  // namespace

ServedTally ClientTrialOutcome::tally() const {
  return ServedTally{.stale_writes = account.stale_writes(),
                     .lost_money = account.lost_money(),
                     .balance = account.balance(),
                     .expected_balance = account.expected_balance(),
                     .repeated_writes = account.repeated_writes(),
                     .unwritten = account.unwritten()};
}

ClientTrialOutcome run_client_trial(const TrialSpec& spec, const Schedule& schedule, const ClientTrialSetup& setup,
                                    const LabDir& dir, const std::function<const RunLog&()>& start_clock,
                                    const std::function<Nemesis(const RunLog&)>& nemesis_of) {
  ClientTrial trial(spec, schedule, setup, dir);
  return trial.run(start_clock, nemesis_of);
}

}  // namespace rlock
