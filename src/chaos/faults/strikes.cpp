#include "chaos/faults/strikes.h"

#include <algorithm>

#include "chaos/schedule.h"
#include "chaos/trial_context.h"
#include "host/local_redis.h"
#include "lab/event.h"
#include "lab/host_events.h"

namespace rlock::chaos {

std::string_view redis_unused(lab::Strategy strategy) { return lab::in_postgres(strategy) ? "Redis unused" : ""; }

std::string_view redis_unused(protocol::ServerKind kind) {
  return kind == protocol::ServerKind::redis ? "" : "Redis unused";
}

std::string_view no_lock_held(lab::Strategy strategy) {
  return strategy == lab::Strategy::pg_atomic ? "no lock held" : "";
}

Strike crash_redlock_server(TrialContext& trial) {
  return [&server = *trial.job.redlock.front(), &key = trial.key, &log = trial.run_log()] {
    lab::record_crash(log, host::crash_and_restart(server, key));
    return Heal{};
  };
}

void record_network(const lab::RunLog& log, const std::string& worker, const std::string& action) {
  log.record("host", lab::EventKind::network, {{"action", action}, {"target", worker}});
}

bool target_read(const Schedule& schedule, const std::vector<lab::Event>& events) {
  const std::string& target = schedule.workers[schedule.target].name;
  return std::any_of(events.begin(), events.end(),
                     [&](const lab::Event& e) { return e.who == target && e.kind == lab::EventKind::read; });
}

}  // namespace rlock::chaos
