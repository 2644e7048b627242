#include "report/chaos_report.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "lab/log_dir.h"
#include "lab/run_log.h"
#include "report/lab_report.h"
#include "report/page.h"
#include "report/words.h"
#include "rlock/error.h"

namespace rlock::report {
namespace {

// The cell's column: its fault, and a failover of one Redis is two, the replica lagging and in sync.
std::string column(const results::ChaosFileCell& c) {
  if (c.replica.empty()) return c.fault;
  return c.fault + (c.replica == "lagging" ? "/lag" : "/sync");
}

// The cells' names of `name_of` in first-seen order.
template <typename NameOf>
std::vector<std::string> names(const std::vector<results::ChaosFileCell>& cells, NameOf name_of) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (const results::ChaosFileCell& c : cells) {
    if (seen.insert(name_of(c)).second) out.push_back(name_of(c));
  }
  return out;
}

// The first cell of each row and column.
using CellIndex = std::map<std::pair<std::string, std::string>, const results::ChaosFileCell*>;
CellIndex index_cells(const std::vector<results::ChaosFileCell>& cells) {
  CellIndex index;
  for (const results::ChaosFileCell& c : cells) index.emplace(std::pair(c.strategy, column(c)), &c);
  return index;
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

std::string cell_id(std::string_view id, const results::ChaosFileCell& c) {
  return fmt::format("{}-{}-{}", id, c.strategy, column(c));
}

// A cell with kept trials links to where they are drawn: its own section, or the row's shortest loss.
std::string matrix_cell(const results::ChaosFileCell* c, lab::Lang lang, std::string_view id, Timelines timelines) {
  if (c == nullptr) return fmt::format("<td class=\"none\">{}</td>", say(words::kNotRun, lang));
  if (c->trials == 0) return fmt::format("<td class=\"none\">{}</td>", say(words::kNotApplicable, lang));
  std::string text = fmt::format("{} / {}{}<br>{}<br>[{}, {}]", c->anomalies, c->trials, c->expected_safe ? " †" : "",
                                 percent(c->rate), percent(c->ci_low), percent(c->ci_high));
  std::string drawn = timelines == Timelines::first_of_each_cell ? cell_id(id, *c) : fmt::format("{}-shortest", id);
  if (!c->kept_trials.empty()) text = fmt::format("<a href=\"#{}\">{}</a>", url_fragment(drawn), text);
  return fmt::format("<td{} style=\"background:{};color:{}\">{}</td>",
                     c->expected_safe && c->anomalies > 0 ? " class=\"broken\"" : "", heat_colour(c->rate),
                     text_colour(c->rate), text);
}

std::string matrix(const ChaosRun& run, lab::Lang lang, std::string_view id, Timelines timelines) {
  const std::vector<results::ChaosFileCell>& cells = run.table.cells;
  std::vector<std::string> strategies = names(cells, [](const results::ChaosFileCell& c) { return c.strategy; });
  std::vector<std::string> faults = names(cells, column);
  std::string html = fmt::format("<p>{}</p>\n<table class=\"heat\" id=\"{}-matrix\">\n<tr><th>{}</th>",
                                 say(words::kMatrix, lang), id, say(words::kStrategyFault, lang));
  for (const std::string& f : faults) html += fmt::format("<th scope=\"col\">{}</th>", html_escape(f));
  html += "</tr>\n";
  CellIndex index = index_cells(cells);
  for (const std::string& s : strategies) {
    html += fmt::format("<tr><th scope=\"row\">{}</th>", html_escape(s));
    for (const std::string& f : faults) {
      auto found = index.find(std::pair(s, f));
      html += matrix_cell(found == index.end() ? nullptr : found->second, lang, id, timelines);
    }
    html += "</tr>\n";
  }
  return html + "</table>\n";
}

std::string legend(lab::Lang lang) {
  std::string html = fmt::format("<p class=\"scale\">{} ", say(words::kLegend, lang));
  for (double rate : {0.0, 0.01, 0.25, 0.5, 0.75, 1.0}) {
    html += fmt::format("<span style=\"background:{};color:{}\">{}</span>", heat_colour(rate), text_colour(rate),
                        percent(rate));
  }
  return html + fmt::format("</p>\n<p>{}<br>{}</p>\n", say(words::kExpectedSafe, lang), say(words::kBroken, lang));
}

std::string settings(const ChaosRun& run, lab::Lang lang) {
  std::vector<std::pair<std::string, std::string>> items{
      {say(words::kSeed, lang), std::to_string(run.table.seed)},
      {say(words::kTtl, lang), fmt::format("{} ms", run.table.ttl_ms)},
      {say(words::kTrialsACell, lang), std::to_string(run.table.trials_per_cell)},
      {say(words::kWait, lang), html_escape(run.table.wait)}};
  return meta_list(items);
}

std::string kept_cell(const ChaosRun& run, const results::ChaosFileCell& c, lab::Lang lang, std::string_view id) {
  std::string html = fmt::format("<section id=\"{}\">\n<h3>{}</h3>\n", html_escape(cell_id(id, c)),
                                 say(words::kCell, lang, {{"strategy", c.strategy}, {"fault", column(c)}}));
  std::vector<std::pair<std::string, std::string>> figures{
      {say(words::kTrials, lang), std::to_string(c.trials)},
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
      {say(words::kMedianTrial, lang), fmt::format("{:.0f} ms", c.median_trial_ms)}};
  if (c.client) {
    figures.insert(figures.begin() + 4, {{say(words::kCreated, lang), std::to_string(c.created)},
                                         {say(words::kMoneyCreated, lang), std::to_string(c.created_amount)},
                                         {say(words::kUnwritten, lang), std::to_string(c.unwritten)}});
  }
  html += figures_table(figures);
  const std::filesystem::path& trials = run.trials;
  std::string more;
  for (std::size_t i = 0; i < c.kept_trials.size(); ++i) {
    // A kept trial's directory is ROW-FAULT-N, a failover's whichever half of the cell it is in.
    std::string name = fmt::format("{}-{}-{}", c.strategy, c.fault, c.kept_trials[i]);
    if (i >= kTimelinesACell) {
      more += (more.empty() ? "" : ", ") + name;
      continue;
    }
    lab::LogDir trial(trials / name);
    if (!run.kept.contains(name) || !std::filesystem::exists(trial.events())) {
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

// The time a kept trial's events span, or nullopt when they cannot be read.
std::optional<double> span_of(const lab::LogDir& trial) {
  try {
    std::vector<lab::Event> events = lab::read_events(trial);
    auto [first, last] = std::minmax_element(events.begin(), events.end(),
                                             [](const lab::Event& a, const lab::Event& b) { return a.t < b.t; });
    return last->t - first->t;
  } catch (const Error&) {
    return std::nullopt;
  }
}

// For each row in the table's order, its shortest loss drawn; the rows with none named in one line.
std::string shortest_losses(const ChaosRun& run, lab::Lang lang, std::string_view id) {
  std::string html = fmt::format("<section id=\"{}-shortest\">\n<h3>{}</h3>\n", id, say(words::kShortestLosses, lang));
  std::string without;
  for (const std::string& row : names(run.table.cells, [](const results::ChaosFileCell& c) { return c.strategy; })) {
    std::optional<std::pair<double, std::string>> shortest;
    for (const results::ChaosFileCell& c : run.table.cells) {
      if (c.strategy != row || c.lost_updates == 0) continue;
      for (const std::string& number : c.kept_trials) {
        std::string name = fmt::format("{}-{}-{}", c.strategy, c.fault, number);
        if (!run.kept.contains(name)) continue;
        std::optional<double> span = span_of(lab::LogDir(run.trials / name));
        if (span && (!shortest || *span < shortest->first)) shortest = std::pair(*span, name);
      }
    }
    if (!shortest) {
      without += (without.empty() ? "" : ", ") + row;
      continue;
    }
    lab::LogDir trial(run.trials / shortest->second);
    // Raw: the timeline escapes its title.
    std::string title = lab::fill_wording(
        words::kShortestLoss, lang,
        {{"row", row}, {"trial", shortest->second}, {"seconds", fmt::format("{:.2f}", shortest->first)}});
    html += timeline_figure(trial, title, say(words::kKeptTrial, lang, {{"trial", trial.root().string()}}), lang,
                            fmt::format("{}-shortest-{}", id, row));
  }
  if (!without.empty()) html += fmt::format("<p>{}</p>\n", say(words::kNoLoss, lang, {{"rows", without}}));
  return html + "</section>\n";
}

}  // namespace

ChaosRun read_chaos_run(const std::filesystem::path& dir) {
  std::filesystem::path trials = std::filesystem::exists(dir / "trials") ? dir / "trials" : dir / "chaos" / "trials";
  ChaosRun run{dir, trials, results::read_chaos_file(dir / "chaos.json"), {}};
  std::size_t rows = names(run.table.cells, [](const results::ChaosFileCell& c) { return c.strategy; }).size();
  std::size_t columns = names(run.table.cells, column).size();
  if (rows * columns > 2 * run.table.cells.size() + rows) {
    throw Error(fmt::format("{} is not a campaign's table: its {} cells leave most of {} rows by {} columns empty",
                            (dir / "chaos.json").string(), run.table.cells.size(), rows, columns));
  }
  std::error_code ec;
  for (std::filesystem::directory_iterator it(trials, ec), end; !ec && it != end; it.increment(ec)) {
    run.kept.insert(it->path().filename().string());
  }
  return run;
}

std::string chaos_section(const ChaosRun& run, lab::Lang lang, std::string_view id, Timelines timelines) {
  std::string html =
      fmt::format("<section id=\"{}\">\n<h2>{}</h2>\n", id, say(words::kChaosRun, lang, {{"dir", run.dir.string()}}));
  html += settings(run, lang) + matrix(run, lang, id, timelines) + legend(lang);
  if (timelines == Timelines::shortest_loss_of_each_row) return html + shortest_losses(run, lang, id) + "</section>\n";
  for (const results::ChaosFileCell& c : run.table.cells) {
    if (!c.kept_trials.empty()) html += kept_cell(run, c, lang, id);
  }
  return html + "</section>\n";
}

}  // namespace rlock::report
