#include "chaos/faults/strikes.h"

#include <algorithm>

#include "chaos/schedule.h"
#include "chaos/trial_context.h"
#include "host/redis_server.h"
#include "lab/event.h"
#include "lab/host_events.h"

namespace rlock {

std::string_view redis_unused(Strategy strategy) { return in_postgres(strategy) ? "Redis unused" : ""; }

std::string_view no_lock_held(Strategy strategy) { return strategy == Strategy::pg_atomic ? "no lock held" : ""; }

Strike crash_redlock_server(TrialContext& trial) {
  return [&server = *trial.job.redlock.front(), &key = trial.key, &log = trial.run_log()] {
    record_crash(log, crash_server(server.connection(), key,
                                   {[&] { server.kill(); }, [&]() -> RedisConnection& {
                                      server.restart();
                                      return server.connection();
                                    }}));
    return Heal{};
  };
}

void record_network(const RunLog& log, const std::string& worker, const std::string& action) {
  log.record("host", EventKind::network, {{"action", action}, {"target", worker}});
}

bool target_read(const Schedule& schedule, const std::vector<Event>& events) {
  const std::string& target = schedule.workers[schedule.target].name;
  return std::any_of(events.begin(), events.end(),
                     [&](const Event& e) { return e.who == target && e.kind == EventKind::read; });
}

}  // namespace rlock
