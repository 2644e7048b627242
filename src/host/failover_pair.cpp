#include "host/failover_pair.h"

#include <string>
#include <thread>

#include <fmt/format.h>

#include "host/child.h"
#include "host/process.h"
#include "rlock/error.h"
#include "rlock/redis_lock.h"

namespace rlock::host {

using namespace std::chrono_literals;

FailoverPair::FailoverPair(int primary_port, const std::filesystem::path& dir)
    : primary_(primary_port, dir),
      replica_(primary_port + 1, dir, {"--replicaof", "127.0.0.1", std::to_string(primary_port)}) {
  // The replica may say "connected" before the primary streams writes to it: only an
  // acknowledged write proves that the next ones will reach it.
  constexpr std::string_view kProbe = "rlock:failover:probe";
  bool in_sync = wait_for(5s, [&] {
    primary_.connection().checked({"SET", kProbe, "1"});
    return primary_.connection().checked({"WAIT", "1", "200"}).integer() >= 1;
  });
  primary_.connection().checked({"DEL", kProbe});
  if (!in_sync) throw Error(fmt::format("the replica on {} did not sync within 5 s", replica_.address().display()));
}

FailoverPair::~FailoverPair() { stop_holding(); }

void FailoverPair::stop_replication() { replica_.connection().checked({"REPLICAOF", "NO", "ONE"}); }

void FailoverPair::hold_replication(std::chrono::duration<double> lag) {
  stop_holding();
  stop_replication();
  RedisAddress replica = replica_.address();
  std::string primary_port = std::to_string(primary_.address().port);
  restorer_ = fork_child([&] {
    std::this_thread::sleep_for(lag);
    RedisConnection(replica).checked({"REPLICAOF", "127.0.0.1", primary_port});
    return 0;
  });
}

void FailoverPair::stop_holding() {
  if (restorer_ > 0) kill_and_reap(restorer_);
  restorer_ = 0;
}

CrashReport FailoverPair::fail_over(const LockKey& key) {
  CrashReport report{primary_.address().display(), RedisLock(primary_.connection(), key).pttl(), {}, {}};
  // DUMP, not GET: a client's lock may be any type (Redisson's is a hash), and DUMP serializes each.
  Reply held = primary_.connection().checked({"DUMP", key.lock});
  stop_holding();
  report.killed_at = std::chrono::system_clock::now();
  primary_.kill();
  // Asked once the primary is gone, so nothing more can reach it.
  lock_reached_replica_ = held.is_nil() || replica_.connection().checked({"DUMP", key.lock}).text() == held.text();
  std::string replica = replica_.address().display();
  replica_.promote_to(primary_.address().port);
  failed_over_ = true;
  report.successor = CrashReport::Successor{replica, true, RedisLock(replica_.connection(), key).pttl()};
  return report;
}

CrashReport FailoverPair::restart(const LockKey& key) {
  return crash_and_restart(failed_over_ ? replica_ : primary_, key);
}

}  // namespace rlock::host
