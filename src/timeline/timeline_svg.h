// A run's timeline drawn as one self-contained SVG: no scripts, no external fonts or files.
//
// A title (the lab, and the verdict line with the final and the expected balance), a legend, one
// lane per worker and one for the host when it did anything, and a time axis in seconds since the
// run's start. Each mark is labelled with the event's log line in the chosen language; labels that
// would overlap go to the next row of their lane. All text is XML-escaped. The font is a generic
// list ending in sans-serif, with Noto Sans CJK first so that Korean renders where it is installed.
// Pure functions but write_timeline, which writes a file; thread-safe.
#pragma once

#include <filesystem>
#include <string>

#include "lab/log_dir.h"
#include "lab/wording.h"
#include "timeline/timeline.h"

namespace rlock::timeline {

// The font list the drawing names: Noto Sans CJK first, for Korean, down to sans-serif.
inline constexpr const char* kSvgFonts = "'Noto Sans CJK KR', 'Noto Sans CJK', 'Noto Sans', 'DejaVu Sans', sans-serif";

struct SvgOptions {
  std::string title;  // the lab's name
  lab::Lang lang = lab::Lang::en;
  int width = 960;  // pixels; the height follows from the lanes
};

std::string timeline_svg(const Timeline& timeline, const SvgOptions& options);

// Draws the run in `dir` and writes it to `out` through a temporary file and a rename. Throws
// rlock::Error when the run has no events or the file cannot be written.
void write_timeline(const lab::LogDir& dir, const std::filesystem::path& out, const SvgOptions& options);

}  // namespace rlock::timeline
