#include "report/report.h"

#include <gtest/gtest.h>

#include <time.h>

#include <fstream>
#include <iostream>

#include <fmt/format.h>

#include "host/temp_dir.h"
#include "results/bench_file.h"
#include "results/chaos_file.h"
#include "rlock/error.h"

namespace rlock::report {

using lab::Lang;

namespace {

namespace fs = std::filesystem;

const fs::path kLab1 = fs::path(RLOCK_TESTDATA) / "lab1";

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

results::ChaosFileCell cell(const std::string& strategy, const std::string& fault, long trials, long anomalies,
                            std::vector<std::string> kept) {
  results::ChaosFileCell c;
  c.strategy = strategy;
  c.fault = fault;
  c.expected_safe = strategy != "ttl";
  c.trials = trials;
  c.anomalies = anomalies;
  c.lost_updates = 1;
  c.lost_amount = 40;
  c.overlaps = 2;
  c.rate = trials ? double(anomalies) / double(trials) : 0;
  c.ci_low = 0.3;
  c.ci_high = 0.95;
  c.median_trial_ms = 812;
  c.kept_trials = std::move(kept);
  return c;
}

// A chaos run of ttl and fenced-claim under none and pause, fenced-claim under pause not run; ttl
// under pause kept trials 1 and 3, both lab 1's events.
fs::path chaos_run(const host::TempDir& tmp) {
  fs::path dir = tmp.path() / "chaos";
  fs::create_directories(dir);
  results::write_chaos_file(dir / "chaos.json", results::ChaosFile{42,
                                                                   200,
                                                                   4,
                                                                   "poll",
                                                                   {cell("ttl", "none", 4, 0, {}),
                                                                    cell("ttl", "pause", 4, 3, {"1", "3", "4", "5"}),
                                                                    cell("fenced-claim", "none", 4, 0, {})}});
  for (const char* trial : {"ttl-pause-1", "ttl-pause-3"}) {
    fs::create_directories(dir / "trials" / trial);
    fs::copy_file(kLab1 / "events.jsonl", dir / "trials" / trial / "events.jsonl",
                  fs::copy_options::overwrite_existing);
  }
  return dir;
}

// `path`'s JSON with its "format" set to `format`.
void set_format(const fs::path& path, int format) {
  std::ifstream in(path);
  nlohmann::json j = nlohmann::json::parse(in);
  j["format"] = format;
  std::ofstream(path) << j.dump();
}

TEST(Report, AChaosRunIsAMatrixWithTheNumbersInEachCell) {
  host::TempDir tmp("report_test");
  std::string html = report_html({chaos_run(tmp)}, Lang::en);
  EXPECT_TRUE(html.starts_with("<!DOCTYPE html>\n<html lang=\"en\">"));
  EXPECT_NE(html.find("<table class=\"heat\" id=\"run1-matrix\">"), std::string::npos);
  EXPECT_NE(html.find("<a href=\"#run1-ttl-pause\">3 / 4<br>75%<br>[30%, 95%]</a>"), std::string::npos);
  EXPECT_NE(html.find("<td class=\"none\">not run</td>"), std::string::npos);  // fenced-claim under pause
  EXPECT_NE(html.find("<dt>seed</dt><dd>42</dd>"), std::string::npos);
  EXPECT_NE(html.find("<section id=\"run1-ttl-pause\">"), std::string::npos);
  EXPECT_EQ(html.find("id=\"run1-ttl-none\""), std::string::npos);  // no kept trials: no section
}

// A card draws each row's shortest loss alone: of ttl's two kept trials under pause, the one whose
// events span less time (lab 1's first five events against all of them); fenced-claim lost nothing.
TEST(Report, ACardDrawsEachRowsShortestLossAlone) {
  host::TempDir tmp("report_test");
  fs::path dir = chaos_run(tmp);
  std::ifstream whole(kLab1 / "events.jsonl");
  std::string line, first_five;
  for (int i = 0; i < 5 && std::getline(whole, line); ++i) first_five += line + "\n";
  write(dir / "trials" / "ttl-pause-3" / "events.jsonl", first_five);
  std::string html = report_html({dir}, Lang::en, Timelines::shortest_loss_of_each_row);
  EXPECT_NE(html.find("<section id=\"run1-shortest\">"), std::string::npos);
  EXPECT_NE(html.find("ttl: its shortest loss, ttl-pause-3"), std::string::npos);
  EXPECT_EQ(html.find("ttl-pause-1"), std::string::npos);
  EXPECT_EQ(count(html, "<svg"), 1u);
  EXPECT_NE(html.find("fenced-claim: no kept trial of a cell that lost money"), std::string::npos);
  EXPECT_EQ(html.find("id=\"run1-ttl-pause\""), std::string::npos);  // no section a cell
  EXPECT_NE(html.find("<a href=\"#run1-shortest\">3 / 4"), std::string::npos);
}

// A name from chaos.json is escaped where it goes and never read as a path: not an absolute one,
// not one that climbs out of the run, though a trial's events are planted where they lead.
TEST(Report, CraftedNamesAreEscapedAndNeverTakenAsPaths) {
  host::TempDir tmp("report_test");
  fs::path dir = tmp.path() / "crafted", outside = tmp.path() / "outside" / "secret-pause-0";
  fs::create_directories(outside);
  fs::copy_file(kLab1 / "events.jsonl", outside / "events.jsonl");
  fs::create_directories(dir / "trials");
  std::string script = "\"><script>alert(1)</script>";
  results::write_chaos_file(
      dir / "chaos.json",
      results::ChaosFile{1,
                         200,
                         4,
                         script,
                         {cell(script, "pause", 4, 1, {"1" + script}), cell(script, script, 4, 1, {"1"}),
                          cell((tmp.path() / "outside" / "secret").string(), "pause", 4, 1, {"0"}),
                          cell("../../outside/secret", "pause", 4, 1, {"0"}),
                          cell("ttl", "pause", 4, 1, {"/../../outside/secret-pause-0"})}});
  std::string html = report_html({dir}, Lang::en);
  EXPECT_EQ(count(html, "<script"), 0u);
  EXPECT_EQ(count(html, "<svg"), 0u) << "no planted trial is drawn";
  EXPECT_NE(html.find("href=\"#run1-%22%3E%3Cscript%3Ealert%281%29%3C%2Fscript%3E-pause\""), std::string::npos);
  EXPECT_NE(html.find("<section id=\"run1-&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;-pause\">"),
            std::string::npos);
}

// A failover cell split by its replica keeps its trials under FAULT, not under its column's name.
TEST(Report, ASplitFailoverCellDrawsItsKeptTrials) {
  host::TempDir tmp("report_test");
  fs::path dir = tmp.path() / "failover";
  results::ChaosFileCell lagging = cell("ttl", "failover", 4, 1, {"2"});
  lagging.replica = "lagging";
  fs::create_directories(dir);
  results::write_chaos_file(dir / "chaos.json", results::ChaosFile{1, 200, 4, "poll", {lagging}});
  fs::create_directories(dir / "trials" / "ttl-failover-2");
  fs::copy_file(kLab1 / "events.jsonl", dir / "trials" / "ttl-failover-2" / "events.jsonl");
  std::string html = report_html({dir}, Lang::en);
  EXPECT_EQ(count(html, "<svg xmlns=\"http://www.w3.org/2000/svg\""), 1u);
  EXPECT_EQ(html.find("no events kept"), std::string::npos);
}

// The CPU seconds report_html takes on `dir`, the least of three: this thread's own time, which
// other processes on a busy machine do not lengthen as they do the wall clock's.
double seconds_to_render(const fs::path& dir) {
  auto thread_seconds = [] {
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
  };
  double least = 1e9;
  for (int i = 0; i < 3; ++i) {
    double start = thread_seconds();
    report_html({dir}, Lang::en);
    least = std::min(least, thread_seconds() - start);
  }
  return least;
}

// A kept trial with a 250 KB client error in a table of 1,000 cells costs about four times what a
// quarter of each costs (62.5 KB, 250 cells): fitting a label and the matrix are about linear (a
// quadratic cost would be 16 times, a cubic one 64; 10 leaves room for a busy machine).
TEST(Report, ALongLabelAndAThousandCellsRenderInAboutLinearTime) {
  host::TempDir tmp("report_test");
  auto run = [&](const std::string& name, int strategies, int faults, std::size_t label) {
    fs::path dir = tmp.path() / name;
    results::ChaosFile file{1, 200, 4, "poll", {}};
    for (int s = 0; s < strategies; ++s) {
      for (int f = 0; f < faults; ++f)
        file.cells.push_back(cell(fmt::format("s{}", s), fmt::format("f{}", f), 4, 1, {}));
    }
    file.cells.front().kept_trials = {"1"};
    fs::create_directories(dir / "trials" / "s0-f0-1");
    results::write_chaos_file(dir / "chaos.json", file);
    fs::copy_file(kLab1 / "events.jsonl", dir / "trials" / "s0-f0-1" / "events.jsonl");
    nlohmann::json error{{"t", 2.5}, {"who", "A"}, {"event", "error"}, {"message", std::string(label, 'x')}};
    std::ofstream(dir / "trials" / "s0-f0-1" / "events.jsonl", std::ios::app) << error.dump() << "\n";
    return dir;
  };
  double quarter = seconds_to_render(run("quarter", 10, 25, 62'500));
  double whole = seconds_to_render(run("whole", 40, 25, 250'000));
  std::cout << fmt::format(
      "250 cells and a 62.5 KB label: {:.1f} ms; 1,000 cells and a 250 KB label: {:.1f} ms: {:.1f}x\n", quarter * 1e3,
      whole * 1e3, whole / quarter);
  EXPECT_LT(whole, 10 * quarter);
}

// Cells that leave most of their table empty (each its own row and column) are refused, not
// drawn as a matrix of rows x columns.
TEST(Report, CellsThatLeaveMostOfTheirTableEmptyAreRefused) {
  host::TempDir tmp("report_test");
  fs::path dir = tmp.path() / "sparse";
  results::ChaosFile file{1, 200, 4, "poll", {}};
  for (int i = 0; i < 1000; ++i) file.cells.push_back(cell(fmt::format("s{}", i), fmt::format("f{}", i), 4, 0, {}));
  fs::create_directories(dir);
  results::write_chaos_file(dir / "chaos.json", file);
  EXPECT_THROW(report_html({dir}, Lang::en), Error);
}

TEST(Report, KeptTrialsAreDrawnUpToThreeAndTheRestNamed) {
  host::TempDir tmp("report_test");
  std::string html = report_html({chaos_run(tmp)}, Lang::en);
  EXPECT_EQ(count(html, "<svg xmlns=\"http://www.w3.org/2000/svg\""), 2u);  // trials 1 and 3
  EXPECT_NE(html.find("trial ttl-pause-4: no events kept"), std::string::npos);
  EXPECT_NE(html.find("1 more kept in"), std::string::npos);
  EXPECT_NE(html.find(": ttl-pause-5</p>"), std::string::npos);
  // The drawings' hatch pattern keeps one id on the page.
  EXPECT_EQ(count(html, "id=\"hatch\""), 1u);
  EXPECT_EQ(count(html, "<pattern "), 2u);
}

TEST(Report, NoAddressButTheSvgNamespace) {
  host::TempDir tmp("report_test");
  std::string html = report_html({chaos_run(tmp), kLab1}, Lang::en);
  EXPECT_EQ(count(html, "http"), count(html, "xmlns=\"http://www.w3.org/2000/svg\""));
  EXPECT_EQ(count(html, "<script"), 0u);
}

TEST(Report, ALabRunHasItsSortedLogItsVerdictAndItsTimeline) {
  std::string html = report_html({kLab1}, Lang::en);
  EXPECT_NE(html.find("<h2>Lab run: "), std::string::npos);
  EXPECT_NE(html.find("<p class=\"v-lost\">verdict: final balance"), std::string::npos);
  EXPECT_NE(html.find("<pre>"), std::string::npos);
  EXPECT_NE(html.find("<figure id=\"run1-timeline\">"), std::string::npos);
}

TEST(Report, TheKoreanPageIsMarkedKoAndSaysItsWordsInKorean) {
  host::TempDir tmp("report_test");
  std::string html = report_html({chaos_run(tmp), kLab1}, Lang::ko);
  EXPECT_TRUE(html.starts_with("<!DOCTYPE html>\n<html lang=\"ko\">"));
  EXPECT_NE(html.find("카오스 실행"), std::string::npos);
  EXPECT_NE(html.find("실행 안 함"), std::string::npos);
  EXPECT_NE(html.find("랩 실행"), std::string::npos);
}

TEST(Report, ABenchRunHasBarsAndItsNumbers) {
  host::TempDir tmp("report_test");
  results::write_bench_file(
      tmp.path() / "bench.json",
      results::BenchFile{
          nlohmann::json{{"redis", "7.0.15"}},
          {results::BenchFileCase{"cycle", 900, 95.2, 1520, 80, 1.19},
           results::BenchFileCase{"handoff-poll", 50, 4100, 48000, 160, 25.6, {{"jain", 0.98}, {"clients", 2}}}},
          {}});
  std::string html = report_html({tmp.path()}, Lang::en);
  EXPECT_NE(html.find("<h2>Benchmark: "), std::string::npos);
  EXPECT_NE(html.find("<dt>redis</dt><dd>7.0.15</dd>"), std::string::npos);
  EXPECT_NE(html.find(">median 95 us</text>"), std::string::npos);
  EXPECT_NE(html.find(">p99 48.0 ms</text>"), std::string::npos);
  EXPECT_NE(html.find("<td class=\"num\">1.52 ms</td>"), std::string::npos);
  EXPECT_NE(html.find("clients 2, jain 0.98"), std::string::npos);
}

TEST(Report, ABenchRunWithStrategiesHasThePriceOfSafety) {
  host::TempDir tmp("report_test");
  results::write_bench_file(
      tmp.path() / "bench.json",
      results::BenchFile{nlohmann::json::object(),
                         {},
                         {results::BenchFileRow{"fenced-claim", 1, 1, 500, 420, 900, 300, 1.4, 2100.5, true},
                          results::BenchFileRow{"ttl", 16, 1, 500, 5000, 9000, 280, 17.9, 932, false}}});
  std::string en = report_html({tmp.path()}, Lang::en);
  EXPECT_NE(en.find("<caption>The price of safety"), std::string::npos);
  EXPECT_NE(en.find("<th scope=\"row\">fenced-claim</th><td class=\"num\">1</td>"), std::string::npos);
  EXPECT_NE(en.find("<td class=\"num\">2100.5</td><td>correct</td>"), std::string::npos);
  EXPECT_NE(en.find("<td><strong>WRONG</strong></td>"), std::string::npos);
  EXPECT_NE(report_html({tmp.path()}, Lang::ko).find("<caption>안전의 대가"), std::string::npos);
}

// A bench.json from before the price of safety: no "strategies", no "format".
TEST(Report, ABenchRunBeforeStrategiesHasNoPriceOfSafety) {
  host::TempDir tmp("report_test");
  write(tmp.path() / "bench.json", R"({"env":{},"cases":[]})");
  EXPECT_EQ(report_html({tmp.path()}, Lang::en).find("price of safety"), std::string::npos);
}

TEST(Report, ADirectoryWithoutARunIsRefused) {
  host::TempDir tmp("report_test");
  EXPECT_THROW(report_html({tmp.path()}, Lang::en), Error);
}

TEST(Report, ARunOfANewerFormatIsRefused) {
  host::TempDir tmp("report_test");
  fs::path dir = chaos_run(tmp);
  EXPECT_NO_THROW(report_html({dir}, Lang::en));  // as written: the current format
  set_format(dir / "chaos.json", results::kChaosFileFormat + 1);
  try {
    report_html({dir}, Lang::en);
    FAIL() << "a newer run was read";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("chaos.json: format 2 is newer than this rlock reads (1)"), std::string::npos)
        << e.what();
  }
  results::write_bench_file(tmp.path() / "bench.json", results::BenchFile{});
  set_format(tmp.path() / "bench.json", results::kBenchFileFormat + 1);
  EXPECT_THROW(report_html({tmp.path()}, Lang::en), Error);
}

TEST(Report, AMalformedRunIsRefusedNamingItsFile) {
  host::TempDir tmp("report_test");
  write(tmp.path() / "chaos.json", R"({"seed":1,"cells":[]})");
  try {
    report_html({tmp.path()}, Lang::en);
    FAIL() << "a chaos.json without its fields was read";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("chaos.json is not a chaos run's table"), std::string::npos) << e.what();
  }
}

TEST(Report, AnUnwritableOutputLeavesNothingBehind) {
  host::TempDir tmp("report_test");
  fs::path taken = tmp.path() / "taken";
  fs::create_directories(taken / "inside");  // a directory where the file should go
  EXPECT_THROW(write_report({kLab1}, taken, Lang::en), Error);
  EXPECT_EQ(std::distance(fs::directory_iterator(tmp.path()), fs::directory_iterator()), 1);
  EXPECT_THROW(write_report({kLab1}, tmp.path() / "missing" / "report.html", Lang::en), Error);
}

TEST(Report, WriteReportWritesThePage) {
  host::TempDir tmp("report_test");
  write_report({kLab1}, tmp.path() / "report.html", Lang::en);
  std::ifstream in(tmp.path() / "report.html");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, report_html({kLab1}, Lang::en));
}

}  // namespace
}  // namespace rlock::report
