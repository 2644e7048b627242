// A lab run in the report: its log (sorted as `rlock showlog` prints it), its verdict and its
// timeline, drawn from the events.jsonl of a data directory (or of a chaos trial kept as one).
// Reads files only; thread-safe.
#pragma once

#include <string>
#include <string_view>

#include "lab/log_dir.h"
#include "lab/wording.h"

namespace rlock::report {

// The run's timeline as an inline SVG in a <figure id="id"> with `caption` (HTML) under it. Throws
// rlock::Error when the directory holds no events.
std::string timeline_figure(const lab::LogDir& dir, std::string_view title, std::string_view caption, lab::Lang lang,
                            std::string_view id);

// The lab run's <section id="id">. Throws rlock::Error when the directory holds no events.
std::string lab_section(const lab::LogDir& dir, lab::Lang lang, std::string_view id);

}  // namespace rlock::report
