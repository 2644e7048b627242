// A scenario: one reported failure of a lock library, as one file `scenarios/NAME.json` (docs/scenarios.md,
// docs/schemas/scenario.schema.json): the report it replays, the catalogue client and the versions of
// its library it is judged at, what makes it happen (one chaos fault struck in one-increment
// trials, or a history: workers that lock again and again under a nemesis schedule that names the
// worker, step and increment of each operation), the TTL and workers, the trials a version, the
// losses that count as the failure, the report's sequence in words, and how faithfully it replays
// the report (and, where not wholly, what differs and why).
//
// The file is untrusted bytes: read_scenario checks every field (type, range, known names) and
// refuses anything else in one line naming the field. Plain values and pure functions; thread-safe.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "chaos/chaos.h"
#include "chaos/workload.h"
#include "checker/classification.h"
#include "checker/judge.h"

namespace rlock::scenario {

// 1: format, name, report, client, versions, fault, ttl_ms, workers, trials, loss, sequence.
// 2: and history (with no fault beside it), fidelity and, unless it replays, differs; files of
// format 1 are read too.
inline constexpr int kScenarioFileFormat = 2;
inline constexpr std::size_t kMaxScenarioFileBytes = 64 << 10;
inline constexpr int kMaxVersions = 16;
inline constexpr int kMinWorkers = 2, kMaxWorkers = 4;  // as many as a chaos trial draws; a history's: chaos's
inline constexpr int kMaxScenarioTrials = 1000;

struct Report {
  std::string url;     // https://...
  std::string title;   // as its tracker shows it
  std::string claims;  // what it says happens, one sentence
};

// A scenario's trials as histories (chaos/workload.h): the workload (its workers the scenario's)
// and the schedule its operations follow.
struct ScenarioHistory {
  chaos::Workload workload;
  chaos::NemesisSchedule nemesis;
};

// How much of its report a scenario replays: all of its sequence, part of it, or none of it (a
// cause substituted, a topology or a fault rlock has not).
enum class Fidelity { unstated, replays, partly, not_replayed };

struct Scenario {
  std::string name;  // also the file's name: NAME.json
  Report report;
  std::string client;                      // a catalogue name, without a version
  std::vector<std::string> versions;       // the reported-against first, the newest last; each with a dot
  chaos::Fault fault;                      // a history's: its schedule's first, the row chaos's table shows
  std::optional<ScenarioHistory> history;  // none: one-increment trials under `fault`
  long ttl_ms = 0;
  int workers = 0;
  int trials = 0;                   // the default of --trials, a version
  std::vector<checker::Loss> loss;  // what counts as the failure: a trial that shows one (showed_loss)
  std::vector<std::string> sequence;
  Fidelity fidelity = Fidelity::unstated;              // unstated in files of format 1
  std::string differs;                                 // what it does not replay and why; empty when it replays
  chaos::Topology topology = chaos::Topology::single;  // format 2: where its versions run (chaos --topology)
};

// "replays", "partly", "not replayed"; "unstated".
std::string_view to_string(Fidelity fidelity);

// The scenario in `text`. Throws Error, in one line naming the field and what is wrong with it
// ("ttl_ms is 5, not an integer from 20 to 60000"), for text that is not a JSON object of
// kScenarioFileFormat, over kMaxScenarioFileBytes, a field missing, of the wrong type or out of its
// range, an unknown fault or loss, a name given twice, a field the format does not define, both or
// neither of fault and history, or a history's schedule that chaos's --nemesis would refuse.
Scenario read_scenario(std::string_view text);

// The faults that strike in the scenario: its fault, or its history's operations in the
// schedule's order, each once.
std::vector<chaos::Fault> scenario_faults(const Scenario& scenario);
// Those faults as its listing shows them: "pause-waiter", "lost-reply+slow".
std::string strikes_text(const Scenario& scenario);

// Whether the trial showed one of `losses`, as checker/classification.h classifies it (a trial
// not judged shows none but a client's error).
bool showed_loss(const checker::TrialResult& trial, const std::vector<checker::Loss>& losses);

}  // namespace rlock::scenario
