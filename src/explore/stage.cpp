#include "explore/stage.h"

#include <chrono>
#include <optional>
#include <thread>

#include <fmt/format.h>

#include "bank/account_store.h"
#include "chaos/faults/fault.h"
#include "checker/history.h"
#include "explore/turns.h"
#include "host/failover_pair.h"
#include "lab/host_events.h"
#include "lab/run_log.h"
#include "nemesis/nemesis.h"
#include "rlock/error.h"
#include "rlock/lock_key.h"
#include "rlock/redis_connection.h"
#include "strategy/worker.h"

namespace rlock::explore {
namespace {

constexpr long long kAmounts[kMaxWorkers] = {30, 50, 20};  // lab 1's A and B, and a third
// Long enough never to run out by itself within an order, nor within its drawing (a step a second).
constexpr std::chrono::milliseconds kTtl{60'000};

// What the order has done so far, beyond the workers' own state.
struct Progress {
  std::optional<std::size_t> paused;
  bool paused_once = false, expired = false, restarted = false, failed_over = false;
  std::vector<int> extends;
};

// The workers' threads of one order, joined however the order ends.
class Threads {
 public:
  explicit Threads(Turns& turns) : turns_(turns) {}
  ~Threads() {
    if (!joined_) turns_.stop();
    join();
  }
  template <typename Work>
  void start(Work&& work) {
    threads_.emplace_back(std::forward<Work>(work));
  }
  void join() {
    for (std::thread& t : threads_) {
      if (t.joinable()) t.join();
    }
    joined_ = true;
  }

 private:
  Turns& turns_;
  std::vector<std::thread> threads_;
  bool joined_ = false;
};

std::vector<std::string> names_of(int workers) {
  std::vector<std::string> names;
  for (int i = 0; i < workers; ++i) names.push_back(worker_name(static_cast<std::size_t>(i)));
  return names;
}

}  // namespace

chaos::Fault walk_fault(const World& world) { return chaos::explored_fault(operations_of(world)); }

bool OrderRun::losing() const {
  const chaos::TrialResult& r = judged.result;
  return r.lost.validity == chaos::Validity::invalid || r.overlaps.validity == chaos::Validity::invalid;
}

struct Stage::Impl {
  Impl(World w, Servers s, lab::LabDir d, long a)
      : world(std::move(w)),
        servers(std::move(s)),
        dir(std::move(d)),
        account(a),
        key(LockKey::for_account(a)),
        pair(make_pair()),
        turns(names_of(world.workers), world.bound),
        redis(redis_address()),
        store(servers.conninfo) {
    store.reset(account);
    for (int i = 0; i < world.workers; ++i) {
      lab::WorkerPlan plan;
      plan.name = worker_name(static_cast<std::size_t>(i));
      plan.amount = kAmounts[i];
      plan.account = account;
      plan.ttl = kTtl;
      plan.strategy = world.strategy;
      workers.push_back(std::make_unique<strategy::GatedWorker>(
          plan, lab::LabSetup{redis_address(), servers.conninfo, dir, lab::Lang::en}, turns));
    }
  }

  std::unique_ptr<host::FailoverPair> make_pair() const {
    if (!world.has(WorldEvent::failover)) return nullptr;
    std::filesystem::path logs = dir.root().parent_path() / "failover";
    std::filesystem::create_directories(logs);
    return std::make_unique<host::FailoverPair>(servers.failover_port, logs);
  }

  const RedisAddress& redis_address() const { return pair ? pair->address() : servers.redis; }

  void clean() {
    if (pair && pair_failed_over) {
      pair.reset();
      pair = make_pair();
      pair_failed_over = false;
      redis.reconnect();
      for (auto& worker : workers) worker->reconnect();
    }
    std::vector<std::string_view> del{"DEL",           key.lock, key.fence_counter, key.queue, key.queue_deadlines,
                                      key.queue_claims};
    redis.checked(del);
    if (pair) {
      // From here on the replica gets nothing: the lock's writes never reach it.
      pair->stop_replication();
      pair->replica().checked(del);
    }
    store.reset(account);
  }

  // What the nemesis's operations act on: a paused worker is one its gate is not asked to let go
  // (enabled()), so its signal is only recorded; the Redis is the pair's when there is one.
  nemesis::Targets targets(const lab::RunLog& log) {
    nemesis::Targets t{&log, key, names_of(world.workers)};
    t.signal = [](std::size_t, int) { return true; };
    t.redis = &redis;
    t.pair = pair.get();
    return t;
  }

  // The failover of the world: the lock key is lost, everything else stays. The primary's other
  // keys of the lock (the fence counter, which its acquisitions raised after the cut) go to the
  // replica first; then the primary dies, the replica takes its port, and the workers and the stage
  // connect to it.
  void fail_over(const nemesis::Operation& op, const lab::RunLog& log) {
    for (const std::string& kept : {key.fence_counter, key.queue, key.queue_deadlines, key.queue_claims}) {
      Reply dumped = redis.checked({"DUMP", kept});
      if (!dumped.is_nil()) pair->replica().checked({"RESTORE", kept, "0", dumped.text(), "REPLACE"});
    }
    pair_failed_over = true;
    nemesis::apply(op, targets(log));
    redis.reconnect();
    for (auto& worker : workers) worker->reconnect();
  }

  // The worker whose token the lock key holds now, if any.
  std::optional<std::size_t> key_holder() {
    Reply value = redis.checked({"GET", key.lock});
    if (value.is_nil()) return std::nullopt;
    std::string text = value.text();
    for (std::size_t i = 0; i < workers.size(); ++i) {
      std::optional<Token> token = turns.view(i).token;
      if (token && token->hex == text) return i;
    }
    return std::nullopt;
  }

  std::vector<Move> enabled(const Progress& p, Walk walk) {
    std::vector<Move> moves;
    bool any_left = false;
    for (std::size_t i = 0; i < workers.size(); ++i) {
      Turns::View v = turns.view(i);
      if (!v.waiting) continue;
      any_left = true;
      if (p.paused == i) continue;
      moves.push_back(Move{Move::Kind::step, i, *v.waiting});
      if (walk == Walk::every_order && v.can_extend && p.extends[i] < world.bound)
        moves.push_back(Move{Move::Kind::step, i, lab::Step::extend});
    }
    if (!any_left) return moves;
    bool pausing = world.has(WorldEvent::pause) && !p.paused_once;
    if (world.has(WorldEvent::expiry) && !p.expired) {
      std::optional<std::size_t> holder = key_holder();
      bool watched = world.strategy == lab::Strategy::watchdog;
      if (holder && (!watched || p.paused == holder || (walk == Walk::one_per_class && pausing))) {
        moves.push_back(Move{Move::Kind::expire, *holder});
      }
    }
    if (pausing && walk == Walk::every_order) {
      for (std::size_t i = 0; i < workers.size(); ++i) {
        if (turns.view(i).waiting) moves.push_back(Move{Move::Kind::pause, i});
      }
    }
    if (p.paused) moves.push_back(Move{Move::Kind::resume, *p.paused});
    if (world.has(WorldEvent::restart) && !p.restarted) moves.push_back(Move{Move::Kind::restart});
    if (world.has(WorldEvent::failover) && !p.failed_over) moves.push_back(Move{Move::Kind::failover});
    return moves;
  }

  // Takes the move, and notes it and its start in `run`; an expiry of a watchdog's lock whose holder
  // runs (Walk::one_per_class) is paused around.
  void apply(const Move& move, Progress& p, const lab::RunLog& log, OrderRun& run) {
    bool paused_around =
        move.kind == Move::Kind::expire && world.strategy == lab::Strategy::watchdog && p.paused != move.worker;
    if (paused_around) take(Move{Move::Kind::pause, move.worker}, p, log, run);
    take(Move{move.kind, move.kind == Move::Kind::expire ? 0 : move.worker, move.step}, p, log, run);
    if (paused_around) take(Move{Move::Kind::resume, move.worker}, p, log, run);
  }

  void take(const Move& move, Progress& p, const lab::RunLog& log, OrderRun& run) {
    run.started.push_back(log.elapsed());
    run.order.push_back(move);
    std::optional<nemesis::Operation> op = operation_of(move);
    if (!op) {
      if (move.step == lab::Step::extend) {
        ++p.extends[move.worker];
        turns.extend(move.worker);
      } else {
        turns.go(move.worker);
      }
      return;
    }
    switch (move.kind) {
      case Move::Kind::expire: p.expired = true; break;
      case Move::Kind::pause:
        p.paused = move.worker;
        p.paused_once = true;
        break;
      case Move::Kind::resume: p.paused.reset(); break;
      case Move::Kind::restart: p.restarted = true; break;
      case Move::Kind::failover: p.failed_over = true; return fail_over(*op, log);
      case Move::Kind::step: break;
    }
    nemesis::apply(*op, targets(log));
    // The scripts' Redis restarted through the stage's own connection, which it reconnected; the
    // pair's did not.
    if (move.kind == Move::Kind::restart && pair) redis.reconnect();
  }

  World world;
  Servers servers;
  lab::LabDir dir;
  long account;
  LockKey key;
  std::unique_ptr<host::FailoverPair> pair;  // the world's Redis when it has the failover event
  bool pair_failed_over = false;
  Turns turns;
  RedisConnection redis;
  bank::AccountStore store;
  std::vector<std::unique_ptr<strategy::GatedWorker>> workers;
};

Stage::Stage(World world, Servers servers, lab::LabDir dir, long account)
    : impl_(std::make_unique<Impl>(std::move(world), std::move(servers), std::move(dir), account)) {}

Stage::~Stage() = default;

const lab::LabDir& Stage::dir() const { return impl_->dir; }
const World& Stage::world() const { return impl_->world; }

OrderRun Stage::run(const Chooser& choose, int number, Walk walk) {
  Impl& s = *impl_;
  auto began = std::chrono::steady_clock::now();
  s.clean();
  s.dir.start_new_run(lab::wall_seconds());
  lab::RunLog log(s.dir, lab::Lang::en);
  s.turns.reset();

  std::vector<chaos::WorkerExit> exits;
  for (std::size_t i = 0; i < s.workers.size(); ++i) {
    exits.push_back(chaos::WorkerExit{worker_name(i), kAmounts[i], true, 0});
  }
  Threads threads(s.turns);
  for (std::size_t i = 0; i < s.workers.size(); ++i) {
    threads.start([&s, &exits, i] {
      exits[i].code = s.workers[i]->increment() ? 0 : 1;
      s.turns.finished(i);
    });
  }
  s.turns.settle();

  OrderRun run{
      {}, {}, {}, {}, {chaos::TrialInput(chaos::TrialSpec{s.world.strategy, walk_fault(s.world), number, {}}), {}}};
  Progress progress{{}, false, false, false, false, std::vector<int>(s.workers.size(), 0)};
  for (std::vector<Move> enabled = s.enabled(progress, walk); !enabled.empty(); enabled = s.enabled(progress, walk)) {
    std::size_t pick = choose(enabled, run.picks.size());
    if (pick >= enabled.size()) throw Error("the explorer chose a move that is not enabled");
    run.widths.push_back(enabled.size());
    run.picks.push_back(pick);
    s.apply(enabled[pick], progress, log, run);
  }
  threads.join();

  chaos::TrialInput& input = run.judged.input;
  input.history = chaos::history_from(lab::read_events(s.dir), exits);
  input.stuck.assign(exits.size(), false);
  input.struck = progress.paused_once || progress.expired || progress.restarted || progress.failed_over;
  input.final_balance = s.store.read_balance(s.account);
  if (progress.failed_over) input.lock_reached_replica = s.pair->lock_reached_replica();
  input.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - began).count();
  run.judged.result = chaos::judge(input);
  return run;
}

}  // namespace rlock::explore
