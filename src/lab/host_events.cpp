#include "lab/host_events.h"

#include <chrono>

namespace rlock::lab {

void record_crash(const RunLog& log, const host::CrashReport& crash, const nlohmann::json& named) {
  double killed = std::chrono::duration<double>(crash.killed_at.time_since_epoch()).count();
  nlohmann::json fields{{"server", crash.server}, {"pttl", crash.pttl_before}};
  fields.update(named);
  log.record_at(killed, "host", EventKind::redis_killed, fields);
  if (!crash.successor) return;
  log.record("host", crash.successor->promoted ? EventKind::redis_promoted : EventKind::redis_started,
             {{"server", crash.successor->server}, {"pttl", crash.successor->pttl}});
}

}  // namespace rlock::lab
