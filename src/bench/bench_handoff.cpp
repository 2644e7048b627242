// The contended case of rlock bench: client processes taking turns on one lock, polling, woken by
// the release announcement, queued and woken in turn, or queued and handed the lock by the release. Each client writes
// its sections (acquired, releasing: steady-clock nanoseconds, one clock for every process of the machine) to a file
// the parent merges, and counts them in a counter the clients share, so that they stop together once the case has
// enough hand-offs.

#include <sys/mman.h>

#include <atomic>
#include <fstream>
#include <iterator>
#include <new>
#include <random>
#include <string>
#include <thread>

#include <fmt/format.h>

#include "bench/bench.h"
#include "bench/handoff_sections.h"
#include "host/child.h"
#include "rlock/acquire.h"
#include "rlock/error.h"
#include "rlock/redis_lock.h"
#include "util/whole_file.h"

namespace rlock::bench {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::chrono::milliseconds kTtl{2000};
constexpr std::chrono::milliseconds kRetry{100};  // the article's polling interval
constexpr std::chrono::milliseconds kConnectTime{500};

// The sections every client of a case has done, in memory shared by the forked clients.
class SharedCount {
 public:
  SharedCount() {
    void* memory = mmap(nullptr, sizeof(std::atomic<long>), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) throw Error("rlock bench: cannot map memory shared with the handoff clients");
    count_ = new (memory) std::atomic<long>(0);
  }
  ~SharedCount() { munmap(count_, sizeof(std::atomic<long>)); }
  SharedCount(const SharedCount&) = delete;
  SharedCount& operator=(const SharedCount&) = delete;

  void add() { count_->fetch_add(1, std::memory_order_relaxed); }
  long value() const { return count_->load(std::memory_order_relaxed); }

 private:
  std::atomic<long>* count_;
};

// When a client stops: --seconds have passed and the case has kMinHandoffs (sections - 1), or the overtime is over.
struct CaseEnd {
  Clock::time_point soonest;
  Clock::time_point latest;
  const SharedCount& sections;

  bool reached() const {
    auto now = Clock::now();
    return now >= latest || (now >= soonest && sections.value() > kMinHandoffs);
  }
};

std::filesystem::path records_of(const BenchSetup& setup, WaitMode mode, int client) {
  return setup.dir / fmt::format("handoff-{}-{}.txt", wait_mode_name(mode), client);
}

// One client: its own connections, then sections until the case's end. Runs in a forked child.
void run_client(const BenchSetup& setup, WaitMode mode, int client, Clock::time_point start, const CaseEnd& end,
                SharedCount& sections) {
  RedisConnection redis(setup.redis);
  bank::AccountStore store(setup.conninfo);
  RedisLock lock(redis, LockKey::for_account(setup.account), LockOptions{.waiters = mode});
  // handoff: the Acquirer queues, and returns when a release handed it the lock; the others ask here.
  std::optional<Acquirer> acquirer;
  std::optional<ReleaseWaiter> waiter;
  if (mode == WaitMode::handoff) {
    acquirer.emplace(lock, setup.redis, AcquirePolicy{.retry = kRetry, .wait = mode, .deadline = std::nullopt});
  } else {
    waiter.emplace(mode, setup.redis, lock.key(), kRetry);
  }
  std::mt19937_64 rng(std::random_device{}());
  std::uniform_int_distribution<long> work_us(0, std::chrono::microseconds(kMaxWork).count());
  std::string lines;  // written once the case ends, off the timed loop
  std::string own;    // the token this client released last: its announcement wakes nobody here
  std::this_thread::sleep_until(start);
  while (!end.reached()) {
    if (waiter) waiter->ready();  // subscribed before an attempt that may queue it, as the Acquirer does
    Acquisition acquisition = acquirer                  ? acquirer->acquire(kTtl)
                              : mode == WaitMode::queue ? lock.acquire_queued(kTtl, waiter->ticket(), false)
                                                        : lock.acquire(kTtl);
    if (!acquisition) {
      waiter->wait(own);
      continue;
    }
    auto acquired = Clock::now();
    long long balance = store.read_balance(setup.account);
    std::this_thread::sleep_for(std::chrono::microseconds(work_us(rng)));
    store.write_balance(setup.account, balance + 1);
    auto releasing = Clock::now();
    if (lock.release(acquisition->token) != ReleaseResult::released) {
      throw Error(fmt::format("client {}: the release failed: {}", client, lock.last_release_error()));
    }
    fmt::format_to(std::back_inserter(lines), "{} {}\n", nanoseconds(acquired), nanoseconds(releasing));
    sections.add();
    own = acquisition->token.hex;
    // The back of the queue: the others go first. A queue waiter asks at once, and is queued last.
    if (mode == WaitMode::poll || mode == WaitMode::notify) waiter->wait(own);
  }
  util::write_whole_file(records_of(setup, mode, client), lines);
}

// No destructors run in the client (fork_child): the parent's connections were inherited.
pid_t spawn_client(const BenchSetup& setup, WaitMode mode, int client, Clock::time_point start, const CaseEnd& end,
                   SharedCount& sections) {
  return host::fork_child([&] {
    try {
      run_client(setup, mode, client, start, end, sections);
    } catch (const std::exception& e) {
      fmt::print(stderr, "rlock: error: bench client {}: {}\n", client, e.what());
      return 1;
    }
    return 0;
  });
}

// handoff-poll, -notify, -queue, and handoff-direct for WaitMode::handoff.
std::string case_name(WaitMode mode) {
  return mode == WaitMode::handoff ? "handoff-direct" : fmt::format("handoff-{}", wait_mode_name(mode));
}

std::vector<Section> read_sections(const BenchSetup& setup, WaitMode mode, int clients) {
  std::vector<Section> sections;
  for (int client = 0; client < clients; ++client) {
    std::ifstream in(records_of(setup, mode, client));
    Section s{0, 0, client};
    while (in >> s.acquired_ns >> s.releasing_ns) sections.push_back(s);
  }
  return sections;
}

}  // namespace

BenchCase measure_handoff(const BenchSetup& setup, WaitMode mode, double redis_rtt_us, const SleeperFloors& sleepers) {
  LockKey key = LockKey::for_account(setup.account);
  RedisConnection(setup.redis).checked({"DEL", key.lock, key.queue, key.queue_deadlines, key.queue_claims});
  bank::AccountStore store(setup.conninfo);
  store.reset(setup.account);

  auto start = Clock::now() + kConnectTime;
  auto soonest = start + std::chrono::duration_cast<Clock::duration>(setup.seconds);
  SharedCount done;
  CaseEnd end{soonest, soonest + kOvertime, done};
  std::vector<pid_t> pids;
  for (int client = 0; client < setup.clients; ++client)
    pids.push_back(spawn_client(setup, mode, client, start, end, done));
  int failed = 0;
  for (pid_t pid : pids) {
    if (!host::reap(pid).succeeded()) ++failed;
  }
  if (failed > 0) throw Error(fmt::format("rlock bench: {} of {} handoff clients failed", failed, setup.clients));

  std::vector<Section> sections = read_sections(setup, mode, setup.clients);
  long long expected = bank::AccountStore::kInitialBalance + static_cast<long long>(sections.size());
  return summarize_handoffs(case_name(mode), std::move(sections), setup.clients, 2 * redis_rtt_us, sleepers,
                            store.read_balance(setup.account), expected);
}

}  // namespace rlock::bench
