// A scenario: one reported failure of a lock library, as one file `scenarios/NAME.json` (docs/scenarios.md,
// docs/schemas/scenario.schema.json): the report it replays, the catalogue client and the versions of
// its library it is judged at, the chaos fault and the TTL and workers that make it happen, the
// trials a version, the losses that count as the failure, and its sequence in words.
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
#include "checker/classification.h"
#include "checker/judge.h"

namespace rlock::scenario {

// 1: format, name, report, client, versions, fault, ttl_ms, workers, trials, loss, sequence.
inline constexpr int kScenarioFileFormat = 1;
inline constexpr std::size_t kMaxScenarioFileBytes = 64 << 10;
inline constexpr int kMaxVersions = 16;
inline constexpr int kMinWorkers = 2, kMaxWorkers = 4;  // as many as a chaos trial draws
inline constexpr int kMaxScenarioTrials = 1000;

struct Report {
  std::string url;     // https://...
  std::string title;   // as its tracker shows it
  std::string claims;  // what it says happens, one sentence
};

struct Scenario {
  std::string name;  // also the file's name: NAME.json
  Report report;
  std::string client;                 // a catalogue name, without a version
  std::vector<std::string> versions;  // the reported-against first, the newest last; each with a dot
  chaos::Fault fault;
  long ttl_ms = 0;
  int workers = 0;
  int trials = 0;                   // the default of --trials, a version
  std::vector<checker::Loss> loss;  // what counts as the failure: a trial that shows one (showed_loss)
  std::vector<std::string> sequence;
};

// The scenario in `text`. Throws Error, in one line naming the field and what is wrong with it
// ("ttl_ms is 5, not an integer from 20 to 60000"), for text that is not a JSON object of
// kScenarioFileFormat, over kMaxScenarioFileBytes, a field missing, of the wrong type or out of its
// range, an unknown fault or loss, a name given twice, or a field the format does not define.
Scenario read_scenario(std::string_view text);

// Whether the trial showed one of `losses`, as checker/classification.h classifies it (a trial
// not judged shows none but a client's error).
bool showed_loss(const checker::TrialResult& trial, const std::vector<checker::Loss>& losses);

}  // namespace rlock::scenario
