// The verdict of `rlock judge` on one lock client: per fault, how many of its judged trials lost
// money (lost updates, money created, two holders at once, a stale fence, an increment reported
// done that was never written) or, losing none, liveness (increments stuck past the trial's end,
// or none succeeding; a stale holder's increment refused while another succeeded is the fence
// working: failed safely, nothing lost), with the 95% Wilson interval, the same for its fenced variant beside it, the
// built-in strategies that keep the money under every fault where it lost some, its shortest
// losing trial, and the verdicts of the scenarios written for it (reported failures replayed at
// the version judged; they are shown, the exit status is the faults'). Printed as one screen (print_verdict) and drawn
// as the card (card_page.h). Plain values and pure functions but print_verdict, which writes stdout; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "card/subject.h"
#include "chaos/chaos.h"
#include "checker/judge.h"
#include "lab/strategy.h"
#include "rlock/error.h"
#include "scenario/scenario_run.h"

namespace rlock::card {

// One row's trials under one fault, counted as checker/classification.h classifies them. Every
// count but `judged` and `unjudged` counts judged trials.
struct Tally {
  long judged = 0;    // trials run and judged (a client's error after a served write among them)
  long unjudged = 0;  // trials not run, or in which nothing could be judged
  long money = 0;     // trials that lost money, any way
  long liveness = 0;  // trials that lost none but had an increment stuck, or none succeeding
  long lost = 0, created = 0, overlaps = 0, fences = 0, unwritten = 0, unknown = 0, stuck = 0, no_progress = 0;
  long failed_safely = 0;  // trials that lost nothing and made progress, with increments that failed and said so
  long client_errors = 0;  // judged trials that ended in the client's error
  // Histories' figures (checker/judge.h), summed; 0 for one-increment trials.
  long increments = 0, lost_increments = 0, faults_struck = 0, faults_followed_by_loss = 0;

  void add(const checker::TrialResult& result);
};

struct FaultVerdict {
  chaos::Fault fault;
  Tally client;
  std::optional<Tally> fenced;
  chaos::Topology topology = chaos::Topology::single;
};
// The row's name: its fault's, and on a cluster "pause on cluster".
std::string fault_label(const FaultVerdict& verdict);

// A scenario written for the client, run at the version judged.
struct ScenarioVerdict {
  std::string name;
  std::string title;  // the report's, as its tracker shows it
  std::string fault;
  std::vector<scenario::VersionTally> tallies;
};

struct LibraryVerdict {
  std::string client;  // the names of the rows
  std::string fenced;  // empty: no fenced variant
  std::vector<FaultVerdict> faults;
  // The client's money-losing trial that took the least time; nullopt when none lost money.
  std::optional<checker::TrialResult> shortest_loss;
  std::vector<ScenarioVerdict> scenarios;
  std::vector<std::string> other_scenarios;  // written for other versions: "NAME (3.4.3)"

  bool money_lost() const;     // by the client, under any fault
  bool liveness_lost() const;  // by the client, under any fault
  // The faults under which the client lost money, as "pause, partition".
  std::string money_faults() const;
};

// The verdict of `results` (a campaign of the client's row, and its fenced variant's, under `faults`,
// on `topology`).
LibraryVerdict verdict_of(const Subject& subject, const std::vector<chaos::Fault>& faults,
                          const std::vector<checker::TrialResult>& results,
                          chaos::Topology topology = chaos::Topology::single);

// The built-in strategies that lose no money under any of the faults the client lost money under
// (each expected safe under it, or the fault cannot touch it: chaos.h); every strategy expected
// safe under every fault when it lost none.
std::vector<lab::Strategy> safe_instead(const LibraryVerdict& verdict);

// A row's tally as the verdict says it: "money 2/3 (95% 21-94%): lost updates 2, two holders 1",
// "liveness 1/3 (95% 6-79%): stuck 1", "nothing lost 0/3 (95% 0-56%); failed safely 2",
// "not judged (3 trials not run or left by the client's error)"; of histories, their figures
// after it: "...; increments lost 12/60 (95% 12-32%), struck 6, 3 followed by a loss".
std::string tally_text(const Tally& tally);
// What to do instead, one sentence: the fenced variant's result where the client lost money, and
// the built-in strategies that keep it.
std::string instead_text(const LibraryVerdict& verdict);
// The verdict's last line: "NAME loses money under pause, partition", "NAME loses no money, ...".
std::string verdict_line(const LibraryVerdict& verdict);
// A scenario's line: "scenario etcd-11456 (pause-waiter): reproduces in 3.5.21 (1/2, 95% 9-91%)".
std::string scenario_line(const ScenarioVerdict& scenario);

// "1 trial", "2 trials": a count of trials as the verdict and the card say it.
std::string trials_text(long count);

// What was judged, for the verdict's first lines and the card.
struct JudgedSetup {
  std::string library;  // empty: one's own client
  long ttl_ms = 0;
  long ttl_step_ms = 1;
  int trials = 0;
  std::uint64_t seed = 0;
  chaos::Workload workload{};  // trials as histories, when it says so
};

// What each fault ran, as the verdict and the card say it: "10 trials", "2 histories of 3 workers
// x 20 increments", "1 history of 3 workers x 30 s".
std::string runs_text(const JudgedSetup& setup);

// The verdict on stdout, one screen: a header, a line per fault, what to do instead, the verdict.
void print_verdict(const LibraryVerdict& verdict, const JudgedSetup& setup);

// The client lost money (or two held the lock at once): `rlock judge` exits 3.
class MoneyLost : public Error {
 public:
  using Error::Error;
};
// The client lost no money but lost liveness (increments stuck, or none succeeding): exits 4.
class LivenessLost : public Error {
 public:
  using Error::Error;
};
// Throws MoneyLost or LivenessLost, in one line, as the verdict says; nothing when nothing was lost.
void check_verdict(const LibraryVerdict& verdict);

}  // namespace rlock::card
