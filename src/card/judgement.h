// `rlock judge` on the servers: the subject's client, and its fenced variant beside it, under each
// fault that applies, as one chaos campaign a topology, each kept as a run (store/run_record.h, with
// its chaos.json for `rlock report` and `rlock analyze`), then the scenarios written for it (a run each, as
// `rlock scenario` keeps them), then its verdict (verdict.h) printed and its card (card_page.h)
// written. Runs in the calling process, which must have no other threads (the
// campaign forks).
#pragma once

#include <filesystem>
#include <optional>
#include <vector>

#include "card/subject.h"
#include "card/verdict.h"
#include "chaos/campaign.h"
#include "lab/wording.h"

namespace rlock::card {

struct JudgeRequest {
  Subject subject;
  std::vector<JudgedTopology> topologies;  // each a campaign of its own, kept as a run
  int trials = 0;                          // a fault, for the client and for its fenced variant each
  int jobs = 0;
  std::optional<std::filesystem::path> card;  // empty: card.html in the run's directory
  chaos::Workload workload{};                 // trials as histories, when it says so (chaos/workload.h)
};

struct Judgement {
  LibraryVerdict verdict;
  std::vector<std::filesystem::path> run_dirs;  // a topology's each, in the request's order
  std::filesystem::path card;
};

// The campaign, on `setup` (its TTL the subject's, its run_dir unset), its verdict on stdout, the
// card written. Throws as chaos::run_campaign does (HarnessLost, Interrupted); Error when no trial
// was judged, or when the card cannot be written.
Judgement run_judgement(const JudgeRequest& request, chaos::ChaosSetup setup, lab::Lang lang);

}  // namespace rlock::card
