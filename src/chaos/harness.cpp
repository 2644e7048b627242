#include "chaos/harness.h"

#include "bank/account_store.h"
#include "rlock/redis_connection.h"

namespace rlock::chaos {

void on_shared_redis(Job& job, const std::vector<std::string_view>& command) {
  needing("Redis", job.setup.redis.display(), [&] {
    try {
      job.redis.checked(command);
    } catch (const Error&) {
      job.redis.checked(command);
    }
  });
}

std::string HarnessProbe::operator()() {
  try {
    needing("PostgreSQL", postgres_at(setup_), [&] { bank::AccountStore{setup_.conninfo}; });
    if (redis_) needing("Redis", setup_.redis.display(), [&] { RedisConnection(setup_.redis).checked({"PING"}); });
    failures_ = 0;
  } catch (const HarnessLost& e) {
    if (++failures_ >= 2) return e.what();
  }
  return "";
}

void check_harness(const std::vector<TrialResult>& results) {
  auto lost = std::find_if(results.begin(), results.end(), [](const TrialResult& r) { return r.harness_lost; });
  if (lost == results.end()) return;
  auto not_run = std::count_if(results.begin(), results.end(), [](const TrialResult& r) { return r.not_run; });
  throw HarnessLost(fmt::format("the campaign stopped: the harness lost {} ({} trials checked, {} not run)",
                                lost->error, static_cast<long>(results.size()) - not_run, not_run));
}

}  // namespace rlock::chaos
