#include "report/chaos_report.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "lab/lab_dir.h"
#include "report/lab_report.h"
#include "report/page.h"
#include "report/words.h"

namespace rlock {
namespace {

// The fault's column: a failover of one Redis is two, the replica lagging and in sync.
std::string fault_of(const nlohmann::json& j) {
  std::string fault = j.at("fault").get<std::string>();
  if (!j.contains("replica")) return fault;
  return fault + (j["replica"] == "lagging" ? "/lag" : "/sync");
}

ChaosCell cell_from(const nlohmann::json& j) {
  return ChaosCell{j.at("strategy").get<std::string>(),
                   fault_of(j),
                   j.at("expected_safe").get<bool>(),
                   j.at("trials").get<long>(),
                   j.at("anomalies").get<long>(),
                   j.at("lost_updates").get<long>(),
                   j.at("lost_amount").get<long long>(),
                   j.at("overlaps").get<long>(),
                   j.at("failed").get<long>(),
                   j.at("dropped_amount").get<long long>(),
                   j.value("unknown", 0L),
                   j.value("stuck", 0L),
                   j.value("struck", 0L),
                   j.value("not_run", 0L),
                   j.at("rate").get<double>(),
                   j.at("ci_low").get<double>(),
                   j.at("ci_high").get<double>(),
                   j.at("median_trial_ms").get<double>(),
                   j.at("kept_trials").get<std::vector<std::string>>()};
}

// A command line stored as one string or as its arguments.
std::string command_of(const nlohmann::json& j) {
  if (!j.contains("command")) return "";
  if (j["command"].is_string()) return j["command"].get<std::string>();
  std::string line;
  for (const auto& arg : j["command"]) line += (line.empty() ? "" : " ") + arg.get<std::string>();
  return line;
}

// Names in first-seen order.
std::vector<std::string> names(const std::vector<ChaosCell>& cells, std::string ChaosCell::*field) {
  std::vector<std::string> out;
  for (const ChaosCell& c : cells) {
    if (std::find(out.begin(), out.end(), c.*field) == out.end()) out.push_back(c.*field);
  }
  return out;
}

// From light grey (no anomaly) to dark red (every trial), darker with the rate so that a greyscale
// print keeps the order; any anomaly at all is visibly darker than none.
std::string heat_colour(double rate) {
  double t = rate > 0 ? 0.15 + 0.85 * std::clamp(rate, 0.0, 1.0) : 0;
  auto mix = [t](int from, int to) { return static_cast<int>(std::lround(from + (to - from) * t)); };
  return fmt::format("#{:02x}{:02x}{:02x}", mix(0xf4, 0xa5), mix(0xf4, 0x0f), mix(0xf4, 0x15));
}

std::string text_colour(double rate) { return rate > 0.4 ? "#fff" : "#222"; }

std::string percent(double fraction) { return fmt::format("{:.0f}%", fraction * 100); }

std::string cell_id(std::string_view id, const ChaosCell& c) {
  return fmt::format("{}-{}-{}", id, c.strategy, c.fault);
}

std::string matrix_cell(const ChaosCell* c, Lang lang, std::string_view id) {
  if (c == nullptr) return fmt::format("<td class=\"none\">{}</td>", say(words::kNotRun, lang));
  if (c->trials == 0) return fmt::format("<td class=\"none\">{}</td>", say(words::kNotApplicable, lang));
  std::string text = fmt::format("{} / {}{}<br>{}<br>[{}, {}]", c->anomalies, c->trials, c->expected_safe ? " †" : "",
                                 percent(c->rate), percent(c->ci_low), percent(c->ci_high));
  if (!c->kept_trials.empty()) text = fmt::format("<a href=\"#{}\">{}</a>", cell_id(id, *c), text);
  return fmt::format("<td{} style=\"background:{};color:{}\">{}</td>",
                     c->expected_safe && c->anomalies > 0 ? " class=\"broken\"" : "", heat_colour(c->rate),
                     text_colour(c->rate), text);
}

std::string matrix(const ChaosRun& run, Lang lang, std::string_view id) {
  std::vector<std::string> strategies = names(run.cells, &ChaosCell::strategy);
  std::vector<std::string> faults = names(run.cells, &ChaosCell::fault);
  std::string html = fmt::format("<p>{}</p>\n<table class=\"heat\" id=\"{}-matrix\">\n<tr><th>{}</th>",
                                 say(words::kMatrix, lang), id, say(words::kStrategyFault, lang));
  for (const std::string& f : faults) html += fmt::format("<th scope=\"col\">{}</th>", html_escape(f));
  html += "</tr>\n";
  for (const std::string& s : strategies) {
    html += fmt::format("<tr><th scope=\"row\">{}</th>", html_escape(s));
    for (const std::string& f : faults) {
      auto found = std::find_if(run.cells.begin(), run.cells.end(),
                                [&](const ChaosCell& c) { return c.strategy == s && c.fault == f; });
      html += matrix_cell(found == run.cells.end() ? nullptr : &*found, lang, id);
    }
    html += "</tr>\n";
  }
  return html + "</table>\n";
}

std::string legend(Lang lang) {
  std::string html = fmt::format("<p class=\"scale\">{} ", say(words::kLegend, lang));
  for (double rate : {0.0, 0.01, 0.25, 0.5, 0.75, 1.0}) {
    html += fmt::format("<span style=\"background:{};color:{}\">{}</span>", heat_colour(rate), text_colour(rate),
                        percent(rate));
  }
  return html + fmt::format("</p>\n<p>{}<br>{}</p>\n", say(words::kExpectedSafe, lang), say(words::kBroken, lang));
}

std::string settings(const ChaosRun& run, Lang lang) {
  std::vector<std::pair<std::string, std::string>> items{
      {say(words::kSeed, lang), std::to_string(run.seed)},
      {say(words::kTtl, lang), fmt::format("{} ms", run.ttl_ms)},
      {say(words::kTrialsACell, lang), std::to_string(run.trials_per_cell)},
      {say(words::kWait, lang), html_escape(run.wait)}};
  if (!run.command.empty())
    items.emplace_back(say(words::kCommand, lang), fmt::format("<code>{}</code>", html_escape(run.command)));
  for (const auto& [name, value] : run.env.items())
    items.emplace_back(html_escape(name), html_escape(json_text(value)));
  return meta_list(items);
}

std::string kept_cell(const ChaosRun& run, const ChaosCell& c, Lang lang, std::string_view id) {
  std::string html = fmt::format("<section id=\"{}\">\n<h3>{}</h3>\n", cell_id(id, c),
                                 say(words::kCell, lang, {{"strategy", c.strategy}, {"fault", c.fault}}));
  html += figures_table({{say(words::kTrials, lang), std::to_string(c.trials)},
                         {say(words::kAnomalies, lang), std::to_string(c.anomalies)},
                         {say(words::kLostUpdates, lang), std::to_string(c.lost_updates)},
                         {say(words::kMoneyLost, lang), std::to_string(c.lost_amount)},
                         {say(words::kOverlaps, lang), std::to_string(c.overlaps)},
                         {say(words::kFailed, lang), std::to_string(c.failed)},
                         {say(words::kDropped, lang), std::to_string(c.dropped_amount)},
                         {say(words::kUnknown, lang), std::to_string(c.unknown)},
                         {say(words::kStuck, lang), std::to_string(c.stuck)},
                         {say(words::kStruck, lang), std::to_string(c.struck)},
                         {say(words::kTrialsNotRun, lang), std::to_string(c.not_run)},
                         {say(words::kRate, lang), percent(c.rate)},
                         {say(words::kInterval, lang), fmt::format("[{}, {}]", percent(c.ci_low), percent(c.ci_high))},
                         {say(words::kMedianTrial, lang), fmt::format("{:.0f} ms", c.median_trial_ms)}});
  const std::filesystem::path& trials = run.trials;
  std::string more;
  for (std::size_t i = 0; i < c.kept_trials.size(); ++i) {
    std::string name = fmt::format("{}-{}-{}", c.strategy, c.fault, c.kept_trials[i]);
    if (i >= kTimelinesACell) {
      more += (more.empty() ? "" : ", ") + name;
      continue;
    }
    LabDir trial(trials / name);
    if (!std::filesystem::exists(trial.events())) {
      html += fmt::format("<p>{}</p>\n", say(words::kNotKept, lang, {{"trial", name}, {"dir", trials.string()}}));
      continue;
    }
    html += timeline_figure(trial, name, say(words::kKeptTrial, lang, {{"trial", trial.root().string()}}), lang,
                            fmt::format("{}-{}", cell_id(id, c), c.kept_trials[i]));
  }
  if (!more.empty()) {
    html += fmt::format(
        "<p>{}</p>\n",
        say(words::kMoreKept, lang,
            {{"count", c.kept_trials.size() - kTimelinesACell}, {"dir", trials.string()}, {"trials", more}}));
  }
  return html + "</section>\n";
}

}  // namespace

ChaosRun read_chaos_run(const std::filesystem::path& dir) {
  return parse_run_json(dir / "chaos.json", "a chaos run's table", [&](const nlohmann::json& j) {
    std::filesystem::path trials = std::filesystem::exists(dir / "trials") ? dir / "trials" : dir / "chaos" / "trials";
    ChaosRun run{dir,
                 trials,
                 j.at("seed").get<std::uint64_t>(),
                 j.at("ttl_ms").get<long>(),
                 j.at("trials_per_cell").get<long>(),
                 j.at("wait").get<std::string>(),
                 command_of(j),
                 j.value("env", nlohmann::json::object()),
                 {}};
    for (const nlohmann::json& c : j.at("cells")) run.cells.push_back(cell_from(c));
    return run;
  });
}

std::string chaos_section(const ChaosRun& run, Lang lang, std::string_view id) {
  std::string html =
      fmt::format("<section id=\"{}\">\n<h2>{}</h2>\n", id, say(words::kChaosRun, lang, {{"dir", run.dir.string()}}));
  html += settings(run, lang) + matrix(run, lang, id) + legend(lang);
  for (const ChaosCell& c : run.cells) {
    if (!c.kept_trials.empty()) html += kept_cell(run, c, lang, id);
  }
  return html + "</section>\n";
}

}  // namespace rlock
