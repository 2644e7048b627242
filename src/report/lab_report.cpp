#include "report/lab_report.h"

#include <fmt/format.h>

#include "lab/run_log.h"
#include "report/page.h"
#include "report/words.h"
#include "timeline/timeline_svg.h"

namespace rlock::report {
namespace {

std::string figure(const timeline::Timeline& timeline, std::string_view title, std::string_view caption, lab::Lang lang,
                   std::string_view id) {
  std::string svg = timeline::timeline_svg(timeline, timeline::SvgOptions{std::string(title), lang});
  std::string under = caption.empty() ? "" : fmt::format("<figcaption>{}</figcaption>\n", caption);
  return fmt::format("<figure id=\"{}\">\n{}{}</figure>\n", html_escape(id), svg, under);
}

}  // namespace

std::string timeline_figure(const lab::LogDir& dir, std::string_view title, std::string_view caption, lab::Lang lang,
                            std::string_view id) {
  return figure(timeline::build_timeline(lab::read_events(dir)), title, caption, lang, id);
}

std::string lab_section(const lab::LogDir& dir, lab::Lang lang, std::string_view id) {
  std::vector<lab::Event> events = lab::read_events(dir);
  timeline::Timeline timeline = timeline::build_timeline(events);
  lab::sort_by_time(events);
  std::string log;
  for (const lab::Event& event : events) log += html_escape(lab::format_line(event, lang)) + "\n";
  std::filesystem::path root = std::filesystem::absolute(dir.root()).lexically_normal();
  std::string name = (root.has_filename() ? root : root.parent_path()).filename().string();
  return fmt::format(
      "<section id=\"{0}\">\n<h2>{1}</h2>\n<p class=\"{2}\">{3}</p>\n<h3>{4}</h3>\n<pre>{5}</pre>\n<h3>{6}</h3>\n{7}"
      "</section>\n",
      id, say(words::kLabRun, lang, {{"dir", dir.root().string()}}),
      timeline.verdict.lost_update() ? "v-lost" : "v-safe", html_escape(timeline.verdict.line(lang)),
      say(words::kLog, lang), log, say(words::kTimeline, lang),
      figure(timeline, name, "", lang, fmt::format("{}-timeline", id)));
}

}  // namespace rlock::report
