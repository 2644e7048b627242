// merge_shards on shards written by the real writer with made-up trials (synthetic_run.h): the
// merged table is the whole campaign's, cell by cell, and shards that are not the N parts of one
// campaign are refused in one line.
#include "chaos/merge.h"

#include <fstream>

#include <gtest/gtest.h>

#include "chaos/run_record.h"
#include "chaos/synthetic_run.h"
#include "host/temp_dir.h"

namespace rlock::chaos {
namespace {

namespace fs = std::filesystem;

Campaign small_campaign() {
  return Campaign{{lab::Strategy::ttl, lab::Strategy::redlock, lab::Strategy::pg_row_lock},
                  {},
                  {fault_named("none"), fault_named("kill"), fault_named("redis-restart"), fault_named("failover")},
                  7,
                  2};
}

ChaosSetup setup_in(const fs::path& dir, std::uint64_t seed = 2026) {
  ChaosSetup setup;
  setup.dir = dir;
  setup.seed = seed;
  return setup;
}

// The message of the UsageError that merging `dirs` throws; "" when it throws none.
std::string usage_error(const std::vector<fs::path>& dirs, const fs::path& chaos_dir) {
  try {
    merge_shards(dirs, chaos_dir);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(Merge, TheMergedShardsGiveTheWholeCampaignsTableCellByCell) {
  host::TempDir dir("merge_test");
  Campaign campaign = small_campaign();
  ChaosSetup setup = setup_in(dir.path());
  std::vector<TrialResult> whole;
  for (const TrialSpec& spec : all_trials(campaign)) whole.push_back(judge(synthetic_trial(spec, setup)));
  std::vector<Cell> expected = tabulate(campaign, whole);

  MergedRun merged = merge_shards(write_synthetic_shards(campaign, setup, 3), dir.path() / "merged");
  ASSERT_EQ(merged.cells.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const Cell &got = merged.cells[i], &want = expected[i];
    SCOPED_TRACE(want.row + " " + fault_label(want));
    EXPECT_EQ(got.trials, want.trials);
    EXPECT_EQ(got.anomalies, want.anomalies);
    EXPECT_EQ(got.lost, want.lost);
    EXPECT_EQ(got.overlaps, want.overlaps);
    EXPECT_EQ(got.struck, want.struck);
    EXPECT_EQ(got.not_run, want.not_run);
    EXPECT_EQ(got.kept, want.kept);
    EXPECT_EQ(got.ms.size(), want.ms.size());
  }
  EXPECT_GT(expected[0].anomalies, 0);  // the made-up trials do show anomalies
  EXPECT_TRUE(merged.campaign.shard.whole());
  EXPECT_EQ(merged.shards, 3);

  StoredRun again = load_run(merged.setup.run_dir);  // a run as any other, for rlock analyze
  EXPECT_EQ(again.trials.size(), whole.size());
  EXPECT_TRUE(
      std::none_of(again.trials.begin(), again.trials.end(), [](const TrialInput& t) { return !t.error.empty(); }));
}

TEST(Merge, ATrialThatLeftNoLineIsNotRunAsInTheWholeCampaign) {
  host::TempDir dir("merge_test");
  std::vector<fs::path> shards = write_synthetic_shards(small_campaign(), setup_in(dir.path()), 2);
  // Shard 1 loses its last line, as when its job process died.
  std::string text;
  for_each_trial_line(shards[0], [&](std::string_view line, const nlohmann::json&, const std::string&) {
    text += std::string(line) + "\n";
  });
  text.erase(text.rfind('\n', text.size() - 2) + 1);
  fs::remove(shards[0] / "trials.jsonl.gz");
  fs::remove(shards[0] / "sealed.json");
  std::ofstream(shards[0] / "trials.jsonl") << text;
  seal_run(shards[0]);
  MergedRun merged = merge_shards(shards, dir.path() / "merged");
  long not_run = 0;
  for (const Cell& c : merged.cells) not_run += c.not_run;
  EXPECT_EQ(not_run, 1);
}

TEST(Merge, ShardsOfAnotherSeedAreRefusedNamingTheSeed) {
  host::TempDir dir("merge_test");
  std::vector<fs::path> a = write_synthetic_shards(small_campaign(), setup_in(dir.path() / "a", 1), 2);
  std::vector<fs::path> b = write_synthetic_shards(small_campaign(), setup_in(dir.path() / "b", 2), 2);
  std::string error = usage_error({a[0], b[1]}, dir.path() / "merged");
  EXPECT_NE(error.find("its seed is 2, not 1"), std::string::npos) << error;
  EXPECT_FALSE(fs::exists(dir.path() / "merged")) << "nothing written before the shards are checked";
}

TEST(Merge, ShardsOfOtherTrialsOrCountsAreRefused) {
  host::TempDir dir("merge_test");
  Campaign more = small_campaign();
  more.trials = 8;
  std::vector<fs::path> a = write_synthetic_shards(small_campaign(), setup_in(dir.path() / "a"), 2);
  std::vector<fs::path> b = write_synthetic_shards(more, setup_in(dir.path() / "b"), 2);
  std::vector<fs::path> c = write_synthetic_shards(small_campaign(), setup_in(dir.path() / "c"), 3);
  EXPECT_NE(usage_error({a[0], b[1]}, dir.path()).find("its trials is 8, not 7"), std::string::npos);
  EXPECT_NE(usage_error({a[0], c[1]}, dir.path()).find("one number of shards"), std::string::npos);
}

TEST(Merge, AMissingShardIsNamedAndARepeatedOneRefused) {
  host::TempDir dir("merge_test");
  std::vector<fs::path> shards = write_synthetic_shards(small_campaign(), setup_in(dir.path()), 3);
  std::string missing = usage_error({shards[0], shards[2]}, dir.path());
  EXPECT_NE(missing.find("shard 2/3 is missing"), std::string::npos) << missing;
  std::string twice = usage_error({shards[0], shards[1], shards[1], shards[2]}, dir.path());
  EXPECT_NE(twice.find("shard 2/3 is given twice"), std::string::npos) << twice;
}

TEST(Merge, AnInterruptedShardIsAnErrorNotAUsageError) {
  host::TempDir dir("merge_test");
  std::vector<fs::path> shards = write_synthetic_shards(small_campaign(), setup_in(dir.path()), 2);
  seal_interrupted_run(shards[1], "SIGTERM");
  try {
    merge_shards(shards, dir.path());
    FAIL() << "merged an interrupted shard";
  } catch (const UsageError& e) {
    FAIL() << e.what();
  } catch (const Interrupted& e) {
    FAIL() << e.what();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("interrupted"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace rlock::chaos
