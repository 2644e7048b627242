#include "report/bench_report.h"

#include <algorithm>

#include <fmt/format.h>

#include "report/page.h"
#include "report/words.h"
#include "timeline/timeline_svg.h"
#include "util/duration_text.h"

namespace rlock::report {
namespace {

constexpr double kWidth = 760, kNames = 130, kBarsWidth = 440, kRow = 15, kBar = 11, kGap = 12;

struct Bar {
  const lab::Wording& name;
  const char* fill;
  double results::BenchFileCase::*us;
};
const Bar kBarsDrawn[] = {{words::kFloor, "#9e9e9e", &results::BenchFileCase::floor_us},
                          {words::kMedian, "#2f5fb3", &results::BenchFileCase::median_us},
                          {words::kP99, "#a9c1ea", &results::BenchFileCase::p99_us}};

std::string bars(const BenchRun& run, lab::Lang lang) {
  std::string body;
  double x = kNames;
  for (const Bar& bar : kBarsDrawn) {  // the legend
    std::string label = say(bar.name, lang);
    body += fmt::format(
        "<rect x=\"{:.0f}\" y=\"6\" width=\"14\" height=\"{:.0f}\" fill=\"{}\" stroke=\"#555\"/>"
        "<text x=\"{:.0f}\" y=\"16\">{}</text>\n",
        x, kBar, bar.fill, x + 19, label);
    x += 100;
  }
  double y = 30;
  for (const results::BenchFileCase& c : run.file.cases) {
    double most = std::max({c.floor_us, c.median_us, c.p99_us, 1e-9});
    body +=
        fmt::format("<text x=\"4\" y=\"{:.0f}\" font-weight=\"bold\">{}</text>\n", y + kRow + 4, html_escape(c.name));
    for (const Bar& bar : kBarsDrawn) {
      double length = std::max(kBarsWidth * (c.*bar.us) / most, 1.0);
      body += fmt::format(
          "<rect x=\"{:.0f}\" y=\"{:.0f}\" width=\"{:.1f}\" height=\"{:.0f}\" fill=\"{}\" stroke=\"#555\"/>"
          "<text x=\"{:.1f}\" y=\"{:.0f}\">{} {}</text>\n",
          kNames, y, length, kBar, bar.fill, kNames + length + 6, y + kBar - 1, say(bar.name, lang),
          util::duration_text(c.*bar.us));
      y += kRow;
    }
    y += kGap;
  }
  return fmt::format(
      "<figure>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0:.0f}\" height=\"{1:.0f}\" "
      "viewBox=\"0 0 {0:.0f} {1:.0f}\" font-family=\"{2}\" font-size=\"12\" fill=\"#222\">\n"
      "<title>{3}</title>\n{4}</svg>\n<figcaption>{3}</figcaption>\n</figure>\n",
      kWidth, y, timeline::kSvgFonts, say(words::kBars, lang), body);
}

std::string details(const nlohmann::json& extra) {
  std::string text;
  for (const auto& [name, value] : extra.items()) {
    std::string shown = value.is_number_float() ? fmt::format("{:.3g}", value.get<double>()) : value.dump();
    text += fmt::format("{}{} {}", text.empty() ? "" : ", ", name, shown);
  }
  return html_escape(text);
}

std::string numbers(const BenchRun& run, lab::Lang lang) {
  std::string html = "<table>\n<tr>";
  for (const lab::Wording* w : {&words::kCase, &words::kSamples, &words::kMedian, &words::kP99, &words::kFloor,
                                &words::kRatio, &words::kDetails}) {
    html += fmt::format("<th scope=\"col\">{}</th>", say(*w, lang));
  }
  html += "</tr>\n";
  for (const results::BenchFileCase& c : run.file.cases) {
    html += fmt::format(
        "<tr><th scope=\"row\">{}</th><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
        "<td class=\"num\">{}</td><td class=\"num\">{:.2f}</td><td>{}</td></tr>\n",
        html_escape(c.name), c.samples, util::duration_text(c.median_us), util::duration_text(c.p99_us),
        util::duration_text(c.floor_us), c.ratio, details(c.extra));
  }
  return html + "</table>\n";
}

std::string price_of_safety(const BenchRun& run, lab::Lang lang) {
  if (run.file.strategies.empty()) return "";
  std::string html = fmt::format("<table>\n<caption>{}</caption>\n<tr>", say(words::kPriceOfSafety, lang));
  for (const lab::Wording* w : {&words::kStrategy, &words::kClients, &words::kAccounts, &words::kMedian, &words::kP99,
                                &words::kFloor, &words::kRatio, &words::kThroughput, &words::kBalance}) {
    html += fmt::format("<th scope=\"col\">{}</th>", say(*w, lang));
  }
  html += "</tr>\n";
  for (const results::BenchFileRow& r : run.file.strategies) {
    html += fmt::format(
        "<tr><th scope=\"row\">{}</th><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
        "<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{:.2f}</td><td class=\"num\">{:.1f}</td>"
        "<td>{}</td></tr>\n",
        html_escape(r.name), r.clients, r.accounts, util::duration_text(r.median_us), util::duration_text(r.p99_us),
        util::duration_text(r.floor_us), r.ratio, r.throughput_per_s,
        r.balance_ok ? say(words::kBalanceOk, lang) : "<strong>" + say(words::kBalanceWrong, lang) + "</strong>");
  }
  return html + "</table>\n";
}

}  // namespace

BenchRun read_bench_run(const std::filesystem::path& dir) {
  return BenchRun{dir, results::read_bench_file(dir / "bench.json")};
}

std::string bench_section(const BenchRun& run, lab::Lang lang, std::string_view id) {
  std::vector<std::pair<std::string, std::string>> env;
  for (const auto& [label, value] : run.file.env.items())
    env.emplace_back(html_escape(label), html_escape(json_text(value)));
  return fmt::format("<section id=\"{}\">\n<h2>{}</h2>\n", id,
                     say(words::kBenchRun, lang, {{"dir", run.dir.string()}})) +
         meta_list(env) + bars(run, lang) + numbers(run, lang) + price_of_safety(run, lang) + "</section>\n";
}

}  // namespace rlock::report
