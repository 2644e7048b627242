#include "chaos/run_record.h"

#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "chaos/gzip_file.h"
#include "chaos/run_file.h"
#include "chaos/trial_line.h"
#include "lab/append_file.h"
#include "rlock/error.h"
#include "runfiles/file_format.h"
#include "util/printable.h"
#include "util/run_dir.h"

namespace rlock::chaos {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

constexpr const char* kPlain = "trials.jsonl";
constexpr const char* kCompressed = "trials.jsonl.gz";
constexpr const char* kSealed = "sealed.json";
constexpr const char* kSealedInterrupted = "interrupted";

// Refuses a run whose campaign did not seal it complete. A run.json of format 1 comes from before
// sealed.json: its trials compressed (and read whole, CRC and length checked) were its seal.
void check_sealed(const fs::path& dir, int run_format) {
  if (fs::exists(dir / kPlain)) {
    throw Error(fmt::format("{} is not sealed: its {} was never compressed (the campaign is running or was stopped)",
                            dir.string(), kPlain));
  }
  if (run_format == 1 && !fs::exists(dir / kSealed)) return;
  if (!fs::exists(dir / kSealed)) {
    throw Error(
        fmt::format("{} is not sealed: it has no {} (the campaign is running or was stopped)", dir.string(), kSealed));
  }
  json seal = runfiles::read_json_file(dir / kSealed, kSealFileFormat, 0, kMaxSealFileBytes);
  auto state = seal.find("state");
  if (state == seal.end() || !state->is_string()) {
    throw Error(fmt::format("{} is not a seal: it has no state", (dir / kSealed).string()));
  }
  if (*state == kSealedInterrupted) {
    throw Interrupted(
        fmt::format("{} is the run of an interrupted campaign ({}): its trials were not all run, and "
                    "it is not judged",
                    dir.string(), util::printable(seal.value("signal", "a signal").substr(0, 16))));
  }
  if (*state != kSealedComplete) {
    throw Error(fmt::format("{} is not complete: it was sealed {}", dir.string(), state->dump()));
  }
}

// Each trial line of the run, read into the campaign's trial it names (`index`: trial_key ->
// position in `trials`). A line naming no trial of the campaign is refused; a trial named twice
// keeps its last line.
void read_trial_lines(const fs::path& dir, const std::map<TrialKey, std::size_t>& index,
                      std::vector<TrialInput>& trials) {
  for_each_trial_line(dir, [&](std::string_view, const json& j, const std::string& where) {
    auto found = index.find(trial_key_of(j));
    if (found == index.end()) throw Error(fmt::format("{} names no trial of the campaign", where));
    TrialInput& input = trials[found->second];
    input = trial_input_from(j, input.spec);
  });
}

// Compresses the trials, then writes `seal` as sealed.json.
void seal_as(const fs::path& run_dir, json seal) {
  if (fs::exists(run_dir / kPlain)) {
    gzip_file(run_dir / kPlain, run_dir / kCompressed);
    fs::remove(run_dir / kPlain);
  }
  seal["format"] = kSealFileFormat;
  runfiles::write_json_file(run_dir / kSealed, seal);
}

}  // namespace

fs::path new_run_dir(const fs::path& chaos_dir, std::uint64_t seed, const Shard& shard) {
  std::string part = shard.whole() ? "" : fmt::format("-shard{}of{}", shard.index, shard.count);
  return util::unused_path(chaos_dir / "runs" /
                           fmt::format("{}-seed{}{}", util::utc_now("%Y%m%dT%H%M%SZ"), seed, part));
}

void write_run_record(const Campaign& campaign, const ChaosSetup& setup) {
  fs::create_directories(setup.run_dir);
  runfiles::write_json_file(setup.run_dir / "run.json", run_file_json(campaign, setup));
}

void record_trial(const fs::path& run_dir, const TrialInput& input) {
  lab::AppendFile(run_dir / kPlain).append_line(trial_line(input).dump());
}

void keep_trials(const fs::path& run_dir, const fs::path& trials) {
  if (!fs::exists(trials)) return;
  fs::create_directories(run_dir / "trials");
  for (const fs::directory_entry& entry : fs::directory_iterator(trials)) {
    if (entry.path().filename().string().starts_with(".")) continue;  // the campaign's own records
    fs::path to = run_dir / "trials" / entry.path().filename();
    std::error_code linked;
    fs::copy(entry.path(), to, fs::copy_options::recursive | fs::copy_options::create_hard_links, linked);
    if (linked == std::errc::cross_device_link) {
      fs::copy(entry.path(), to, fs::copy_options::recursive | fs::copy_options::overwrite_existing);
    } else if (linked) {
      throw fs::filesystem_error("cannot keep a trial", entry.path(), to, linked);
    }
  }
}

void seal_run(const fs::path& run_dir) { seal_as(run_dir, json{{"state", kSealedComplete}}); }

void seal_interrupted_run(const fs::path& run_dir, const std::string& signal) {
  seal_as(run_dir, json{{"state", kSealedInterrupted}, {"signal", signal}});
}

RunFile load_run_file(const fs::path& dir) {
  if (!fs::is_directory(dir)) throw Error(fmt::format("{}: no such directory", dir.string()));
  fs::path record_path = dir / "run.json";
  if (!fs::exists(record_path)) {
    throw Error(fmt::format("{} is not a stored chaos run: it has no run.json", dir.string()));
  }
  int run_format = 0;
  RunFile file = runfiles::read_run_file(
      record_path, kRunFileFormat, 0, "a stored run's record",
      [&](const json& j) {
        run_format = j.at("format").get<int>();
        return run_file_from(j);
      },
      kMaxRunFileBytes);
  check_sealed(dir, run_format);
  return file;
}

void for_each_trial_line(const fs::path& dir,
                         const std::function<void(std::string_view, const json&, const std::string&)>& line) {
  fs::path path = dir / kCompressed;
  if (!fs::exists(path))
    throw Error(fmt::format("{} holds no {}: the run stored no trials", dir.string(), kCompressed));
  int number = 0;
  for_each_gzip_line(path, kMaxTrialLineBytes, kMaxTrialsBytes, [&](std::string_view text) {
    std::string where = fmt::format("{} line {}", path.string(), ++number);
    json j = json::parse(text, nullptr, false);
    if (!j.is_object()) throw Error(fmt::format("{} is not a JSON object (truncated?)", where));
    runfiles::check_format(j, kTrialLineFormat, where, 0);
    try {
      line(text, j, where);
    } catch (const json::exception& e) {
      throw Error(fmt::format("{} is malformed: {}", where, e.what()));
    }
  });
}

StoredRun load_run(const fs::path& dir) {
  RunFile file = load_run_file(dir);
  StoredRun run{file.campaign, file.setup, {}};
  run.setup.run_dir = dir;
  std::map<TrialKey, std::size_t> index;
  for (const TrialSpec& spec : all_trials(run.campaign)) {
    index.emplace(trial_key(spec), run.trials.size());
    run.trials.emplace_back(spec).error = kNoResult;
  }
  read_trial_lines(dir, index, run.trials);
  return run;
}

}  // namespace rlock::chaos
