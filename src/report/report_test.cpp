#include "report/report.h"

#include <gtest/gtest.h>

#include <fstream>

#include "host/temp_dir.h"
#include "rlock/error.h"

namespace rlock {
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

std::string cell(const std::string& strategy, const std::string& fault, int trials, int anomalies,
                 const std::string& kept) {
  return R"({"strategy":")" + strategy + R"(","fault":")" + fault + R"(","expected_safe":)" +
         (strategy == "ttl" ? "false" : "true") + R"(,"trials":)" + std::to_string(trials) + R"(,"anomalies":)" +
         std::to_string(anomalies) +
         R"(,"lost_updates":1,"lost_amount":40,"overlaps":2,"failed":0,"dropped_amount":0,)" + R"("rate":)" +
         std::to_string(trials ? double(anomalies) / trials : 0) +
         R"(,"ci_low":0.3,"ci_high":0.95,"median_trial_ms":812,"kept_trials":[)" + kept + "]}";
}

// A chaos run of ttl and fenced-claim under none and pause, fenced-claim under pause not run; ttl
// under pause kept trials 1 and 3, both lab 1's events.
fs::path chaos_run(const TempDir& tmp, const std::string& format_field = "") {
  fs::path dir = tmp.path() / "chaos";
  write(dir / "chaos.json", "{" + format_field +
                                R"("seed":42,"ttl_ms":200,"trials_per_cell":4,"wait":"poll","cells":[)" +
                                cell("ttl", "none", 4, 0, "") + "," + cell("ttl", "pause", 4, 3, R"("1","3","4","5")") +
                                "," + cell("fenced-claim", "none", 4, 0, "") + "]}");
  for (const char* trial : {"ttl-pause-1", "ttl-pause-3"}) {
    fs::create_directories(dir / "trials" / trial);
    fs::copy_file(kLab1 / "events.jsonl", dir / "trials" / trial / "events.jsonl",
                  fs::copy_options::overwrite_existing);
  }
  return dir;
}

TEST(Report, AChaosRunIsAMatrixWithTheNumbersInEachCell) {
  TempDir tmp("report_test");
  std::string html = report_html({chaos_run(tmp)}, Lang::en);
  EXPECT_TRUE(html.starts_with("<!DOCTYPE html>\n<html lang=\"en\">"));
  EXPECT_NE(html.find("<table class=\"heat\" id=\"run1-matrix\">"), std::string::npos);
  EXPECT_NE(html.find("<a href=\"#run1-ttl-pause\">3 / 4<br>75%<br>[30%, 95%]</a>"), std::string::npos);
  EXPECT_NE(html.find("<td class=\"none\">not run</td>"), std::string::npos);  // fenced-claim under pause
  EXPECT_NE(html.find("<dt>seed</dt><dd>42</dd>"), std::string::npos);
  EXPECT_NE(html.find("<section id=\"run1-ttl-pause\">"), std::string::npos);
  EXPECT_EQ(html.find("id=\"run1-ttl-none\""), std::string::npos);  // no kept trials: no section
}

TEST(Report, KeptTrialsAreDrawnUpToThreeAndTheRestNamed) {
  TempDir tmp("report_test");
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
  TempDir tmp("report_test");
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
  TempDir tmp("report_test");
  std::string html = report_html({chaos_run(tmp), kLab1}, Lang::ko);
  EXPECT_TRUE(html.starts_with("<!DOCTYPE html>\n<html lang=\"ko\">"));
  EXPECT_NE(html.find("카오스 실행"), std::string::npos);
  EXPECT_NE(html.find("실행 안 함"), std::string::npos);
  EXPECT_NE(html.find("랩 실행"), std::string::npos);
}

TEST(Report, ABenchRunHasBarsAndItsNumbers) {
  TempDir tmp("report_test");
  write(tmp.path() / "bench.json",
        R"({"env":{"redis":"7.0.15"},"cases":[{"name":"cycle","samples":900,"median_us":95.2,"p99_us":1520,)"
        R"("floor_us":80,"ratio":1.19},{"name":"handoff-poll","samples":50,"median_us":4100,"p99_us":48000,)"
        R"("floor_us":160,"ratio":25.6,"jain":0.98,"clients":2}]})");
  std::string html = report_html({tmp.path()}, Lang::en);
  EXPECT_NE(html.find("<h2>Benchmark: "), std::string::npos);
  EXPECT_NE(html.find("<dt>redis</dt><dd>7.0.15</dd>"), std::string::npos);
  EXPECT_NE(html.find(">median 95 us</text>"), std::string::npos);
  EXPECT_NE(html.find(">p99 48.0 ms</text>"), std::string::npos);
  EXPECT_NE(html.find("<td class=\"num\">1.52 ms</td>"), std::string::npos);
  EXPECT_NE(html.find("clients 2, jain 0.98"), std::string::npos);
}

TEST(Report, ABenchRunWithStrategiesHasThePriceOfSafety) {
  TempDir tmp("report_test");
  write(tmp.path() / "bench.json",
        R"({"env":{},"cases":[],"strategies":[{"name":"fenced-claim","clients":1,"accounts":1,"median_us":420,)"
        R"("p99_us":900,"floor_us":300,"ratio":1.4,"throughput_per_s":2100.5,"balance_ok":true},)"
        R"({"name":"ttl","clients":16,"accounts":1,"median_us":5000,"p99_us":9000,"floor_us":280,"ratio":17.9,)"
        R"("throughput_per_s":932,"balance_ok":false}]})");
  std::string en = report_html({tmp.path()}, Lang::en);
  EXPECT_NE(en.find("<caption>The price of safety"), std::string::npos);
  EXPECT_NE(en.find("<th scope=\"row\">fenced-claim</th><td class=\"num\">1</td>"), std::string::npos);
  EXPECT_NE(en.find("<td class=\"num\">2100.5</td><td>correct</td>"), std::string::npos);
  EXPECT_NE(en.find("<td><strong>WRONG</strong></td>"), std::string::npos);
  EXPECT_NE(report_html({tmp.path()}, Lang::ko).find("<caption>안전의 대가"), std::string::npos);
}

TEST(Report, ABenchRunBeforeStrategiesHasNoPriceOfSafety) {
  TempDir tmp("report_test");
  write(tmp.path() / "bench.json", R"({"env":{},"cases":[]})");
  EXPECT_EQ(report_html({tmp.path()}, Lang::en).find("price of safety"), std::string::npos);
}

TEST(Report, ADirectoryWithoutARunIsRefused) {
  TempDir tmp("report_test");
  EXPECT_THROW(report_html({tmp.path()}, Lang::en), Error);
}

TEST(Report, ARunOfANewerFormatIsRefused) {
  TempDir tmp("report_test");
  try {
    report_html({chaos_run(tmp, R"("format":2,)")}, Lang::en);
    FAIL() << "a format 2 run was read";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("format 2, newer than this rlock reads (1)"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(report_html({chaos_run(tmp, R"("format":1,)")}, Lang::en));
}

TEST(Report, AMalformedRunIsRefusedNamingItsFile) {
  TempDir tmp("report_test");
  write(tmp.path() / "chaos.json", R"({"seed":1,"cells":[]})");
  try {
    report_html({tmp.path()}, Lang::en);
    FAIL() << "a chaos.json without its fields was read";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("chaos.json is not a chaos run's table"), std::string::npos) << e.what();
  }
}

TEST(Report, AnUnwritableOutputLeavesNothingBehind) {
  TempDir tmp("report_test");
  fs::path taken = tmp.path() / "taken";
  fs::create_directories(taken / "inside");  // a directory where the file should go
  EXPECT_THROW(write_report({kLab1}, taken, Lang::en), Error);
  EXPECT_EQ(std::distance(fs::directory_iterator(tmp.path()), fs::directory_iterator()), 1);
  EXPECT_THROW(write_report({kLab1}, tmp.path() / "missing" / "report.html", Lang::en), Error);
}

TEST(Report, WriteReportWritesThePage) {
  TempDir tmp("report_test");
  write_report({kLab1}, tmp.path() / "report.html", Lang::en);
  std::ifstream in(tmp.path() / "report.html");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, report_html({kLab1}, Lang::en));
}

}  // namespace
}  // namespace rlock
