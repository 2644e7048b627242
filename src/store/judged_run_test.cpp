// judge_stored_run on runs written by the real writer with made-up trials (synthetic_run.h): the
// table it gives, written as chaos.json, is the one of load_run's trials tabulated, byte for byte,
// whatever the order of the lines, for a shard's run and with lines missing; a trial named twice
// is refused; and its memory does not grow with the trials.
#include "store/judged_run.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "host/temp_dir.h"
#include "store/gzip_file.h"
#include "store/run_record.h"
#include "store/synthetic_run.h"
#include "util/sanitizers.h"

namespace rlock::store {
namespace {

namespace fs = std::filesystem;

chaos::Campaign small_campaign(int trials = 7) {
  return chaos::Campaign{{lab::Strategy::ttl, lab::Strategy::redlock, lab::Strategy::pg_row_lock},
                         {},
                         {chaos::fault_named("none"), chaos::fault_named("kill"), chaos::fault_named("redis-restart"),
                          chaos::fault_named("failover")},
                         trials,
                         2};
}

chaos::ChaosSetup setup_in(const fs::path& dir) {
  chaos::ChaosSetup setup;
  setup.dir = dir;
  setup.seed = 2026;
  return setup;
}

std::string file_text(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// chaos.json of the run's table as `rlock analyze --json` wrote it before it streamed: every trial
// read by load_run, then tabulated.
std::string json_of_loaded(const fs::path& run_dir, const fs::path& out) {
  StoredRun run = load_run(run_dir);
  std::vector<checker::TrialResult> results;
  for (const checker::TrialInput& input : run.trials) results.push_back(checker::judge(input));
  checker::write_json(out.string(), checker::tabulate(run.campaign, results), run.campaign, run.setup);
  return file_text(out);
}

std::string json_of_judged(const fs::path& run_dir, const fs::path& out) {
  JudgedRun run = judge_stored_run(run_dir);
  checker::write_json(out.string(), run.cells, run.campaign, run.setup);
  return file_text(out);
}

// The run's trial lines rewritten by `edit` and sealed again, as a campaign whose jobs finished in
// another order would have written them.
template <typename Edit>
void rewrite_lines(const fs::path& run_dir, Edit edit) {
  std::vector<std::string> lines;
  for_each_gzip_line(run_dir / "trials.jsonl.gz", kMaxTrialLineBytes, kMaxTrialsBytes,
                     [&](std::string_view line) { lines.emplace_back(line); });
  edit(lines);
  {
    std::ofstream out(run_dir / "trials.jsonl");
    for (const std::string& line : lines) out << line << '\n';
  }
  fs::remove(run_dir / "trials.jsonl.gz");
  fs::remove(run_dir / "sealed.json");
  seal_run(run_dir);
}

TEST(JudgedRun, GivesTheLoadedRunsTableByteForByte) {
  host::TempDir dir("judged_run_test");
  fs::path run = write_synthetic_shards(small_campaign(), setup_in(dir.path()), 1).front();
  std::string loaded = json_of_loaded(run, dir.path() / "loaded.json");
  EXPECT_NE(loaded.find("\"kept_trials\""), std::string::npos);
  EXPECT_EQ(json_of_judged(run, dir.path() / "judged.json"), loaded);
}

TEST(JudgedRun, ListsAnomaliesInThePlansOrderWhateverTheLinesOrder) {
  host::TempDir dir("judged_run_test");
  fs::path run = write_synthetic_shards(small_campaign(), setup_in(dir.path()), 1).front();
  std::string loaded = json_of_loaded(run, dir.path() / "loaded.json");
  rewrite_lines(run, [](std::vector<std::string>& lines) { std::reverse(lines.begin(), lines.end()); });
  EXPECT_EQ(json_of_judged(run, dir.path() / "judged.json"), loaded);
}

TEST(JudgedRun, CountsAShardsTrialsAloneAndItsMissingLinesAsLoadRunDoes) {
  host::TempDir dir("judged_run_test");
  fs::path shard = write_synthetic_shards(small_campaign(), setup_in(dir.path()), 3)[1];
  std::string whole = json_of_loaded(shard, dir.path() / "whole.json");
  rewrite_lines(shard, [](std::vector<std::string>& lines) { lines.erase(lines.begin() + 2, lines.begin() + 5); });
  std::string loaded = json_of_loaded(shard, dir.path() / "loaded.json");
  EXPECT_NE(loaded, whole) << "the missing lines count";
  EXPECT_EQ(json_of_judged(shard, dir.path() / "judged.json"), loaded);
}

TEST(JudgedRun, RefusesATrialNamedTwice) {
  host::TempDir dir("judged_run_test");
  fs::path run = write_synthetic_shards(small_campaign(), setup_in(dir.path()), 1).front();
  rewrite_lines(run, [](std::vector<std::string>& lines) { lines.push_back(lines[3]); });
  try {
    judge_stored_run(run);
    ADD_FAILURE() << "a trial named twice was judged";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("again"), std::string::npos) << e.what();
  }
}

// The peak resident memory, in KB, of a child process that judges `run`.
long peak_kb_judging(const fs::path& run) {
  pid_t pid = ::fork();
  if (pid == 0) {
    try {
      judge_stored_run(run);
    } catch (...) {
      ::_exit(1);
    }
    ::_exit(0);
  }
  int status = 0;
  rusage usage{};
  EXPECT_EQ(::wait4(pid, &status, 0, &usage), pid);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  return usage.ru_maxrss;
}

// Read whole, 30,000 trials take about 50 MB more than 300 do; streamed, under 1 MB.
TEST(JudgedRun, MemoryDoesNotGrowWithTheTrials) {
#if RLOCK_ADDRESS_SANITIZER
  // Its quarantine keeps every freed block resident (256 MB by default), streamed or not: the plain
  // build measures this.
  GTEST_SKIP() << "AddressSanitizer keeps freed memory resident";
#endif
  host::TempDir dir("judged_run_test");
  fs::path few = write_synthetic_shards(small_campaign(30), setup_in(dir.path() / "few"), 1).front();
  fs::path many = write_synthetic_shards(small_campaign(3000), setup_in(dir.path() / "many"), 1).front();
  long grown_kb = peak_kb_judging(many) - peak_kb_judging(few);
  EXPECT_LT(grown_kb, 8 * 1024) << "judging 100 times the trials took " << grown_kb << " KB more";
}

}  // namespace
}  // namespace rlock::store
