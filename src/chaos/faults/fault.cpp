#include "chaos/faults/fault.h"

#include <algorithm>

#include "chaos/schedule.h"
#include "lab/event.h"
#include "util/seeded_random.h"

namespace rlock::chaos {

double ScheduleDraw::uniform(double low, double high) { return rng.real(low, high); }

lab::WorkerPlan& ScheduleDraw::target() { return schedule.workers[schedule.target]; }

void ScheduleDraw::keep(std::any drawn) { schedule.fault_draws = std::move(drawn); }

// fenced-claim and the PostgreSQL strategies promise no anomaly under every fault here: the
// database decides. fenced-claim's fences only pass a read that claims a fence no one claimed
// before and a write whose claim is still the newest, so even a failover that sends the fence
// counter back (lab 5) costs retries, not money. The network changes nothing: under partition and
// redis-stall the PostgreSQL strategies never meet Redis and fenced-claim claims in the database; a
// delayed write of theirs is an UPDATE whose transaction still holds its lock (pg-row-lock,
// pg-advisory), or one statement (pg-atomic), and fenced-claim's is rejected, its claim no longer
// the newest. A skewed clock only changes how long a worker's own waits last: the locks expire on
// Redis's clock and the database decides. The article's fenced and fenced-retry do not: a stale
// write that lands between a newer holder's read and its write passes `fence < $token`, and the
// newer write then overwrites it. For redlock, redis-restart and failover strike one of its three
// servers, which starts again empty (a failover to a replica that lagged loses the same keys).
bool FaultModel::expected_safe(lab::Strategy strategy) const { return lab::decided_at_resource(strategy); }

double FaultModel::heal_after_s(const Schedule& schedule) const { return schedule.pause_s; }

bool FaultModel::struck(const Schedule&, const std::vector<lab::Event>& events) const {
  return std::any_of(events.begin(), events.end(), [](const lab::Event& e) { return e.who == "host"; });
}

}  // namespace rlock::chaos
