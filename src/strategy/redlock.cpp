// redlock: the article's read-modify-write under a lock granted by a majority of independent
// Redis servers (rlock/patterns/redlock.h). No fence: what it writes, it writes unchecked.
#include <fmt/format.h>

#include "rlock/patterns/redlock.h"
#include "strategy/strategies.h"

namespace rlock::strategy {
namespace {

class RedlockStrategy final : public Incrementer {
 public:
  RedlockStrategy(const Setting& setting, Parts parts)
      : setting_(setting), parts_(parts), lock_(setting.redlock, setting.key) {}

 private:
  void add(long long amount) override {
    Token token = acquire();
    long long before = parts_.account.read();
    parts_.journal.record(lab::EventKind::read, {{"balance", before}});
    parts_.journal.mark_read();
    pause_for(setting_.work_seconds);
    double sent_at = parts_.journal.elapsed();
    written([&] { parts_.account.write(before + amount); });
    state_.added = true;
    parts_.journal.record(lab::EventKind::wrote,
                          {{"before", before}, {"amount", amount}, {"after", before + amount}, {"sent_at", sent_at}});
    pause_for(setting_.hold_seconds);
    parts_.journal.record(lab::EventKind::released, {{"result", lock_.release(token) >= lock_.quorum() ? 1 : 0}});
  }

  Token acquire() {
    RedlockAcquirer acquirer(lock_, setting_.policy, [this](const RedlockAttempt&) {
      parts_.journal.record(lab::EventKind::busy,
                            {{"retry_s", std::chrono::duration<double>(setting_.policy.retry).count()}});
    });
    RedlockAttempt attempt = acquirer.acquire(setting_.ttl);
    if (!attempt) {
      throw Error(fmt::format("could not acquire {} on a majority in {} ms", setting_.key.lock,
                              setting_.policy.deadline.value_or(std::chrono::milliseconds{0}).count()));
    }
    parts_.journal.record(
        lab::EventKind::acquired,
        {{"ttl_ms", setting_.ttl.count()}, {"granted", attempt.granted}, {"validity_ms", attempt.validity.count()}});
    return *attempt.token;
  }

  Setting setting_;
  Parts parts_;
  Redlock lock_;
};

}  // namespace

std::unique_ptr<Incrementer> make_redlock(const Setting& setting, Parts parts) {
  return std::make_unique<RedlockStrategy>(setting, parts);
}

}  // namespace rlock::strategy
