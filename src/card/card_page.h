// The library's card: one self-contained HTML page (report/page.h's: inline CSS and SVG, no script,
// no network) of a `rlock judge` verdict: the verdict line, what was judged, a row a fault with
// the client's tally and its fenced variant's, what to do instead, and the timeline of the
// client's shortest losing trial, drawn from the trial the run kept. Every text is escaped. The
// words are English; the timeline's log lines are in `lang`. Reads the kept trial's events and
// writes one file; thread-safe.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "card/verdict.h"
#include "lab/wording.h"

namespace rlock::card {

struct CardFacts {
  JudgedSetup setup;
  std::filesystem::path run_dir;                    // the campaign's stored run
  std::optional<std::filesystem::path> loss_trial;  // the shortest loss's kept trial directory
};

std::string card_html(const LibraryVerdict& verdict, const CardFacts& facts, lab::Lang lang);

// The page written to `out` through a temporary file and a rename. Throws rlock::Error when it
// cannot be written.
void write_card(const LibraryVerdict& verdict, const CardFacts& facts, lab::Lang lang,
                const std::filesystem::path& out);

}  // namespace rlock::card
