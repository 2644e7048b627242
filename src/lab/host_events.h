// The host's actions on Redis, as events of a run: what src/host/ returns, logged by the lab.
//
// Stateless; thread-safe as the RunLog it records through.
#pragma once

#include "host/redis_server.h"
#include "lab/run_log.h"

namespace rlock::lab {

// Records a crash as host events: redis_killed with the lock's PTTL before, stamped when the kill
// left; then, when a server took the clients back, redis_started or redis_promoted with the lock's
// PTTL on it, stamped now. `named` adds its fields to redis_killed (the nemesis's operation).
void record_crash(const RunLog& log, const host::CrashReport& crash,
                  const nlohmann::json& named = nlohmann::json::object());

}  // namespace rlock::lab
