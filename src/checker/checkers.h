// The checkers of a trial's history. Each gives valid, invalid or unknown; a checker that throws
// gives unknown, never valid.
//
//   lost updates   the final balance lies between the initial one plus every ok amount and that
//                  plus every info amount (an unknown increment may or may not have applied):
//                  the bounds and the sum missing of rlock verdict (BalanceBounds, verdict.h)
//   overlaps       two workers whose read-to-write sections overlapped in time and both wrote
//   fences         the database never accepted a write with a smaller token after a larger one
//
// Pure functions; thread-safe.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "checker/history.h"

namespace rlock::checker {

enum class Validity { valid, invalid, unknown };
std::string_view to_string(Validity validity);
// The validity named `name`; unknown for any other name (never valid by mistake).
Validity validity_from(std::string_view name);

struct CheckResult {
  Validity validity = Validity::unknown;
  std::string detail;    // why, for a human
  long long amount = 0;  // lost updates: the money missing (negative: too much)
  int count = 0;         // overlaps: how many pairs; fences: how many regressions
};

CheckResult check_lost_updates(long long initial, long long final_balance, const std::vector<Operation>& history);
CheckResult check_overlaps(const std::vector<Operation>& history);
CheckResult check_fences(const std::vector<Operation>& history);

// Runs `check`, turning an exception into unknown.
CheckResult guarded(const std::function<CheckResult()>& check);

}  // namespace rlock::checker
