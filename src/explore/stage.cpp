#include "explore/stage.h"

#include <chrono>
#include <optional>

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

std::vector<std::string> names_of(int workers) {
  std::vector<std::string> names;
  for (int i = 0; i < workers; ++i) names.push_back(worker_name(static_cast<std::size_t>(i)));
  return names;
}

}  // namespace

chaos::Fault walk_fault(const World& world) { return chaos::explored_fault(operations_of(world)); }

bool OrderRun::losing() const {
  const checker::TrialResult& r = judged.result;
  return r.lost.validity == checker::Validity::invalid || r.overlaps.validity == checker::Validity::invalid;
}

struct Stage::Impl {
  Impl(World w, Servers s, lab::LogDir d, long a)
      : world(std::move(w)),
        servers(std::move(s)),
        dir(std::move(d)),
        account(a),
        key(LockKey::for_account(a)),
        pair(make_pair()),
        redis(redis_address()),
        store(servers.conninfo),
        turns(names_of(world.workers), world.bound,
              [this](std::size_t i) { exits[i].code = workers[i]->increment(*order_log) ? 0 : 1; }) {
    std::filesystem::create_directories(dir.root());  // where a replayed order's log is written
    store.reset(account);
    for (int i = 0; i < world.workers; ++i) {
      workers.push_back(std::make_unique<strategy::GatedWorker>(
          plan_of(static_cast<std::size_t>(i)), lab::RunSetup{redis_address(), servers.conninfo, dir, lab::Lang::en},
          turns));
    }
  }

  lab::WorkerPlan plan_of(std::size_t worker) const {
    lab::WorkerPlan plan;
    plan.name = worker_name(worker);
    plan.amount = kAmounts[worker];
    plan.account = account;
    plan.ttl = kTtl;
    plan.strategy = world.strategy;
    return plan;
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
      ungated.clear();
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

  // The worker whose token the lock key holds now, if any. Asked of Redis only after a move that
  // may have changed the key (changes_key): nothing else writes it within an order.
  std::optional<std::size_t> key_holder() {
    if (!holder_changed) return last_holder;
    last_holder = ask_key_holder();
    holder_changed = false;
    return last_holder;
  }

  std::optional<std::size_t> ask_key_holder() {
    ++holder_reads;
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
      bool watched = lab::renews_lease(world.strategy);
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
  // runs (Walk::one_per_class) is paused around. Returns the worker to let go for a worker's step.
  std::optional<std::size_t> apply(const Move& move, Progress& p, const lab::RunLog& log, OrderRun& run) {
    bool paused_around =
        move.kind == Move::Kind::expire && lab::renews_lease(world.strategy) && p.paused != move.worker;
    if (paused_around) take(Move{Move::Kind::pause, move.worker}, p, log, run);
    std::optional<std::size_t> going =
        take(Move{move.kind, move.kind == Move::Kind::expire ? 0 : move.worker, move.step}, p, log, run);
    if (paused_around) take(Move{Move::Kind::resume, move.worker}, p, log, run);
    return going;
  }

  std::optional<std::size_t> take(const Move& move, Progress& p, const lab::RunLog& log, OrderRun& run) {
    run.started.push_back(log.elapsed());
    run.order.push_back(move);
    if (changes_key(move)) holder_changed = true;
    std::optional<nemesis::Operation> op = operation_of(move);
    if (!op) {
      if (move.step != lab::Step::extend) return move.worker;
      ++p.extends[move.worker];
      turns.extend(move.worker);
      return std::nullopt;
    }
    switch (move.kind) {
      case Move::Kind::expire: p.expired = true; break;
      case Move::Kind::pause:
        p.paused = move.worker;
        p.paused_once = true;
        break;
      case Move::Kind::resume: p.paused.reset(); break;
      case Move::Kind::restart: p.restarted = true; break;
      case Move::Kind::failover:
        p.failed_over = true;
        fail_over(*op, log);
        return std::nullopt;
      case Move::Kind::step: break;
    }
    nemesis::apply(*op, targets(log));
    // The scripts' Redis restarted through the stage's own connection, which it reconnected; the
    // pair's did not.
    if (move.kind == Move::Kind::restart && pair) redis.reconnect();
    return std::nullopt;
  }

  // Whether the move may change what the lock key holds: an acquisition, an extension or a
  // release, the key's expiry, the Redis restarted or failed over.
  static bool changes_key(const Move& move) {
    if (move.kind != Move::Kind::step) return move.kind != Move::Kind::pause && move.kind != Move::Kind::resume;
    return move.step == lab::Step::acquire || move.step == lab::Step::extend || move.step == lab::Step::release;
  }

  World world;
  Servers servers;
  lab::LogDir dir;
  long account;
  LockKey key;
  std::unique_ptr<host::FailoverPair> pair;  // the world's Redis when it has the failover event
  bool pair_failed_over = false;
  RedisConnection redis;
  bank::AccountStore store;
  std::vector<std::unique_ptr<strategy::GatedWorker>> workers;
  std::vector<std::unique_ptr<strategy::RepeatedWorker>> ungated;  // the floor's
  long long orders_run = 0;
  std::optional<lab::RunLog> order_log;
  std::optional<std::size_t> last_holder;  // key_holder()'s last answer
  bool holder_changed = true;
  long long holder_reads = 0;
  std::vector<checker::WorkerExit> exits;
  Turns turns;  // last: its threads run the workers, so they end first
};

Stage::Stage(World world, Servers servers, lab::LogDir dir, long account)
    : impl_(std::make_unique<Impl>(std::move(world), std::move(servers), std::move(dir), account)) {}

Stage::~Stage() = default;

const lab::LogDir& Stage::dir() const { return impl_->dir; }
const World& Stage::world() const { return impl_->world; }

OrderRun Stage::run(const Chooser& choose, int number, Walk walk) {
  Impl& s = *impl_;
  auto began = std::chrono::steady_clock::now();
  s.clean();
  s.holder_changed = true;
  s.order_log.emplace(lab::wall_seconds());
  s.exits.clear();
  for (std::size_t i = 0; i < s.workers.size(); ++i) {
    s.exits.push_back(checker::WorkerExit{worker_name(i), kAmounts[i], true, 0});
  }

  OrderRun run{
      {}, {}, {}, {}, {checker::TrialInput(chaos::TrialSpec{s.world.strategy, walk_fault(s.world), number, {}}), {}},
      {}};
  Progress progress{{}, false, false, false, false, std::vector<int>(s.workers.size(), 0)};
  s.turns.run_order([&]() -> std::optional<std::size_t> {
    for (std::vector<Move> enabled = s.enabled(progress, walk); !enabled.empty(); enabled = s.enabled(progress, walk)) {
      std::size_t pick = choose(enabled, run.picks.size());
      if (pick >= enabled.size()) throw Error("the explorer chose a move that is not enabled");
      run.widths.push_back(enabled.size());
      run.picks.push_back(pick);
      if (std::optional<std::size_t> going = s.apply(enabled[pick], progress, *s.order_log, run)) return going;
    }
    return std::nullopt;
  });

  ++s.orders_run;
  run.events = s.order_log->kept();
  checker::TrialInput& input = run.judged.input;
  input.history = checker::history_from(run.events, s.exits);
  input.stuck.assign(s.exits.size(), false);
  input.struck = progress.paused_once || progress.expired || progress.restarted || progress.failed_over;
  input.final_balance = s.store.read_balance(s.account);
  if (progress.failed_over) input.lock_reached_replica = s.pair->lock_reached_replica();
  input.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - began).count();
  run.judged.result = checker::judge(input);
  return run;
}

double Stage::floor_seconds(int orders) {
  Impl& s = *impl_;
  long long reads = s.orders_run > 0 ? (s.holder_reads + s.orders_run / 2) / s.orders_run : 0;
  std::chrono::steady_clock::duration connecting{};
  auto began = std::chrono::steady_clock::now();
  for (int n = 0; n < orders; ++n) {
    s.clean();
    if (s.ungated.empty()) {  // the first floor order, or a failed-over pair replaced: not an order's round trips
      auto connect = std::chrono::steady_clock::now();
      for (int i = 0; i < s.world.workers; ++i) {
        s.ungated.push_back(std::make_unique<strategy::RepeatedWorker>(s.plan_of(static_cast<std::size_t>(i)),
                                                                       s.redis_address(), s.servers.conninfo));
      }
      connecting += std::chrono::steady_clock::now() - connect;
    }
    for (auto& worker : s.ungated) worker->increment();
    for (long long i = 0; i < reads; ++i) s.redis.checked({"GET", s.key.lock});
    s.store.read_balance(s.account);
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - began - connecting).count();
}

}  // namespace rlock::explore
