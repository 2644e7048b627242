// rlock report: one self-contained HTML5 page (inline CSS and SVG, no script, no network) from
// what rlock stored in one or more run directories:
//   a chaos run   DIR/chaos.json (`rlock chaos --json`), and its kept trials (chaos_report.h)
//   a bench run   DIR/bench.json (`rlock bench --json`) (bench_report.h)
//   a lab run     DIR/events.jsonl (the labs, `rlock reset` and workers) (lab_report.h)
// in English or Korean, printable on A4. Reads files and writes one; thread-safe.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "lab/wording.h"
#include "report/chaos_report.h"

namespace rlock::report {

enum class RunKind { chaos, bench, lab };

// What `dir` holds, looked for in that order. Throws rlock::Error when it holds no run.
RunKind run_kind(const std::filesystem::path& dir);

// The page for `dirs`, one section each, in order. Throws rlock::Error for a directory that holds
// no run, or a run this rlock cannot read (malformed, or of a newer format).
// `timelines` says which kept trials a chaos run's section draws (chaos_report.h).
std::string report_html(const std::vector<std::filesystem::path>& dirs, lab::Lang lang,
                        Timelines timelines = Timelines::first_of_each_cell);

// The page written to `out` through a temporary file in the same directory and a rename: `out` is
// either the whole page or untouched. Throws rlock::Error as report_html does, and when `out`
// cannot be written.
void write_report(const std::vector<std::filesystem::path>& dirs, const std::filesystem::path& out, lab::Lang lang,
                  Timelines timelines = Timelines::first_of_each_cell);

}  // namespace rlock::report
