// The verdict on a run: was an update lost?
//
// An update is lost when the final balance misses an amount that a worker added and believed
// applied. A worker that failed and said so (an error event with added=false: its write was
// rejected, or Redis went away before it wrote) did not have its amount acknowledged; its absence is
// not a lost update. A worker whose write was in doubt (in_doubt=true: sent, answer lost) may or
// may not have added it: the balance may lie anywhere between. Pure functions; thread-safe.
#pragma once

#include <string>
#include <vector>

#include "lab/event.h"
#include "lab/wording.h"

namespace rlock::lab {

// The balances a run may end with when no update is lost: `least` when every increment in doubt
// was lost with its answer, `most` when each one landed.
struct BalanceBounds {
  long long least = 0;
  long long most = 0;

  // How far `balance` falls short of least (negative: how far it lies above most); 0 inside.
  long long missing(long long balance) const;
};

struct BalanceVerdict {
  long long balance = 0;
  long long expected = 0;          // every worker's amount applied
  long long not_acknowledged = 0;  // the amounts of workers that failed before adding them
  long long in_doubt = 0;          // the amounts whose write may or may not have landed
  struct Failed {
    std::string who;
    long long amount = 0;
  };
  std::vector<Failed> failed;  // each worker that failed before adding its amount

  // How far the balance falls short of the least it may be (negative: above the most it may be).
  long long missing() const;
  bool lost_update() const { return missing() != 0; }
  // "verdict: final balance 150, expected 180: ..." on one line, in English or Korean.
  std::string line(Lang lang = Lang::en) const;
};

BalanceVerdict balance_verdict(long long balance, long long expected, const std::vector<Event>& events);

}  // namespace rlock::lab
