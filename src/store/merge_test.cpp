// merge_shards on shards written by the real writer with made-up trials (synthetic_run.h): the
// merged table is the whole campaign's, cell by cell, and shards that are not the N parts of one
// campaign are refused in one line; so are shards whose files are not what rlock wrote (a link, a
// FIFO, another shard's trial, trials changed after their seal, no trial judged), leaving no run.
#include "store/merge.h"

#include <sys/stat.h>

#include <fstream>
#include <set>

#include <gtest/gtest.h>

#include "checker/classification.h"
#include "host/temp_dir.h"
#include "store/gzip_file.h"
#include "store/run_record.h"
#include "store/synthetic_run.h"

namespace rlock::store {
namespace {

namespace fs = std::filesystem;

chaos::Campaign small_campaign() {
  return chaos::Campaign{{lab::Strategy::ttl, lab::Strategy::redlock, lab::Strategy::pg_row_lock},
                         {},
                         {chaos::fault_named("none"), chaos::fault_named("kill"), chaos::fault_named("redis-restart"),
                          chaos::fault_named("failover")},
                         7,
                         2};
}

chaos::ChaosSetup setup_in(const fs::path& dir, std::uint64_t seed = 2026) {
  chaos::ChaosSetup setup;
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

// The message of the Error (not a UsageError) that merging `dirs` throws; "" when it throws none.
std::string merge_error(const std::vector<fs::path>& dirs, const fs::path& chaos_dir) {
  try {
    merge_shards(dirs, chaos_dir);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// Whether chaos_dir/runs holds nothing: no run, whole or partial.
bool no_run_in(const fs::path& chaos_dir) {
  return !fs::exists(chaos_dir / "runs") || fs::is_empty(chaos_dir / "runs");
}

// Plants in each shard's trials/ the directory of each trial its lines keep, as a campaign leaves
// them; returns their names.
std::set<std::string> plant_kept_trials(const chaos::Campaign& campaign, const chaos::ChaosSetup& setup,
                                        const std::vector<fs::path>& shards) {
  std::set<std::string> names;
  for (std::size_t k = 0; k < shards.size(); ++k) {
    chaos::Campaign part = campaign;
    part.shard = chaos::Shard{static_cast<int>(k) + 1, static_cast<int>(shards.size())};
    for (const chaos::TrialSpec& spec : chaos::all_trials(part)) {
      if (!checker::anomaly(checker::judge(synthetic_trial(spec, setup)))) continue;
      fs::path kept = shards[k] / "trials" / trial_dir_name(spec);
      fs::create_directories(kept / "sub");
      std::ofstream(kept / "history.jsonl") << "{}\n";
      std::ofstream(kept / "sub" / "timeline.svg") << "<svg/>\n";
      names.insert(trial_dir_name(spec));
    }
  }
  return names;
}

// The shard's trial lines, each with its newline.
std::vector<std::string> lines_of(const fs::path& shard) {
  std::vector<std::string> lines;
  for_each_trial_line(shard, [&](std::string_view line, const nlohmann::json&, const std::string&) {
    lines.push_back(std::string(line) + "\n");
  });
  return lines;
}

// The shard's trials replaced by `lines`, gzipped; sealed again when `seal`.
void rewrite_trials(const fs::path& shard, const std::vector<std::string>& lines, bool seal) {
  {
    std::ofstream out(shard / "trials.jsonl");
    for (const std::string& line : lines) out << line;
  }
  if (seal) {
    fs::remove(shard / "trials.jsonl.gz");
    seal_run(shard);
  } else {
    gzip_file(shard / "trials.jsonl", shard / "trials.jsonl.gz");
    fs::remove(shard / "trials.jsonl");
  }
}

TEST(Merge, TheMergedShardsGiveTheWholeCampaignsTableCellByCell) {
  host::TempDir dir("merge_test");
  chaos::Campaign campaign = small_campaign();
  chaos::ChaosSetup setup = setup_in(dir.path());
  std::vector<checker::TrialResult> whole;
  for (const chaos::TrialSpec& spec : chaos::all_trials(campaign))
    whole.push_back(checker::judge(synthetic_trial(spec, setup)));
  std::vector<checker::Cell> expected = checker::tabulate(campaign, whole);

  MergedRun merged = merge_shards(write_synthetic_shards(campaign, setup, 3), dir.path() / "merged");
  ASSERT_EQ(merged.cells.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const checker::Cell &got = merged.cells[i], &want = expected[i];
    SCOPED_TRACE(want.row + " " + checker::fault_label(want));
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
  EXPECT_TRUE(std::none_of(again.trials.begin(), again.trials.end(),
                           [](const checker::TrialInput& t) { return !t.error.empty(); }));
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
  seal_run(shards[0]);  // the campaign sealed what its jobs wrote
  MergedRun merged = merge_shards(shards, dir.path() / "merged");
  long not_run = 0;
  for (const checker::Cell& c : merged.cells) not_run += c.not_run;
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
  chaos::Campaign more = small_campaign();
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
  } catch (const chaos::Interrupted& e) {
    FAIL() << e.what();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("interrupted"), std::string::npos) << e.what();
  }
}

TEST(Merge, TheKeptTrialsOfEachShardAreCopiedByteForByte) {
  host::TempDir dir("merge_test");
  chaos::ChaosSetup setup = setup_in(dir.path());
  std::vector<fs::path> shards = write_synthetic_shards(small_campaign(), setup, 3);
  std::set<std::string> planted = plant_kept_trials(small_campaign(), setup, shards);
  ASSERT_FALSE(planted.empty());
  MergedRun merged = merge_shards(shards, dir.path() / "merged");
  std::set<std::string> copied;
  for (const auto& entry : fs::directory_iterator(merged.setup.run_dir / "trials"))
    copied.insert(entry.path().filename().string());
  EXPECT_EQ(copied, planted);
  fs::path one = merged.setup.run_dir / "trials" / *planted.begin();
  EXPECT_TRUE(fs::exists(one / "sub" / "timeline.svg"));
  EXPECT_EQ(fs::hard_link_count(one / "history.jsonl"), 1U) << "a copy, not a link to the shard's file";
}

TEST(Merge, ALinkInAShardsTrialsIsRefusedAndLeavesNoRun) {
  host::TempDir dir("merge_test");
  chaos::ChaosSetup setup = setup_in(dir.path());
  std::vector<fs::path> shards = write_synthetic_shards(small_campaign(), setup, 2);
  std::string name = *plant_kept_trials(small_campaign(), setup, shards).begin();
  fs::create_directories(dir.path() / "secret");
  std::ofstream(dir.path() / "secret" / "token") << "s3cret\n";
  fs::path shard = fs::exists(shards[0] / "trials" / name) ? shards[0] : shards[1];
  fs::remove_all(shard / "trials" / name);
  fs::create_directory_symlink(dir.path() / "secret", shard / "trials" / name);
  std::string error = merge_error(shards, dir.path() / "merged");
  EXPECT_NE(error.find(name + " is a symbolic link"), std::string::npos) << error;
  EXPECT_TRUE(no_run_in(dir.path() / "merged"));
}

TEST(Merge, ALinkLoopOrTrialsAsAFileIsRefusedAndLeavesNoRun) {
  host::TempDir dir("merge_test");
  std::vector<fs::path> shards = write_synthetic_shards(small_campaign(), setup_in(dir.path()), 2);
  fs::create_directories(shards[1] / "trials");
  fs::create_directory_symlink("loop", shards[1] / "trials" / "loop");
  std::string error = merge_error(shards, dir.path() / "merged");
  EXPECT_NE(error.find("trials/loop is not the directory of a trial that shard 2/2 kept"), std::string::npos) << error;
  EXPECT_TRUE(no_run_in(dir.path() / "merged"));

  fs::remove_all(shards[1] / "trials");
  std::ofstream(shards[1] / "trials") << "not a directory\n";
  error = merge_error(shards, dir.path() / "merged");
  EXPECT_NE(error.find("trials is a regular file, not a directory"), std::string::npos) << error;
  EXPECT_TRUE(no_run_in(dir.path() / "merged"));
}

TEST(Merge, AKeptTrialOfOneShardInAnotherIsRefusedAndLeavesNoRun) {
  host::TempDir dir("merge_test");
  chaos::ChaosSetup setup = setup_in(dir.path());
  std::vector<fs::path> shards = write_synthetic_shards(small_campaign(), setup, 2);
  plant_kept_trials(small_campaign(), setup, shards);
  fs::path first = fs::directory_iterator(shards[0] / "trials")->path();
  fs::copy(first, shards[1] / "trials" / first.filename(), fs::copy_options::recursive);
  std::string error = merge_error(shards, dir.path() / "merged");
  EXPECT_NE(error.find(first.filename().string() + " is not the directory of a trial that shard 2/2 kept"),
            std::string::npos)
      << error;
  EXPECT_TRUE(no_run_in(dir.path() / "merged"));
}

TEST(Merge, AFifoAsRunJsonIsRefusedWithoutWaiting) {
  host::TempDir dir("merge_test");
  std::vector<fs::path> shards = write_synthetic_shards(small_campaign(), setup_in(dir.path()), 2);
  fs::remove(shards[1] / "run.json");
  ASSERT_EQ(::mkfifo((shards[1] / "run.json").c_str(), 0600), 0);
  std::string error = merge_error(shards, dir.path() / "merged");
  EXPECT_NE(error.find("run.json is a FIFO, not a regular file"), std::string::npos) << error;
  EXPECT_TRUE(no_run_in(dir.path() / "merged"));
}

TEST(Merge, ALineRemovedAfterTheSealIsRefusedAndLeavesNoRun) {
  host::TempDir dir("merge_test");
  std::vector<fs::path> shards = write_synthetic_shards(small_campaign(), setup_in(dir.path()), 2);
  std::vector<std::string> lines = lines_of(shards[1]);
  lines.erase(lines.begin() + 2);
  rewrite_trials(shards[1], lines, /*seal=*/false);
  std::string error = merge_error(shards, dir.path() / "merged");
  EXPECT_NE(error.find("trials.jsonl.gz is not what its sealed.json sealed"), std::string::npos) << error;
  EXPECT_TRUE(no_run_in(dir.path() / "merged"));
  EXPECT_THROW(load_run(shards[1]), Error) << "rlock analyze refuses it too";
}

TEST(Merge, ASealOfBeforeTheDigestIsReadAsBefore) {
  host::TempDir dir("merge_test");
  std::vector<fs::path> shards = write_synthetic_shards(small_campaign(), setup_in(dir.path()), 2);
  for (const fs::path& shard : shards) std::ofstream(shard / "sealed.json") << R"({"format": 1, "state": "complete"})";
  MergedRun merged = merge_shards(shards, dir.path() / "merged");
  EXPECT_EQ(load_run(merged.setup.run_dir).trials.size(), chaos::all_trials(small_campaign()).size());
}

TEST(Merge, ALabDirectoryThatCannotBeWrittenIsAnErrorInOneLine) {
  host::TempDir dir("merge_test");
  std::vector<fs::path> shards = write_synthetic_shards(small_campaign(), setup_in(dir.path()), 2);
  fs::create_directories(dir.path() / "merged");
  std::ofstream(dir.path() / "merged" / "runs") << "a file where the runs go\n";
  std::string error = merge_error(shards, dir.path() / "merged");
  EXPECT_NE(error.find("merge: "), std::string::npos) << error;
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;
}

TEST(Merge, ShardsWithNoJudgedTrialAreRefusedAndLeaveNoRun) {
  host::TempDir dir("merge_test");
  std::vector<fs::path> shards = write_synthetic_shards(small_campaign(), setup_in(dir.path()), 2);
  for (const fs::path& shard : shards) {
    std::vector<std::string> lines = lines_of(shard);
    for (std::string& line : lines) {
      nlohmann::json j = nlohmann::json::parse(line);
      j["not_run"] = true;
      line = j.dump() + "\n";
    }
    rewrite_trials(shard, lines, /*seal=*/true);
  }
  std::string error = merge_error(shards, dir.path() / "merged");
  EXPECT_NE(error.find("judged no trial"), std::string::npos) << error;
  EXPECT_TRUE(no_run_in(dir.path() / "merged"));
}

}  // namespace
}  // namespace rlock::store
