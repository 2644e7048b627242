#include "store/merge.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "checker/classification.h"
#include "checker/judge.h"
#include "lab/append_file.h"
#include "rlock/error.h"
#include "store/judged_run.h"
#include "store/plan_tally.h"
#include "store/run_file.h"
#include "store/run_record.h"
#include "store/trial_line.h"
#include "util/plain_files.h"
#include "util/printable.h"

namespace rlock::store {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct ShardRun {
  fs::path dir;
  RunFile file;
};

// Each directory's run.json, the run sealed complete; a shard of an interrupted campaign is an
// Error (exit 1), not Interrupted: the merge itself was not interrupted.
std::vector<ShardRun> read_shards(const std::vector<fs::path>& dirs) {
  std::vector<ShardRun> shards;
  for (const fs::path& dir : dirs) {
    try {
      shards.push_back({dir, load_run_file(dir)});
    } catch (const chaos::Interrupted& e) {
      throw Error(fmt::format("a shard cannot be merged: {}", e.what()));
    }
  }
  return shards;
}

// The first field of the plan in which `b` differs from `a`, as "its FIELD is B, not A".
std::string first_difference(const RunFile& a, const RunFile& b) {
  json fields_a = plan_fields(a), fields_b = plan_fields(b);
  for (const auto& [field, value] : fields_a.items()) {
    if (fields_b[field] != value)
      return fmt::format("its {} is {}, not {}", field, fields_b[field].dump(), value.dump());
  }
  return "its fingerprint differs";
}

// One fingerprint, one count, every index once: UsageError otherwise. Returns the shards in index order.
std::vector<ShardRun> check_shards(std::vector<ShardRun> shards) {
  const ShardRun& first = shards.front();
  std::string fingerprint_of_first = fingerprint(first.file);
  const chaos::Shard& first_shard = first.file.campaign.shard;
  const int count = first_shard.count;
  for (const ShardRun& s : shards) {
    const chaos::Shard& shard = s.file.campaign.shard;
    if (fingerprint(s.file) != fingerprint_of_first) {
      throw UsageError(fmt::format("{} (shard {}) is not of the campaign of {} (shard {}): {}", s.dir.string(),
                                   chaos::shard_name(shard), first.dir.string(), chaos::shard_name(first_shard),
                                   first_difference(first.file, s.file)));
    }
    if (shard.count != count) {
      throw UsageError(fmt::format("{} is shard {} and {} shard {}: one campaign is cut into one number of shards",
                                   s.dir.string(), chaos::shard_name(shard), first.dir.string(),
                                   chaos::shard_name(first_shard)));
    }
  }
  std::sort(shards.begin(), shards.end(), [](const ShardRun& a, const ShardRun& b) {
    return a.file.campaign.shard.index < b.file.campaign.shard.index;
  });
  for (std::size_t i = 1; i < shards.size(); ++i) {
    if (shards[i].file.campaign.shard == shards[i - 1].file.campaign.shard) {
      throw UsageError(fmt::format("shard {} is given twice: {} and {}",
                                   chaos::shard_name(shards[i].file.campaign.shard), shards[i - 1].dir.string(),
                                   shards[i].dir.string()));
    }
  }
  std::vector<bool> given(static_cast<std::size_t>(count) + 1, false);
  for (const ShardRun& s : shards) given[static_cast<std::size_t>(s.file.campaign.shard.index)] = true;
  std::string missing;
  int unnamed = 0;
  for (int k = 1; k <= count; ++k) {
    if (given[static_cast<std::size_t>(k)]) continue;
    if (missing.size() < 60) {
      missing += fmt::format("{}{}/{}", missing.empty() ? "" : ", ", k, count);
    } else {
      ++unnamed;
    }
  }
  if (unnamed > 0) missing += fmt::format(" and {} more", unnamed);
  if (missing.empty()) return shards;
  bool one = unnamed == 0 && missing.find(',') == std::string::npos;
  throw UsageError(
      fmt::format("the campaign's shard{} {} {} missing (not given)", one ? "" : "s", missing, one ? "is" : "are"));
}

// A trial that keeps its directory in the campaign's trials/ (trial.cpp): an anomaly or a client's
// error; one that ended in an error may leave it there too.
bool keeps_its_directory(const checker::TrialInput& input, const checker::TrialResult& result) {
  return checker::anomaly(result) || !result.client_error.empty() || !input.error.empty();
}

// The kept trials of `shard` copied into `to`: only the directories of trials its own lines keep,
// byte for byte (its files may be another user's), nothing but regular files and directories.
// Throws Error, in one line, for anything else in its trials/.
void copy_kept_trials(const ShardRun& shard, const PlanTally& plan, const fs::path& to) {
  fs::path from = shard.dir / "trials";
  struct stat st {};
  if (::lstat(from.c_str(), &st) != 0) {
    if (errno == ENOENT) return;  // the shard kept no trial
    throw Error(fmt::format("cannot read {}: {}", from.string(), std::strerror(errno)));
  }
  if (!S_ISDIR(st.st_mode)) {
    throw Error(fmt::format("{} is {}, not a directory: a run keeps its trials in one", from.string(),
                            util::file_kind(st.st_mode)));
  }
  fs::create_directories(to);
  for (const fs::directory_entry& entry : fs::directory_iterator(from)) {
    std::string name = entry.path().filename().string();
    if (!plan.kept(name, shard.file.campaign)) {
      throw Error(fmt::format("{} is not the directory of a trial that shard {} kept: a forged or foreign shard",
                              util::printable(entry.path().string()), chaos::shard_name(shard.file.campaign.shard)));
    }
    util::copy_plain_tree(entry.path(), to / name, util::FileCopy::bytes, kMaxKeptFileBytes);
  }
}

// The merged run while it is written: a directory of its own beside where it goes (mkdtemp), renamed
// into place once whole, removed with all it holds when the merge fails.
class RunUnderway {
 public:
  explicit RunUnderway(fs::path destination) : destination_(std::move(destination)) {
    fs::create_directories(destination_.parent_path());
    std::string pattern = (destination_.parent_path() / ".merging-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      throw Error(fmt::format("cannot create a directory in {}: {}", destination_.parent_path().string(),
                              std::strerror(errno)));
    }
    path_ = pattern;
    mode_t mask = ::umask(0);
    ::umask(mask);
    ::chmod(path_.c_str(), 0777 & ~mask);  // a run as create_directories makes it, not mkdtemp's 700
  }
  RunUnderway(const RunUnderway&) = delete;
  RunUnderway& operator=(const RunUnderway&) = delete;
  ~RunUnderway() {
    std::error_code ignored;
    if (!path_.empty()) fs::remove_all(path_, ignored);
  }

  const fs::path& path() const { return path_; }

  // Renames the run to its destination, which must not exist.
  void store() {
    if (::renameat2(AT_FDCWD, path_.c_str(), AT_FDCWD, destination_.c_str(), RENAME_NOREPLACE) != 0) {
      throw Error(fmt::format("cannot store the merged run as {}: {}", destination_.string(), std::strerror(errno)));
    }
    path_.clear();
  }

 private:
  fs::path destination_, path_;
};

// merge_shards, but that std::filesystem's errors go through as they are.
MergedRun merge(const std::vector<fs::path>& shard_dirs, const fs::path& chaos_dir) {
  std::vector<ShardRun> shards = check_shards(read_shards(shard_dirs));
  MergedRun merged{shards.front().file.campaign,
                   shards.front().file.setup,
                   {},
                   fingerprint(shards.front().file),
                   static_cast<int>(shards.size())};
  merged.campaign.shard = chaos::Shard{};
  merged.setup.run_dir = merged.setup.dir = new_run_dir(chaos_dir, merged.setup.seed);
  merged.cells = checker::empty_table(merged.campaign);
  RunUnderway run(merged.setup.run_dir);
  chaos::ChaosSetup written = merged.setup;
  written.run_dir = run.path();
  write_run_record(merged.campaign, written);
  PlanTally plan(merged.campaign);
  {
    lab::AppendFile out(run.path() / "trials.jsonl");  // in a run directory made new
    for (const ShardRun& shard : shards) {
      judge_trial_lines(
          shard.dir, shard.file.campaign, plan, merged.cells,
          [&](std::string_view text, const checker::TrialInput& input, const checker::TrialResult& result) {
            if (keeps_its_directory(input, result)) plan.keep(input.spec);
            out.append_line(text);
          });
      copy_kept_trials(shard, plan, run.path() / "trials");
    }
  }
  close_table(plan, merged.cells);
  checker::check_judged(merged.cells, fmt::format("the {} shards", shards.size()));
  seal_run(run.path());
  run.store();
  return merged;
}

}  // namespace

MergedRun merge_shards(const std::vector<fs::path>& shard_dirs, const fs::path& chaos_dir) {
  if (shard_dirs.empty()) throw UsageError("merge: no shard given");
  try {
    return merge(shard_dirs, chaos_dir);
  } catch (const fs::filesystem_error& e) {  // a shard unreadable, the data directory unwritable
    throw Error(fmt::format("merge: {}", e.what()));
  }
}

}  // namespace rlock::store
