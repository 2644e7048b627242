// What a judged trial showed, named once for every reader: the table and chaos.json (tally.h),
// `rlock judge`'s verdict and card (card/verdict.h) and the scenarios (scenario/scenario_file.h)
// all classify a TrialResult here and count what it says, so that a trial lost, failed safely or
// left unjudged means the same in each of them.
//
//   judged         it ran, and what the harness served can be judged: a trial that ends in a
//                  client's error is judged too once the harness applied or refused a write of it
//   money          a lost update, money created, two holders' overlapping sections, a stale fence,
//                  an increment reported done and never written, or a checker that could not decide
//   liveness       no money lost, but an increment stuck past the trial's end, or none succeeding
//                  (a history's: none of those sent after the last heal; not for a trial a
//                  client's error ended: the harness ended it there)
//   failed safely  no money lost, progress made, and some increments failed and said so (a stale
//                  holder refused by a fence: the fence working)
//
// Plain values and pure functions; thread-safe.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "checker/judge.h"

namespace rlock::checker {

// What a trial cost the service, worst first: money, else liveness, else nothing.
enum class Harm { none, liveness, money };

// One way a trial can go wrong, as scenario files name them (lost-update, overlap...).
enum class Loss { lost_update, overlap, created, unwritten, stuck, failed, client_error };
std::string_view to_string(Loss loss);
std::optional<Loss> loss_from(std::string_view name);
const std::vector<Loss>& all_losses();

struct Classification {
  bool judged = false;
  bool client_error = false;  // the client broke the protocol, judged or not
  // Money, from what the harness served or the database holds.
  bool lost_update = false;  // money missing
  bool created = false;      // money no increment added: a write applied twice
  bool overlap = false;      // two holders' read-to-write sections overlapped, both writing
  bool stale_fence = false;  // a write with a smaller token accepted after a larger one
  bool unwritten = false;    // an increment reported done with no write applied and no error
  bool undecided = false;    // a checker could not decide: never taken as valid
  // Liveness.
  bool stuck = false;        // an increment still running when the trial's time ran out
  bool no_progress = false;  // increments ended, and not one of them succeeded
  bool failed = false;       // an increment failed and said so

  Harm harm() const;
  bool failed_safely() const { return failed && harm() == Harm::none; }
  // Whether it shows `loss` (never for a trial not judged, but client_error).
  bool shows(Loss loss) const;
};

Classification classify(const TrialResult& result);

// A trial that lost money (Harm::money), as the table counts and keeps them.
bool anomaly(const TrialResult& result);

}  // namespace rlock::checker
