// The page of a run that chaos or merge just stored: report.html beside its chaos.json, its path
// said on stderr. A page that cannot be written costs the run nothing else: one line says why.
// Header-only (the CLI's files are compiled in unity batches). Writes one file; thread-safe.
#pragma once

#include <filesystem>
#include <string_view>

#include <fmt/format.h>

#include "cli/global_options.h"
#include "lab/wording.h"
#include "report/report.h"
#include "rlock/error.h"

namespace rlock::cli {

// `command` names the subcommand in the line it prints ("chaos: report: PATH").
inline void write_run_report(const std::filesystem::path& run_dir, const GlobalOptions& global,
                             std::string_view command) {
  try {
    report::write_report({run_dir}, run_dir / "report.html", lab::parse_lang(global.lang));
    fmt::print(stderr, "{}: report: {}\n", command, (run_dir / "report.html").string());
  } catch (const Error& e) {
    fmt::print(stderr, "{}: no report: {}\n", command, e.what());
  }
}

}  // namespace rlock::cli
