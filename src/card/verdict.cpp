#include "card/verdict.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "checker/classification.h"
#include "util/stats.h"

namespace rlock::card {
namespace {

// "95% 21-94%": the Wilson interval of `count` of `of`, in whole percents.
std::string interval(long count, long of) {
  auto [low, high] = util::wilson_interval(count, of);
  return fmt::format("95% {:.0f}-{:.0f}%", std::floor(low * 100), std::ceil(high * 100));
}

// "lost updates 2, two holders 1": the counts that are not zero.
std::string kinds(const std::vector<std::pair<const char*, long>>& counts) {
  std::string out;
  for (const auto& [name, count] : counts) {
    if (count > 0) out += fmt::format("{}{} {}", out.empty() ? "" : ", ", name, count);
  }
  return out;
}

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) out += (out.empty() ? "" : ", ") + name;
  return out;
}

long judged_trials(const LibraryVerdict& v) {
  long n = 0;
  for (const FaultVerdict& f : v.faults) n += f.client.judged;
  return n;
}

}  // namespace

std::string trials_text(long count) { return fmt::format("{} trial{}", count, count == 1 ? "" : "s"); }

void Tally::add(const checker::TrialResult& r) {
  checker::Classification k = checker::classify(r);
  if (!k.judged) {
    ++unjudged;
    return;
  }
  ++judged;
  checker::Harm harm = k.harm();
  money += harm == checker::Harm::money;
  liveness += harm == checker::Harm::liveness;
  lost += k.lost_update;
  created += k.created;
  overlaps += k.overlap;
  fences += k.stale_fence;
  unwritten += k.unwritten;
  unknown += k.undecided;
  stuck += k.stuck;
  no_progress += k.no_progress;
  failed_safely += k.failed_safely();
  client_errors += k.client_error;
  increments += r.increments;
  lost_increments += r.lost_increments;
  faults_struck += r.faults_struck;
  faults_followed_by_loss += r.faults_followed_by_loss;
}

bool LibraryVerdict::money_lost() const {
  return std::any_of(faults.begin(), faults.end(), [](const FaultVerdict& f) { return f.client.money > 0; });
}

bool LibraryVerdict::liveness_lost() const {
  return std::any_of(faults.begin(), faults.end(), [](const FaultVerdict& f) { return f.client.liveness > 0; });
}

std::string LibraryVerdict::money_faults() const {
  std::vector<std::string> names;
  for (const FaultVerdict& f : faults) {
    if (f.client.money > 0) names.push_back(fault_label(f));
  }
  return join(names);
}

std::string fault_label(const FaultVerdict& verdict) {
  std::string name(to_string(verdict.fault));
  return verdict.topology == chaos::Topology::single ? name
                                                     : fmt::format("{} on {}", name, to_string(verdict.topology));
}

LibraryVerdict verdict_of(const Subject& subject, const std::vector<chaos::Fault>& faults,
                          const std::vector<checker::TrialResult>& results, chaos::Topology topology) {
  LibraryVerdict v{subject.client.name,    subject.fenced ? subject.fenced->name : "", {}, std::nullopt, {},
                   subject.other_scenarios};
  for (chaos::Fault fault : faults) {
    v.faults.push_back({fault, {}, subject.fenced ? std::optional<Tally>(Tally{}) : std::nullopt, topology});
  }
  for (const checker::TrialResult& r : results) {
    if (!r.spec.client) continue;
    auto f =
        std::find_if(v.faults.begin(), v.faults.end(), [&](const FaultVerdict& x) { return x.fault == r.spec.fault; });
    if (f == v.faults.end()) continue;
    if (r.spec.client->name == v.client) {
      f->client.add(r);
      bool shorter = !v.shortest_loss || r.ms < v.shortest_loss->ms;
      if (checker::anomaly(r) && shorter) v.shortest_loss = r;
    } else if (f->fenced && r.spec.client->name == v.fenced) {
      f->fenced->add(r);
    }
  }
  return v;
}

std::vector<lab::Strategy> safe_instead(const LibraryVerdict& verdict) {
  std::vector<lab::Strategy> safe;
  for (lab::Strategy strategy : lab::all_strategies()) {
    bool keeps = std::all_of(verdict.faults.begin(), verdict.faults.end(), [&](const FaultVerdict& f) {
      bool matters = f.client.money > 0 || !verdict.money_lost();
      return !matters || chaos::expected_safe(strategy, f.fault) || !chaos::not_applicable(strategy, f.fault).empty();
    });
    if (keeps) safe.push_back(strategy);
  }
  return safe;
}

namespace {

// "; increments lost 12/60 (95% 12-32%), struck 6, 3 followed by a loss"; "" for one-increment trials.
std::string history_text(const Tally& t) {
  if (t.increments == 0) return "";
  return fmt::format("; increments lost {}/{} ({}), struck {}, {} followed by a loss", t.lost_increments, t.increments,
                     interval(t.lost_increments, t.increments), t.faults_struck, t.faults_followed_by_loss);
}

// The tally's text but its histories' figures.
std::string trials_tally_text(const Tally& t) {
  std::string unjudged = t.unjudged > 0 ? fmt::format("; {} not judged", t.unjudged) : "";
  if (t.client_errors > 0) unjudged += fmt::format("; client errors {}", t.client_errors);
  if (t.judged == 0)
    return fmt::format("not judged ({} not run or left by the client's error)", trials_text(t.unjudged));
  std::string liveness = kinds({{"stuck", t.stuck}, {"no progress", t.no_progress}});
  std::string safely = t.failed_safely > 0 ? fmt::format("; failed safely {}", t.failed_safely) : "";
  if (t.money > 0) {
    std::string money = kinds({{"lost updates", t.lost},
                               {"created money", t.created},
                               {"two holders", t.overlaps},
                               {"stale fences", t.fences},
                               {"unwritten", t.unwritten},
                               {"outcome unknown", t.unknown}});
    return fmt::format("money {}/{} ({}): {}{}{}", t.money, t.judged, interval(t.money, t.judged), money,
                       liveness.empty() ? "" : "; " + liveness, unjudged);
  }
  if (t.liveness > 0) {
    return fmt::format("liveness {}/{} ({}): {}{}{}", t.liveness, t.judged, interval(t.liveness, t.judged), liveness,
                       safely, unjudged);
  }
  return fmt::format("nothing lost 0/{} ({}){}{}", t.judged, interval(0, t.judged), safely, unjudged);
}

}  // namespace

std::string tally_text(const Tally& t) { return trials_tally_text(t) + history_text(t); }

std::string runs_text(const JudgedSetup& s) {
  if (!s.workload.history()) return trials_text(s.trials);
  std::string each = s.workload.increments > 0 ? fmt::format("{} increments", s.workload.increments)
                                               : fmt::format("{:g} s", s.workload.duration_s);
  return fmt::format("{} histor{} of {} workers x {}", s.trials, s.trials == 1 ? "y" : "ies", s.workload.workers, each);
}

std::string instead_text(const LibraryVerdict& v) {
  std::vector<std::string> strategies;
  for (lab::Strategy s : safe_instead(v)) strategies.emplace_back(lab::to_string(s));
  std::string builtin = fmt::format("rlock's {} keep the money under {} (docs/chaos.md)", join(strategies),
                                    v.money_lost() ? "these faults" : "every fault judged");
  if (!v.money_lost()) return fmt::format("instead: nothing to change in these trials; {}", builtin);
  if (v.fenced.empty()) return fmt::format("instead: a fencing token checked by the store; {}", builtin);
  long money = 0, judged = 0;
  for (const FaultVerdict& f : v.faults) {
    if (f.client.money == 0 || !f.fenced) continue;
    money += f.fenced->money;
    judged += f.fenced->judged;
  }
  std::string fenced =
      money == 0
          ? fmt::format("{} lost no money under them ({}, {})", v.fenced, trials_text(judged), interval(0, judged))
          : fmt::format("{} lost money too, {} of {} under them", v.fenced, money, trials_text(judged));
  return fmt::format("instead: {}; {}", fenced, builtin);
}

std::string verdict_line(const LibraryVerdict& v) {
  if (v.money_lost()) return fmt::format("verdict: {} loses money under {}", v.client, v.money_faults());
  std::vector<std::string> liveness;
  for (const FaultVerdict& f : v.faults) {
    if (f.client.liveness > 0) liveness.push_back(fault_label(f));
  }
  if (!liveness.empty()) {
    return fmt::format("verdict: {} lost no money; increments stuck or none succeeding under {}", v.client,
                       join(liveness));
  }
  return fmt::format("verdict: {} lost nothing in {} under {} faults", v.client, trials_text(judged_trials(v)),
                     v.faults.size());
}

std::string scenario_line(const ScenarioVerdict& s) {
  return fmt::format("scenario {} ({}): {}", s.name, s.fault, scenario::verdict_line(s.tallies));
}

void print_verdict(const LibraryVerdict& v, const JudgedSetup& setup) {
  fmt::print("\nrlock judge {}{}: {} faults, {} each, TTL {} ms{}, seed {}\n", v.client,
             setup.library.empty() ? "" : " (" + setup.library + ")", v.faults.size(), runs_text(setup), setup.ttl_ms,
             setup.ttl_step_ms > 1 ? " (" + ttl_unit(setup.ttl_step_ms) + ")" : "", setup.seed);
  std::size_t width = v.client.size(), label = 16;
  for (const FaultVerdict& f : v.faults) {
    width = std::max(width, tally_text(f.client).size());
    label = std::max(label, fault_label(f).size() + 2);
  }
  auto row = [&](std::string_view fault, const std::string& client, const std::string& fenced) {
    if (fenced.empty()) return fmt::print("{:<{}}{}\n", fault, label, client);
    fmt::print("{:<{}}{:<{}}{}\n", fault, label, client, width + 3, fenced);
  };
  row("fault", v.client, v.fenced);
  for (const FaultVerdict& f : v.faults)
    row(fault_label(f), tally_text(f.client), f.fenced ? tally_text(*f.fenced) : "");
  for (const ScenarioVerdict& s : v.scenarios) fmt::print("{}\n", scenario_line(s));
  for (const std::string& s : v.other_scenarios) fmt::print("scenario {}: not of the version judged\n", s);
  fmt::print("{}\n{}\n", instead_text(v), verdict_line(v));
}

void check_verdict(const LibraryVerdict& v) {
  if (v.money_lost()) throw MoneyLost(fmt::format("judge: {} lost money under {}", v.client, v.money_faults()));
  if (v.liveness_lost()) throw LivenessLost(fmt::format("judge: {} lost liveness, not money", v.client));
}

}  // namespace rlock::card
