#include "card/card_page.h"

#include <fmt/format.h>

#include "lab/log_dir.h"
#include "report/lab_report.h"
#include "report/page.h"
#include "rlock/error.h"

namespace rlock::card {
namespace {

using report::html_escape;

std::string tally_cell(const std::optional<Tally>& tally) {
  if (!tally) return "<td></td>";
  const char* cls = tally->money > 0 ? "v-lost" : tally->liveness > 0 ? "" : "v-safe";
  return fmt::format("<td><span class=\"{}\">{}</span></td>", cls, html_escape(tally_text(*tally)));
}

std::string table(const LibraryVerdict& v) {
  std::string html =
      fmt::format("<table>\n<tr><th scope=\"col\">fault</th><th scope=\"col\">{}</th>{}</tr>\n", html_escape(v.client),
                  v.fenced.empty() ? "" : fmt::format("<th scope=\"col\">{}</th>", html_escape(v.fenced)));
  for (const FaultVerdict& f : v.faults) {
    html += fmt::format("<tr><th scope=\"row\">{}</th>{}{}</tr>\n", html_escape(fault_label(f)), tally_cell(f.client),
                        v.fenced.empty() ? "" : tally_cell(f.fenced));
  }
  return html + "</table>\n";
}

std::string shortest_loss(const LibraryVerdict& v, const CardFacts& facts, lab::Lang lang) {
  if (!v.shortest_loss) return "";
  const checker::TrialResult& loss = *v.shortest_loss;
  std::string heading = fmt::format("The shortest loss: {} under {}, trial {}, {:.1f} s", v.client,
                                    to_string(loss.spec.fault), loss.spec.number, loss.ms / 1000);
  std::string body;
  if (facts.loss_trial && std::filesystem::exists(lab::LogDir(*facts.loss_trial).events())) {
    std::string caption = fmt::format("kept in <code>{}</code>", html_escape(facts.loss_trial->string()));
    body = report::timeline_figure(lab::LogDir(*facts.loss_trial), facts.loss_trial->filename().string(), caption, lang,
                                   "shortest-loss-timeline");
  } else {
    body = "<p>Its trial was not kept: no timeline to draw.</p>\n";
  }
  return fmt::format("<section id=\"shortest-loss\">\n<h2>{}</h2>\n{}</section>\n", html_escape(heading), body);
}

// The scenarios' verdicts, each with its report's title; no address: the page names none.
std::string scenarios(const LibraryVerdict& v) {
  if (v.scenarios.empty() && v.other_scenarios.empty()) return "";
  std::string items;
  for (const ScenarioVerdict& s : v.scenarios) {
    items += fmt::format("<li><strong>{}</strong> ({}): {}</li>\n", html_escape(s.name), html_escape(s.title),
                         html_escape(scenario::verdict_line(s.tallies)));
  }
  for (const std::string& s : v.other_scenarios) {
    items += fmt::format("<li>{}: not of the version judged (<code>rlock scenario</code>)</li>\n", html_escape(s));
  }
  return fmt::format("<section id=\"scenarios\">\n<h2>Reported failures</h2>\n<ul>\n{}</ul>\n</section>\n", items);
}

}  // namespace

std::string card_html(const LibraryVerdict& v, const CardFacts& facts, lab::Lang lang) {
  const JudgedSetup& s = facts.setup;
  std::string ttl = fmt::format("{} ms{}", s.ttl_ms, s.ttl_step_ms > 1 ? " (" + ttl_unit(s.ttl_step_ms) + ")" : "");
  std::vector<std::pair<std::string, std::string>> meta{
      {"library", html_escape(s.library.empty() ? "one's own client" : s.library)},
      {"faults", html_escape(fmt::format("{}, {} each", v.faults.size(), runs_text(s)))},
      {"TTL", html_escape(ttl)},
      {"seed", html_escape(std::to_string(s.seed))},
      {"run", fmt::format("<code>{}</code> (<code>rlock report</code>, <code>rlock analyze</code>)",
                          html_escape(facts.run_dir.string()))}};
  std::string verdict =
      fmt::format("<section id=\"verdict\">\n<p class=\"{}\">{}</p>\n{}{}<p>{}</p>\n</section>\n",
                  v.money_lost()      ? "v-lost"
                  : v.liveness_lost() ? ""
                                      : "v-safe",
                  html_escape(verdict_line(v)), report::meta_list(meta), table(v), html_escape(instead_text(v)));
  return report::html_page(fmt::format("rlock judge {}", v.client), lang,
                           {verdict, scenarios(v), shortest_loss(v, facts, lang)});
}

void write_card(const LibraryVerdict& verdict, const CardFacts& facts, lab::Lang lang,
                const std::filesystem::path& out) {
  std::string html = card_html(verdict, facts, lang);
  std::filesystem::path dir = out.parent_path().empty() ? std::filesystem::path(".") : out.parent_path();
  lab::LogDir(dir).write_file(out, html);
}

}  // namespace rlock::card
