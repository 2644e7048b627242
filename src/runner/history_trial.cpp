#include "runner/history_trial.h"

#include <signal.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <utility>

#include <fmt/format.h>

#include "chaos/generator.h"
#include "chaos/schedule.h"
#include "chaos/trial_loop.h"
#include "protocol/client_driver.h"
#include "rlock/error.h"
#include "runner/held_messages.h"
#include "runner/served_log.h"
#include "util/seeded_random.h"

namespace rlock::runner {
namespace {

using Clock = chaos::TrialClock;

// Where an armed operation strikes its worker's increment.
enum class Point { read, answer_due, answered, after_read, step, write };

// A nemesis operation armed on a worker: its step of the schedule, the draws of its strike, and
// the point of the worker's increment it waits for (`number`: that increment, 0 for the next).
struct Armed {
  const chaos::NemesisStep* step = nullptr;
  chaos::Schedule draws;
  Point point = Point::read;
  std::string at_step;  // Point::step: the announced step
  int number = 0;
};

// The increment a worker has under way.
struct Current {
  long long id = 0;
  std::size_t op = 0;                          // its operation in the history
  double read_at = -1;                         // its last read, in the run log's seconds; -1: none since its last write
  bool applied = false;                        // one of its writes was applied
  std::optional<double> hold_write_s;          // the strike holds its next write this long (delayed-write)
  std::optional<Clock::time_point> strike_at;  // Point::after_read: when the armed operation strikes
};

struct HistoryWorker {
  std::size_t index = 0;
  const lab::WorkerPlan* plan = nullptr;
  std::unique_ptr<protocol::ClientDriver> client;
  bool starting = true;  // init sent, init_ok not yet come
  Clock::time_point start_by{};
  bool stopped = false;   // the nemesis stopped it (SIGSTOP): it cannot be late
  bool finished = false;  // its workload done, or ended
  int sent = 0;           // increments sent
  int restarts = 0;
  std::optional<Current> current;
  std::vector<Armed> armed;  // in the order armed; the first whose point comes strikes
};

// A step of the schedule that a time arms: when next, and how often after.
struct Timer {
  const chaos::NemesisStep* step;
  Clock::time_point next;
};

// A killed worker's client gets this many new starts; past them it is ended.
constexpr int kMaxRestarts = 100;

class HistoryTrial : public chaos::Participants {
 public:
  HistoryTrial(chaos::TrialContext& trial, chaos::Schedule& draws, const ClientTrialSetup& setup,
               const chaos::Workload& workload, const chaos::NemesisSchedule& nemesis)
      : trial_(trial),
        draws_(draws),
        base_(draws),
        setup_(setup),
        workload_(workload),
        nemesis_(nemesis),
        ttl_s_(std::chrono::duration<double>(setup.ttl).count()),
        rng_(util::SeededRandom::mix(trial.setup().seed ^
                                     util::SeededRandom::mix(0x6869 + static_cast<std::uint64_t>(trial.spec.number)))),
        silence_limit_(protocol::silence_limit(setup.ttl)),
        outcome_{{}, {}, {}, protocol::ServedAccount(setup.initial_balance), {}, std::nullopt} {
    for (std::size_t i = 0; i < base_.workers.size(); ++i) {
      // Between strikes each worker works as in a trial the fault draws nothing for: the long work
      // the fault draws for a target (slow's, conn-drop's) comes with each strike (draw_for).
      base_.workers[i].work_seconds = rng_.real(chaos::kMinWorkSeconds, chaos::kMaxWorkSeconds);
      HistoryWorker w;
      w.index = i;
      w.plan = &base_.workers[i];
      workers_.push_back(std::move(w));
    }
    // A command of one's own is asked for every step: it announces those it has.
    steps_ = setup.client.steps;
    if (steps_.empty()) steps_.assign(std::begin(protocol::kSteps), std::end(protocol::kSteps));
  }

  HistoryOutcome run(const std::function<void()>& start_clock, const std::function<bool()>& stopped) {
    try {
      for (HistoryWorker& w : workers_) start(w);
      for (HistoryWorker& w : workers_) {
        w.client->await_init_ok(protocol::start_limit(setup_.ttl));
        w.starting = false;
      }
      start_clock();
      log_ = &trial_.run_log();
      start_ = Clock::now();
      for (const chaos::NemesisStep& s : nemesis_.steps) arm_timers(s);
      for (const chaos::NemesisStep& s : nemesis_.steps) ticks_for(s.fault);
      loop(stopped);
    } catch (const protocol::ClientError& e) {
      outcome_.client_error = fmt::format("client {}: {}", setup_.client.name, e.what());
    }
    heal_now();
    for (HistoryWorker& w : workers_) {
      if (w.current) end_operation(w, checker::Outcome::info, false);
    }
    return std::move(outcome_);
  }

 private:
  void loop(const std::function<bool()>& stopped) {
    for (;;) {
      auto now = Clock::now();
      for (HistoryWorker& w : workers_) advance_worker(w, now);
      arm_due_timers(now);
      strike_due_reads(now);
      send_due_replies(now);
      apply_due_writes(now);
      heal_if_due(now);
      for (const std::function<void()>& tick : ticks_) tick();
      if (all_done()) return;
      if (now > deadline() || (stopped && stopped())) {
        end_the_rest(now > deadline());
        return;
      }
      wait();
    }
  }

  // A worker's client started and sent init (again after a kill).
  void start(HistoryWorker& w) {
    const lab::WorkerPlan& plan = *w.plan;
    std::string stderr_name = w.restarts == 0 ? fmt::format("client-{}.stderr", plan.name)
                                              : fmt::format("client-{}.{}.stderr", plan.name, w.restarts);
    w.client = std::make_unique<protocol::ClientDriver>(
        plan.name, setup_.client.command, trial_.dir.root() / stderr_name,
        setup_.environment.empty() ? std::vector<std::string>{} : setup_.environment[w.index]);
    w.starting = true;
    w.start_by = Clock::now() + protocol::start_limit(setup_.ttl);
    w.client->send_init(protocol::Init{protocol::kVersion, plan.name, setup_.redis[w.index], setup_.ttl.count(),
                                       setup_.replica, steps_});
  }

  bool workload_done(const HistoryWorker& w, Clock::time_point now) const {
    if (workload_.increments > 0) return w.sent >= workload_.increments;
    return now >= start_ + chaos::seconds_of(workload_.duration_s);
  }

  void advance_worker(HistoryWorker& w, Clock::time_point now) {
    if (w.finished || w.current || w.stopped) return;
    if (w.starting) {
      if (!w.client->init_ok_came(w.start_by)) return;
      w.starting = false;
    }
    if (workload_done(w, now)) {
      w.finished = true;
      return;
    }
    send_increment(w);
  }

  void send_increment(HistoryWorker& w) {
    ++w.sent;
    long long id = ++last_id_;
    outcome_.operations.push_back(checker::Operation{w.plan->name, w.plan->amount, checker::Outcome::info, {}});
    outcome_.operations.back().invoked_at = log_->elapsed();
    outcome_.stuck.push_back(false);
    Current current;
    current.id = id;
    current.op = outcome_.operations.size() - 1;
    w.current = current;
    w.client->send_increment(protocol::Increment{id, setup_.key, w.plan->amount});
  }

  void end_operation(HistoryWorker& w, checker::Outcome outcome, bool stuck) {
    checker::Operation& op = outcome_.operations[w.current->op];
    op.outcome = outcome;
    op.completed_at = log_ ? log_->elapsed() : 0;
    outcome_.stuck[w.current->op] = stuck;
    w.current.reset();
  }

  // --- the nemesis

  void arm_timers(const chaos::NemesisStep& s) {
    if (s.fault == chaos::Fault()) return;  // none: a history without a nemesis
    switch (s.trigger) {
      case chaos::Trigger::once: timers_.push_back(Timer{&s, start_ + chaos::seconds_of(ttl_s_)}); break;
      case chaos::Trigger::at:
      case chaos::Trigger::every: timers_.push_back(Timer{&s, start_ + chaos::seconds_of(s.at.seconds(ttl_s_))}); break;
      case chaos::Trigger::on_step: arm(s, s.increment); break;
    }
  }

  void ticks_for(chaos::Fault fault) {
    if (std::find(ticked_.begin(), ticked_.end(), fault) != ticked_.end()) return;
    ticked_.push_back(fault);
    if (std::function<void()> tick = fault->tick(trial_)) ticks_.push_back(std::move(tick));
  }

  void arm_due_timers(Clock::time_point now) {
    for (Timer& t : timers_) {
      if (now < t.next || in_force_) continue;
      arm(*t.step, 0);
      if (t.step->trigger != chaos::Trigger::every) {
        t.next = Clock::time_point::max();
        continue;
      }
      double interval = t.step->every.seconds(ttl_s_);
      if (t.step->jittered) interval *= rng_.real(2.0 / 3, 4.0 / 3);
      t.next = now + chaos::seconds_of(interval);
    }
  }

  // Arms `s` on its worker (or one drawn among those running) at its `number`-th increment; not
  // again on a worker where it waits already.
  void arm(const chaos::NemesisStep& s, int number) {
    std::vector<std::size_t> free;
    for (const HistoryWorker& w : workers_) {
      bool named = s.worker.empty() || s.worker == w.plan->name;
      bool waits = std::any_of(w.armed.begin(), w.armed.end(),
                               [&](const Armed& a) { return a.step == &s && a.number == number; });
      if (named && !w.finished && !waits) free.push_back(w.index);
    }
    if (free.empty()) return;
    HistoryWorker& w =
        workers_[free[static_cast<std::size_t>(rng_.integer(0, static_cast<long long>(free.size()) - 1))]];
    Armed a{&s, draw_for(s.fault, w.index), Point::read, "", number};
    std::string_view natural = s.fault->strike_step();
    if (s.trigger == chaos::Trigger::on_step && s.step == "write") {
      a.point = Point::write;
    } else if (s.trigger == chaos::Trigger::on_step && s.step != "read") {
      a.point = Point::step;
      a.at_step = s.step;
    } else if (s.fault->client_strike() == chaos::ClientStrike::at_step && s.trigger != chaos::Trigger::on_step) {
      a.point = Point::step;
      a.at_step = natural;
    } else {
      switch (s.fault->client_strike()) {
        case chaos::ClientStrike::before_answer: a.point = Point::answer_due; break;
        case chaos::ClientStrike::after_answer: a.point = Point::answered; break;
        case chaos::ClientStrike::after_read: a.point = Point::after_read; break;
        default: a.point = Point::read; break;
      }
    }
    w.armed.push_back(std::move(a));
  }

  // What the fault draws for a strike on worker `target`: the history's own workers, drawn anew.
  chaos::Schedule draw_for(chaos::Fault fault, std::size_t target) {
    chaos::Schedule s;
    s.workers = base_.workers;
    s.target = target;
    chaos::ScheduleDraw draw{rng_, s, ttl_s_};
    fault->draw_work(draw);
    s.pause_s = ttl_s_ * rng_.real(1.0, 2.5);
    fault->draw_rest(draw);
    return s;
  }

  // The operation armed on worker w that waits for `point` of its increment under way, if any.
  const Armed* armed_at(const HistoryWorker& w, Point point, std::string_view step = {}) const {
    if (!w.current || in_force_) return nullptr;
    for (const Armed& a : w.armed) {
      if (a.point != point || (point == Point::step && a.at_step != step)) continue;
      if (a.number == 0 || a.number == w.sent) return &a;
    }
    return nullptr;
  }

  // Strikes worker w's armed operation `armed` now.
  void strike(HistoryWorker& w, const Armed* armed) {
    Armed a = *armed;
    w.armed.erase(w.armed.begin() + (armed - w.armed.data()));
    draws_ = a.draws;
    w.current->hold_write_s = a.step->fault->held_write_s(draws_);
    double heal_after = a.step->heal_after ? a.step->heal_after->seconds(ttl_s_) : a.step->fault->heal_after_s(draws_);
    double at = log_->elapsed();
    chaos::Strike strike = a.step->fault->strike(trial_, *this);
    chaos::Heal heal = strike ? strike() : chaos::Heal{};
    outcome_.strikes.push_back(checker::Strike{std::string(to_string(a.step->fault)), w.plan->name, at, at});
    if (heal) {
      in_force_ = true;
      heal_ = std::move(heal);
      heal_at_ = Clock::now() + chaos::seconds_of(heal_after);
    }
  }

  void heal_if_due(Clock::time_point now) {
    if (in_force_ && now >= heal_at_) heal_now();
  }

  void heal_now() {
    if (!in_force_) return;
    in_force_ = false;
    std::exchange(heal_, {})();
    if (log_) outcome_.strikes.back().healed_at = log_->elapsed();
  }

  Clock::time_point deadline() const {
    // The workload's time, each worker's increments one after another (a TTL each, as if each
    // waited out a lock left behind), the heals, and a trial's floor.
    double work = workload_.duration_s > 0 ? workload_.duration_s
                                           : static_cast<double>(workload_.increments) *
                                                 static_cast<double>(workers_.size()) * (ttl_s_ + 0.05);
    double heals = 0;
    for (const checker::Strike& s : outcome_.strikes) heals += std::max(s.healed_at - s.at, 3 * ttl_s_);
    return start_ + chaos::seconds_of(work + heals + static_cast<double>(workers_.size() + 2) * ttl_s_) +
           chaos::kTrialFloor;
  }

  // --- the workers' messages

  void wait() override {
    std::vector<const protocol::ClientDriver*> clients;
    for (const HistoryWorker& w : workers_) {
      if (!w.finished) clients.push_back(w.client.get());
    }
    protocol::wait_for_any(clients, chaos::kRound);
    for (HistoryWorker& w : workers_) serve(w);
  }

  void serve(HistoryWorker& w) {
    if (w.finished || w.starting) return;
    while (w.current) {
      std::optional<protocol::ClientMessage> message = w.client->receive();
      if (!message) break;
      handle(w, *message);
    }
    bool owes = w.current && !w.stopped && !holds_for(w.index);
    if (owes) w.client->check_silence(silence_limit_);
  }

  void handle(HistoryWorker& w, const protocol::ClientMessage& message) {
    if (const auto* read_message = std::get_if<protocol::Read>(&message)) {
      read(w, *read_message);
    } else if (const auto* step = std::get_if<protocol::Step>(&message)) {
      if (const Armed* a = armed_at(w, Point::step, step->step)) strike(w, a);
      if (w.current) w.client->answer(*step);  // unless the strike killed it
    } else if (const auto* write_message = std::get_if<protocol::Write>(&message)) {
      if (const Armed* a = armed_at(w, Point::write)) strike(w, a);
      if (!w.current) return;  // the strike killed it
      if (std::optional<double> hold = std::exchange(w.current->hold_write_s, std::nullopt)) {
        log_write_held(*log_, w.plan->name);
        held_writes_.push_back(
            HeldWrite{Clock::now() + chaos::seconds_of(*hold), w.index, *write_message, log_->elapsed()});
      } else {
        write(w, *write_message, log_->elapsed());
      }
    } else {
      finish(w, std::get<protocol::Done>(message));
    }
  }

  void read(HistoryWorker& w, const protocol::Read& message) {
    protocol::ReadOk reply = w.client->serve_read(outcome_.account, message, w.plan->amount);
    log_read(*log_, w.plan->name, message, reply);
    w.current->read_at = log_->elapsed();
    double work = w.plan->work_seconds;
    for (Point p : {Point::read, Point::after_read, Point::answer_due, Point::answered}) {
      if (const Armed* a = armed_at(w, p)) work = a->draws.workers[w.index].work_seconds;  // slow's long work
    }
    if (const Armed* a = armed_at(w, Point::after_read)) {
      w.current->strike_at = Clock::now() + chaos::seconds_of(a->step->fault->strike_after_s(a->draws));
    }
    held_.push_back(HeldReply{Clock::now() + chaos::seconds_of(work), w.index, reply});
    if (const Armed* a = armed_at(w, Point::read)) strike(w, a);
  }

  // Strikes due before an answer goes, and after a read.
  void strike_due_reads(Clock::time_point now) {
    for (const HeldReply& reply : held_) {
      HistoryWorker& w = workers_[reply.worker];
      if (reply.due > now || !w.current || w.current->id != reply.message.id) continue;
      if (const Armed* a = armed_at(w, Point::answer_due)) strike(w, a);
    }
    for (HistoryWorker& w : workers_) {
      if (!w.current || !w.current->strike_at || now < *w.current->strike_at) continue;
      w.current->strike_at.reset();
      if (const Armed* a = armed_at(w, Point::after_read)) strike(w, a);
    }
  }

  void send_due_replies(Clock::time_point now) {
    for (const HeldReply& reply : take_due(held_, now)) {
      HistoryWorker& w = workers_[reply.worker];
      if (!w.current || w.current->id != reply.message.id) continue;  // killed meanwhile
      w.client->send(reply.message);
      w.client->reset_silence();
      if (const Armed* a = armed_at(w, Point::answered)) strike(w, a);
    }
  }

  void apply_due_writes(Clock::time_point now) {
    for (const HeldWrite& held : take_due(held_writes_, now)) {
      HistoryWorker& w = workers_[held.worker];
      log_write_delivered(*log_, w.plan->name);
      if (w.current && w.current->id == held.message.id) write(w, held.message, held.sent_at);
    }
  }

  void write(HistoryWorker& w, const protocol::Write& message, double sent_at) {
    int stale_before = outcome_.account.stale_writes();
    protocol::WriteOk reply = w.client->serve_write(outcome_.account, message);
    if (outcome_.account.stale_writes() > stale_before) outcome_.stale_write_times.push_back(log_->elapsed());
    Current& c = *w.current;
    c.applied = c.applied || reply.applied;
    log_write(*log_, w.plan->name, w.plan->amount, message, reply.applied, sent_at);
    checker::Operation& op = outcome_.operations[c.op];
    op.sections.push_back(checker::Section{c.read_at < 0 ? sent_at : c.read_at, sent_at, reply.applied,
                                           message.token ? std::optional(*message.token) : std::nullopt});
    c.read_at = -1;
    w.client->send(reply);
  }

  void finish(HistoryWorker& w, const protocol::Done& message) {
    outcome_.account.done(w.current->id, message.error.has_value());
    if (!message.error) {
      end_operation(w, checker::Outcome::ok, false);
      return;
    }
    log_error(*log_, w.plan->name, *message.error, w.plan->amount, w.current->applied);
    end_operation(w, w.current->applied ? checker::Outcome::info : checker::Outcome::fail, false);
  }

  bool holds_for(std::size_t i) const {
    return std::any_of(held_.begin(), held_.end(), [i](const HeldReply& r) { return r.worker == i; }) ||
           std::any_of(held_writes_.begin(), held_writes_.end(), [i](const HeldWrite& r) { return r.worker == i; });
  }

  // --- Participants, as the faults' strikes use them

  void advance(Clock::time_point) override {}
  bool done(std::size_t worker) const override { return workers_[worker].finished; }
  bool all_done() const override {
    return std::all_of(workers_.begin(), workers_.end(), [](const HistoryWorker& w) { return w.finished; });
  }
  std::optional<Clock::time_point> strike_time(const chaos::FaultModel&) const override { return std::nullopt; }

  bool signal(std::size_t worker, int number) override {
    HistoryWorker& w = workers_[worker];
    if (w.finished) return false;
    ::kill(-w.client->group(), number);
    if (number == SIGSTOP) w.stopped = true;
    if (number == SIGCONT) {
      w.stopped = false;
      w.client->reset_silence();
    }
    if (number == SIGKILL) {
      if (w.current) end_operation(w, checker::Outcome::info, false);  // applied or not: unknown
      w.stopped = false;
      if (++w.restarts > kMaxRestarts) {
        w.finished = true;
      } else {
        start(w);  // the old client's process group ends with its driver
      }
    }
    return true;
  }

  void end_the_rest(bool late) override {
    for (HistoryWorker& w : workers_) {
      if (w.current) end_operation(w, checker::Outcome::info, late);
      w.finished = true;
    }
  }

  chaos::TrialContext& trial_;
  chaos::Schedule& draws_;
  chaos::Schedule base_;  // the trial's draws, each worker working as if the fault drew nothing
  const ClientTrialSetup& setup_;
  const chaos::Workload& workload_;
  const chaos::NemesisSchedule& nemesis_;
  double ttl_s_;
  util::SeededRandom rng_;
  std::chrono::milliseconds silence_limit_;
  std::vector<std::string> steps_;
  const lab::RunLog* log_ = nullptr;
  Clock::time_point start_{};
  std::vector<HistoryWorker> workers_;
  std::vector<HeldReply> held_;
  std::vector<HeldWrite> held_writes_;
  std::vector<Timer> timers_;
  std::vector<chaos::Fault> ticked_;
  std::vector<std::function<void()>> ticks_;
  bool in_force_ = false;
  chaos::Heal heal_;
  Clock::time_point heal_at_{};
  long long last_id_ = 0;
  HistoryOutcome outcome_;
};

}  // namespace

checker::ServedTally HistoryOutcome::tally() const {
  checker::ServedTally tally = served_tally(account);
  tally.lost_increments = account.lost_increments();
  tally.stale_write_times = stale_write_times;
  return tally;
}

HistoryOutcome run_history_trial(chaos::TrialContext& trial, chaos::Schedule& draws, const ClientTrialSetup& setup,
                                 const chaos::Workload& workload, const chaos::NemesisSchedule& nemesis,
                                 const std::function<void()>& start_clock, const std::function<bool()>& stopped) {
  HistoryTrial history(trial, draws, setup, workload, nemesis);
  return history.run(start_clock, stopped);
}

}  // namespace rlock::runner
