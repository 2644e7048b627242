#include "report/report.h"

#include <fmt/format.h>

#include "lab/log_dir.h"
#include "report/bench_report.h"
#include "report/chaos_report.h"
#include "report/lab_report.h"
#include "report/page.h"
#include "report/words.h"
#include "rlock/error.h"

namespace rlock::report {

RunKind run_kind(const std::filesystem::path& dir) {
  if (std::filesystem::exists(dir / "chaos.json")) return RunKind::chaos;
  if (std::filesystem::exists(dir / "bench.json")) return RunKind::bench;
  if (std::filesystem::exists(lab::LogDir(dir).events())) return RunKind::lab;
  throw Error(fmt::format("{} holds no run: no chaos.json, bench.json or events.jsonl", dir.string()));
}

std::string report_html(const std::vector<std::filesystem::path>& dirs, lab::Lang lang, Timelines timelines) {
  std::vector<std::string> sections;
  for (const std::filesystem::path& dir : dirs) {
    std::string id = fmt::format("run{}", sections.size() + 1);
    switch (run_kind(dir)) {
      case RunKind::chaos: sections.push_back(chaos_section(read_chaos_run(dir), lang, id, timelines)); break;
      case RunKind::bench: sections.push_back(bench_section(read_bench_run(dir), lang, id)); break;
      case RunKind::lab: sections.push_back(lab_section(lab::LogDir(dir), lang, id)); break;
    }
  }
  std::string title = dirs.size() == 1 ? lab::fill_wording(words::kReportOf, lang, {{"dir", dirs.front().string()}})
                                       : lab::fill_wording(words::kReport, lang, {});
  return html_page(title, lang, sections);
}

void write_report(const std::vector<std::filesystem::path>& dirs, const std::filesystem::path& out, lab::Lang lang,
                  Timelines timelines) {
  std::string html = report_html(dirs, lang, timelines);
  lab::LogDir(out.parent_path()).write_file(out, html);
}

}  // namespace rlock::report
