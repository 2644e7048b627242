#include "chaos/client_trial.h"

#include <poll.h>
#include <signal.h>

#include <algorithm>
#include <iterator>
#include <memory>
#include <thread>
#include <utility>

#include <fmt/format.h>

#include "protocol/protocol_client.h"
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
  std::unique_ptr<ProtocolClient> client;
  long long id = 0;
  bool sent = false;     // its increment was sent
  bool done = false;     // it said done, or was killed
  bool applied = false;  // one of its writes was applied
  Clock::time_point heard{};
  WorkerExit exit;
};

// A read's answer, held back for the worker's work time.
struct HeldReply {
  Clock::time_point due;
  std::size_t worker;
  nlohmann::json message;
};

// A write the network holds (delayed-write), applied once due as sent at `sent_at` (the log's clock).
struct HeldWrite {
  Clock::time_point due;
  std::size_t worker;
  nlohmann::json message;
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
        silence_limit_(10 * setup.ttl + 5s) {
    for (std::size_t i = 0; i < schedule.workers.size(); ++i) {
      const WorkerSchedule& w = schedule.workers[i];
      workers_.push_back(ClientWorker{w, std::make_unique<ProtocolClient>(
                                             setup.client.command, dir.root() / fmt::format("client-{}.stderr", w.name)),
                                      static_cast<long long>(i + 1), false, false, false, {},
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
    } catch (const nlohmann::json::exception& e) {  // a field of the wrong type
      outcome.client_error = fmt::format("client {}: sent a malformed message: {}", setup_.client.name, e.what());
    }
    for (ClientWorker& w : workers_) outcome.exits.push_back(w.exit);
    outcome.account = account_;
    return outcome;
  }

 private:
  void initialize() {
    for (ClientWorker& w : workers_) {
      try {
        w.client->send({{"type", "init"}, {"protocol", 1}, {"name", w.plan.name}, {"redis", setup_.redis[static_cast<std::size_t>(w.id - 1)]},
                        {"ttl_ms", setup_.ttl.count()}});
      } catch (const ClientError& e) {
        with_stderr(w, [&] { return w.client->receive(); });  // what it wrote instead, if anything, says more
        fail(w, e.what());
      }
    }
    for (ClientWorker& w : workers_) {
      nlohmann::json reply = with_stderr(w, [&] { return w.client->receive_within(silence_limit_); });
      if (reply["type"] != "init_ok") fail(w, fmt::format("answered init with {:.120}", reply.dump()));
    }
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
    w.heard = Clock::now();
    w.client->send({{"type", "increment"}, {"id", w.id}, {"key", setup_.key}, {"amount", w.plan.amount}});
  }

  void send_due_replies(Clock::time_point now) {
    for (const HeldReply& reply : take_due(held_, now)) {
      ClientWorker& w = workers_[reply.worker];
      if (w.done) continue;
      bool target = reply.worker == schedule_.target;
      // A pause lands before the answer, which waits in the pipe: struck after it, the client
      // could write first, which the built-in holder, pausing in its work, never does.
      if (target && spec_.fault == Fault::pause) strike(w);
      w.client->send(reply.message);
      w.heard = now;  // the client's silence counts from its answer
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
    target.heard = Clock::now();  // a stopped client cannot be late
  }

  void signal_group(const ClientWorker& w, int number, const char* name) {
    log_->record("host", EventKind::signal, {{"signal", name}, {"target", w.plan.name}});
    ::kill(-w.client->group(), number);
  }

  void poll_clients() {
    std::vector<pollfd> fds;
    for (const ClientWorker& w : workers_) {
      if (!w.done) fds.push_back(pollfd{w.client->stdout_fd(), POLLIN, 0});
    }
    ::poll(fds.data(), fds.size(), 2);
  }

  // Handles every message worker i has sent, and checks its silence.
  void serve(std::size_t i) {
    ClientWorker& w = workers_[i];
    if (w.done) return;
    while (std::optional<nlohmann::json> message = with_stderr(w, [&] { return w.client->receive(); })) {
      w.heard = Clock::now();
      handle(i, *message);
      if (w.done) return;
    }
    bool owes = w.sent && !(paused_ && i == schedule_.target) && !holds_reply_for(i);
    if (owes && Clock::now() - w.heard > silence_limit_) {
      fail(w, fmt::format("said nothing for {} ms", silence_limit_.count()));
    }
  }

  void handle(std::size_t i, const nlohmann::json& message) {
    ClientWorker& w = workers_[i];
    std::string type = message["type"];
    if (type == "read" || type == "write" || type == "done") {
      if (!w.sent || message.value("id", -1LL) != w.id) fail(w, fmt::format("sent an unknown id: {:.120}", message.dump()));
    }
    if (type == "read") {
      read(i, message);
    } else if (type == "write") {
      if (spec_.fault == Fault::delayed_write && i == schedule_.target && !write_held_) {
        write_held_ = true;
        log_->record("host", EventKind::network, {{"action", "its write held"}, {"target", w.plan.name}});
        held_writes_.push_back(HeldWrite{Clock::now() + seconds(schedule_.pause_s), i, message, log_->elapsed()});
      } else {
        write(w, message, log_->elapsed());
      }
    } else if (type == "done") {
      finish(w, message);
    } else {
      fail(w, fmt::format("sent a message of unknown type: {:.120}", message.dump()));
    }
  }

  void read(std::size_t i, const nlohmann::json& message) {
    ClientWorker& w = workers_[i];
    std::optional<long long> token = optional_number(w, message, "token");
    bool claim = message.value("claim", false);
    ServedAccount::ReadResult result = account_.read(w.id, w.plan.amount, token, claim);
    nlohmann::json reply{{"type", "read_ok"}, {"id", w.id}, {"balance", result.balance}};
    if (result.claimed) reply["claimed"] = *result.claimed;
    if (result.claimed == false) {
      log_->record(w.plan.name, EventKind::claim_rejected, {{"fence", *token}});
    } else {
      log_->record(w.plan.name, EventKind::read,
                  result.claimed ? nlohmann::json{{"balance", result.balance}, {"fence", *token}}
                                 : nlohmann::json{{"balance", result.balance}});
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

  void write(ClientWorker& w, const nlohmann::json& message, double sent_at) {
    if (!message.contains("balance") || !message["balance"].is_number_integer()) {
      fail(w, fmt::format("wrote no integer balance: {:.120}", message.dump()));
    }
    long long balance = message["balance"];
    std::optional<long long> token = optional_number(w, message, "token");
    ServedAccount::WriteResult result = account_.write(w.id, balance, token);
    if (result.protocol_error) fail(w, *result.protocol_error);
    w.applied = w.applied || result.applied;
    if (token) {
      log_->record(w.plan.name, EventKind::fenced_write,
                  {{"balance", balance}, {"fence", *token}, {"rowcount", result.applied ? 1 : 0}, {"sent_at", sent_at}});
    } else {
      log_->record(w.plan.name, EventKind::wrote,
                  {{"before", balance - w.plan.amount}, {"amount", w.plan.amount}, {"after", balance}, {"sent_at", sent_at}});
    }
    w.client->send({{"type", "write_ok"}, {"id", w.id}, {"applied", result.applied}});
  }

  void finish(ClientWorker& w, const nlohmann::json& message) {
    w.done = true;
    w.exit.exited = true;
    if (!message.contains("error")) return;
    w.exit.code = 1;
    std::string error = message["error"].is_string() ? message["error"].get<std::string>() : message["error"].dump();
    log_->record(w.plan.name, EventKind::error,
                {{"message", error}, {"amount", w.plan.amount}, {"added", w.applied}, {"in_doubt", false}});
  }

  std::optional<long long> optional_number(ClientWorker& w, const nlohmann::json& message, const char* field) {
    if (!message.contains(field)) return std::nullopt;
    if (!message[field].is_number_integer()) fail(w, fmt::format("sent a {} that is not an integer: {:.120}", field, message.dump()));
    return message[field].get<long long>();
  }

  bool holds_reply_for(std::size_t i) const {
    return std::any_of(held_.begin(), held_.end(), [i](const HeldReply& r) { return r.worker == i; }) ||
           std::any_of(held_writes_.begin(), held_writes_.end(), [i](const HeldWrite& r) { return r.worker == i; });
  }

  bool all_done() const {
    return std::all_of(workers_.begin(), workers_.end(), [](const ClientWorker& w) { return w.done; });
  }

  // A client error, with the end of the client's stderr on the same line: the trial stops.
  [[noreturn]] void fail(const ClientWorker& w, const std::string& what) { throw w.client->error(w.plan.name, what); }

  // Runs `receive`, adding the client's stderr to a ClientError it throws; a client the nemesis
  // killed has simply ended.
  template <typename Receive>
  auto with_stderr(ClientWorker& w, Receive&& receive) -> decltype(receive()) {
    try {
      return receive();
    } catch (const ClientError& e) {
      fail(w, e.what());
    }
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

ClientSpec parse_client_spec(const std::string& text) {
  std::size_t equals = text.find('=');
  if (equals == std::string::npos) throw UsageError(fmt::format("--client '{}': expected NAME=COMMAND", text));
  ClientSpec spec{text.substr(0, equals), text.substr(equals + 1), 1, false};
  if (std::size_t at = spec.name.find('@'); at != std::string::npos) {
    if (spec.name.substr(at) != "@3") {
      throw UsageError(fmt::format("--client '{}': NAME@3 is the only server count there is", spec.name));
    }
    spec.servers = 3;
    spec.name.erase(at);
  }
  bool name_ok = !spec.name.empty() && spec.name.size() <= 32 &&
                 spec.name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") ==
                     std::string::npos;
  if (!name_ok) throw UsageError(fmt::format("--client '{}': NAME must be 1 to 32 letters, digits, _ or -", text));
  if (spec.command.find_first_not_of(" \t") == std::string::npos) {
    throw UsageError(fmt::format("--client '{}': the command is empty", text));
  }
  return spec;
}

ClientTrialOutcome run_client_trial(const TrialSpec& spec, const Schedule& schedule, const ClientTrialSetup& setup,
                                    const LabDir& dir, const std::function<const RunLog&()>& start_clock,
                                    const std::function<Nemesis(const RunLog&)>& nemesis_of) {
  ClientTrial trial(spec, schedule, setup, dir);
  return trial.run(start_clock, nemesis_of);
}

}  // namespace rlock
