#include "runner/client_trial.h"

#include <signal.h>

#include <algorithm>
#include <thread>
#include <utility>

#include <fmt/format.h>

#include "chaos/trial_loop.h"
#include "protocol/client_driver.h"
#include "rlock/error.h"
#include "runner/held_messages.h"
#include "runner/served_log.h"

namespace rlock::runner {
namespace {

using Clock = chaos::TrialClock;

// One worker of the trial: its client process and where its increment stands.
struct ClientWorker {
  const lab::WorkerPlan& plan;
  protocol::ClientDriver client;
  long long id = 0;
  bool sent = false;     // its increment was sent
  bool done = false;     // it said done, or was killed
  bool applied = false;  // one of its writes was applied
  bool stopped = false;  // the nemesis stopped it (SIGSTOP): it cannot be late
  checker::WorkerExit exit;
};

class ClientTrial : public chaos::Participants {
 public:
  ClientTrial(chaos::TrialContext& trial, const ClientTrialSetup& setup)
      : trial_(trial),
        spec_(trial.spec),
        schedule_(trial.schedule),
        setup_(setup),
        account_(setup.initial_balance),
        silence_limit_(protocol::silence_limit(setup.ttl)) {
    const lab::LogDir& dir = trial.dir;
    const chaos::Schedule& schedule = trial.schedule;
    for (std::size_t i = 0; i < schedule.workers.size(); ++i) {
      const lab::WorkerPlan& w = schedule.workers[i];
      workers_.push_back(ClientWorker{
          w,
          protocol::ClientDriver(w.name, setup.client.command, dir.root() / fmt::format("client-{}.stderr", w.name),
                                 setup.environment.empty() ? std::vector<std::string>{} : setup.environment[i]),
          static_cast<long long>(i + 1), false, false, false, false, checker::WorkerExit{w.name, w.amount, false, 0}});
    }
  }

  // Runs the trial from now, the run log's start: `start_clock` starts it.
  ClientTrialOutcome run(const std::function<void()>& start_clock, const std::function<bool()>& stopped) {
    ClientTrialOutcome outcome{{}, account_, std::nullopt};
    try {
      initialize();
      start_clock();
      log_ = &trial_.run_log();
      start_ = Clock::now();
      chaos::run_trial_loop(trial_, *this, stopped);
    } catch (const protocol::ClientError& e) {
      outcome.client_error = fmt::format("client {}: {}", setup_.client.name, e.what());
    }
    for (ClientWorker& w : workers_) outcome.exits.push_back(w.exit);
    outcome.account = account_;
    return outcome;
  }

 private:
  void initialize() {
    for (ClientWorker& w : workers_) {
      w.client.send_init(protocol::Init{protocol::kVersion, w.plan.name,
                                        setup_.redis[static_cast<std::size_t>(w.id - 1)], setup_.ttl.count(),
                                        setup_.replica, std::nullopt});
    }
    for (ClientWorker& w : workers_) w.client.await_init_ok(protocol::start_limit(setup_.ttl));
  }

  void advance(Clock::time_point now) override {
    for (ClientWorker& w : workers_) {
      if (!w.sent && now >= start_ + chaos::seconds_of(w.plan.delay_seconds)) send_increment(w);
    }
  }

  void deliver(Clock::time_point now) override {
    if (held_step_) {  // the strike at its step, if any, came first
      workers_[schedule_.target].client.answer(*held_step_);
      held_step_.reset();
    }
    send_due_replies(now);
    apply_due_writes(now);
  }

  void wait() override {
    poll_clients();
    for (std::size_t i = 0; i < workers_.size(); ++i) serve(i);
  }

  bool done(std::size_t worker) const override { return workers_[worker].done; }

  std::optional<Clock::time_point> strike_time(const chaos::FaultModel& fault) const override {
    switch (fault.client_strike()) {
      case chaos::ClientStrike::at_read: return target_read_at_;
      case chaos::ClientStrike::after_answer: return target_answered_at_;
      case chaos::ClientStrike::after_read:
        if (!target_read_at_) return std::nullopt;
        return *target_read_at_ + chaos::seconds_of(fault.strike_after_s(schedule_));
      case chaos::ClientStrike::at_step: return target_stepped_at_;
      case chaos::ClientStrike::before_answer: break;
    }
    std::optional<Clock::time_point> due;
    for (const HeldReply& reply : held_) {
      if (reply.worker == schedule_.target && (!due || reply.due < *due)) due = reply.due;
    }
    return due;
  }

  // The nemesis on a client's whole process group.
  bool signal(std::size_t worker, int number) override {
    ClientWorker& w = workers_[worker];
    ::kill(-w.client.group(), number);
    if (number == SIGKILL) w.done = true;  // its outcome: unknown unless a write of it was applied
    if (number == SIGSTOP) w.stopped = true;
    if (number == SIGCONT) {
      w.stopped = false;
      w.client.reset_silence();  // a stopped client cannot be late
    }
    return true;
  }

  void end_the_rest(bool late) override {
    for (ClientWorker& w : workers_) {
      if (w.done) continue;
      w.done = true;
      w.exit.stuck = late;  // the time ran out on them
    }
  }

  void send_increment(ClientWorker& w) {
    w.sent = true;
    w.client.send_increment(protocol::Increment{w.id, setup_.key, w.plan.amount});
  }

  void send_due_replies(Clock::time_point now) {
    for (const HeldReply& reply : take_due(held_, now)) {
      ClientWorker& w = workers_[reply.worker];
      if (w.done) continue;
      w.client.send(reply.message);
      w.client.reset_silence();  // the client's silence counts from its answer
      if (reply.worker == schedule_.target && !target_answered_at_) target_answered_at_ = now;
    }
  }

  void poll_clients() {
    std::vector<const protocol::ClientDriver*> clients;
    for (const ClientWorker& w : workers_) {
      if (!w.done) clients.push_back(&w.client);
    }
    protocol::wait_for_any(clients, chaos::kRound);
  }

  // Handles every message worker i has sent, and checks its silence.
  void serve(std::size_t i) {
    ClientWorker& w = workers_[i];
    if (w.done) return;
    while (std::optional<protocol::ClientMessage> message = w.client.receive()) {
      handle(i, *message);
      if (w.done) return;
    }
    bool owes = w.sent && !w.stopped && !holds_reply_for(i);
    if (owes) w.client.check_silence(silence_limit_);
  }

  // The client's read, write, step or done (the driver checked that it is one, of its increment).
  void handle(std::size_t i, const protocol::ClientMessage& message) {
    ClientWorker& w = workers_[i];
    if (const auto* read_message = std::get_if<protocol::Read>(&message)) {
      read(i, *read_message);
    } else if (const auto* step = std::get_if<protocol::Step>(&message)) {
      bool awaited =
          spec_.fault->client_strike() == chaos::ClientStrike::at_step && step->step == spec_.fault->strike_step();
      if (i == schedule_.target && awaited && !target_stepped_at_) {
        target_stepped_at_ = Clock::now();
        held_step_ = *step;  // answered once the strike is due and done (deliver)
      } else {
        w.client.answer(*step);
      }
    } else if (const auto* write_message = std::get_if<protocol::Write>(&message)) {
      std::optional<double> hold = spec_.fault->held_write_s(schedule_);
      if (hold && i == schedule_.target && !write_held_) {
        write_held_ = true;
        log_write_held(*log_, w.plan.name);
        held_writes_.push_back(HeldWrite{Clock::now() + chaos::seconds_of(*hold), i, *write_message, log_->elapsed()});
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
    log_read(*log_, w.plan.name, message, reply);
    held_.push_back(HeldReply{Clock::now() + chaos::seconds_of(w.plan.work_seconds), i, reply});
    if (i == schedule_.target && !target_read_at_) target_read_at_ = Clock::now();
  }

  // The held write, applied once due: Kleppmann's write that arrives after the next holder's.
  void apply_due_writes(Clock::time_point now) {
    for (const HeldWrite& held : take_due(held_writes_, now)) {
      ClientWorker& w = workers_[held.worker];
      log_write_delivered(*log_, w.plan.name);
      if (!w.done) write(w, held.message, held.sent_at);
    }
  }

  void write(ClientWorker& w, const protocol::Write& message, double sent_at) {
    protocol::WriteOk reply = w.client.serve_write(account_, message);
    w.applied = w.applied || reply.applied;
    log_write(*log_, w.plan.name, w.plan.amount, message, reply.applied, sent_at);
    w.client.send(reply);
  }

  void finish(ClientWorker& w, const protocol::Done& message) {
    w.done = true;
    account_.done(w.id, message.error.has_value());
    w.exit.exited = true;
    if (!message.error) return;
    w.exit.code = 1;
    log_error(*log_, w.plan.name, *message.error, w.plan.amount, w.applied);
  }

  bool holds_reply_for(std::size_t i) const {
    return (held_step_ && i == schedule_.target) ||
           std::any_of(held_.begin(), held_.end(), [i](const HeldReply& r) { return r.worker == i; }) ||
           std::any_of(held_writes_.begin(), held_writes_.end(), [i](const HeldWrite& r) { return r.worker == i; });
  }

  bool all_done() const override {
    return std::all_of(workers_.begin(), workers_.end(), [](const ClientWorker& w) { return w.done; });
  }

  chaos::TrialContext& trial_;
  const chaos::TrialSpec& spec_;
  const chaos::Schedule& schedule_;
  const ClientTrialSetup& setup_;
  const lab::RunLog* log_ = nullptr;
  Clock::time_point start_{};
  std::optional<Clock::time_point> target_read_at_, target_answered_at_, target_stepped_at_;
  std::optional<protocol::Step> held_step_;  // the target's step a fault waits for, until it struck
  protocol::ServedAccount account_;
  std::chrono::milliseconds silence_limit_;
  std::vector<ClientWorker> workers_;
  std::vector<HeldReply> held_;
  std::vector<HeldWrite> held_writes_;
  bool write_held_ = false;
};

}  // namespace

checker::ServedTally ClientTrialOutcome::tally() const { return served_tally(account); }

ClientTrialOutcome run_client_trial(chaos::TrialContext& trial, const ClientTrialSetup& setup,
                                    const std::function<void()>& start_clock, const std::function<bool()>& stopped) {
  ClientTrial client_trial(trial, setup);
  return client_trial.run(start_clock, stopped);
}

}  // namespace rlock::runner
