#include "checker/checkers.h"

#include <algorithm>

#include <fmt/format.h>

#include "lab/verdict.h"
#include "util/enum_names.h"

namespace rlock::checker {

namespace {

constexpr util::NameTable<Validity, 3> kValidities{
    {{Validity::valid, "valid"}, {Validity::invalid, "invalid"}, {Validity::unknown, "unknown"}}};

}  // namespace

std::string_view to_string(Validity validity) { return util::name_in(kValidities, validity); }

Validity validity_from(std::string_view name) { return util::value_in(kValidities, name).value_or(Validity::unknown); }

CheckResult check_lost_updates(long long initial, long long final_balance, const std::vector<Operation>& history) {
  long long least = initial, most = initial;
  for (const Operation& op : history) {
    if (op.outcome == Outcome::ok) least += op.amount, most += op.amount;
    if (op.outcome == Outcome::info) most += op.amount;
  }
  long long missing = lab::BalanceBounds{least, most}.missing(final_balance);
  if (missing > 0) {
    return {Validity::invalid,
            fmt::format("final {} < {}: {} of acknowledged increments lost", final_balance, least, missing), missing,
            0};
  }
  if (missing < 0) {
    return {Validity::invalid, fmt::format("final {} > {}: more than every increment once", final_balance, most),
            missing, 0};
  }
  return {Validity::valid, fmt::format("final {} within [{}, {}]", final_balance, least, most), 0, 0};
}

CheckResult check_overlaps(const std::vector<Operation>& history) {
  int overlaps = 0;
  std::string first;
  for (std::size_t i = 0; i < history.size(); ++i) {
    for (std::size_t j = i + 1; j < history.size(); ++j) {
      for (const Section& a : history[i].sections) {
        for (const Section& b : history[j].sections) {
          if (!a.accepted || !b.accepted || a.wrote_at < b.read_at || b.wrote_at < a.read_at) continue;
          if (overlaps++ == 0) {
            first = fmt::format("{} [{:.3f}, {:.3f}] and {} [{:.3f}, {:.3f}] both wrote", history[i].worker, a.read_at,
                                a.wrote_at, history[j].worker, b.read_at, b.wrote_at);
          }
        }
      }
    }
  }
  if (overlaps > 0) return {Validity::invalid, first, 0, overlaps};
  return {Validity::valid, "no two accepted sections overlap", 0, 0};
}

CheckResult check_fences(const std::vector<Operation>& history) {
  std::vector<const Section*> accepted;
  for (const Operation& op : history) {
    for (const Section& s : op.sections) {
      if (s.accepted && s.fence) accepted.push_back(&s);
    }
  }
  std::sort(accepted.begin(), accepted.end(),
            [](const Section* a, const Section* b) { return a->wrote_at < b->wrote_at; });
  int regressions = 0;
  std::string first;
  for (std::size_t i = 1; i < accepted.size(); ++i) {
    if (*accepted[i]->fence > *accepted[i - 1]->fence) continue;
    if (regressions++ == 0) {
      first = fmt::format("token {} accepted at {:.3f} after token {}", *accepted[i]->fence, accepted[i]->wrote_at,
                          *accepted[i - 1]->fence);
    }
  }
  if (regressions > 0) return {Validity::invalid, first, 0, regressions};
  return {Validity::valid, fmt::format("{} fenced writes, tokens increasing", accepted.size()), 0, 0};
}

CheckResult guarded(const std::function<CheckResult()>& check) {
  try {
    return check();
  } catch (const std::exception& e) {
    return {Validity::unknown, fmt::format("the checker failed: {}", e.what()), 0, 0};
  } catch (...) {
    return {Validity::unknown, "the checker failed", 0, 0};
  }
}

}  // namespace rlock::checker
