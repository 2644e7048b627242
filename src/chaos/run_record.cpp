#include "chaos/run_record.h"

#include <zlib.h>

#include <map>
#include <memory>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "chaos/run_file.h"
#include "chaos/trial_line.h"
#include "lab/append_file.h"
#include "rlock/error.h"
#include "runfiles/file_format.h"
#include "util/run_dir.h"

namespace rlock::chaos {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

constexpr const char* kPlain = "trials.jsonl";
constexpr const char* kCompressed = "trials.jsonl.gz";

// The whole of `path`, decompressed (zlib reads a plain file as it is). Throws Error when the
// compressed stream is cut short or damaged.
std::string read_all(const fs::path& path) {
  std::unique_ptr<gzFile_s, int (*)(gzFile)> file(gzopen(path.c_str(), "rb"), gzclose);
  if (!file) throw Error(fmt::format("cannot read {}", path.string()));
  std::string text;
  char buffer[1 << 16];
  for (;;) {
    int n = gzread(file.get(), buffer, sizeof buffer);
    if (n < 0) {
      int code = 0;
      const char* message = gzerror(file.get(), &code);
      throw Error(fmt::format("{} is damaged or truncated: {}", path.string(), message));
    }
    if (n == 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
  }
  return text;
}

// Every trial line of the run, by trial.
std::map<TrialKey, json> trial_lines(const fs::path& dir) {
  fs::path path = fs::exists(dir / kCompressed) ? dir / kCompressed : dir / kPlain;
  if (!fs::exists(path)) throw Error(fmt::format("{} holds no {}: the run stored no trials", dir.string(), kCompressed));
  std::string text = read_all(path);
  if (!text.empty() && text.back() != '\n') {
    throw Error(fmt::format("{} is truncated: its last line is cut short", path.string()));
  }
  std::map<TrialKey, json> lines;
  std::istringstream in(text);
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    json j = json::parse(line, nullptr, false);
    std::string where = fmt::format("{} line {}", path.string(), number);
    if (!j.is_object()) throw Error(fmt::format("{} is not a JSON object (truncated?)", where));
    runfiles::check_format(j, kTrialLineFormat, where, 0);
    try {
      lines[trial_key_of(j)] = j;
    } catch (const json::exception& e) {
      throw Error(fmt::format("{} is malformed: {}", where, e.what()));
    }
  }
  return lines;
}

}  // namespace

fs::path new_run_dir(const fs::path& chaos_dir, std::uint64_t seed) {
  return util::unused_path(chaos_dir / "runs" / fmt::format("{}-seed{}", util::utc_now("%Y%m%dT%H%M%SZ"), seed));
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
    fs::copy(entry.path(), run_dir / "trials" / entry.path().filename(),
             fs::copy_options::recursive | fs::copy_options::create_hard_links);
  }
}

void seal_run(const fs::path& run_dir) {
  if (!fs::exists(run_dir / kPlain)) return;
  std::string text = read_all(run_dir / kPlain);
  fs::path target = run_dir / kCompressed;
  std::unique_ptr<gzFile_s, int (*)(gzFile)> file(gzopen(target.c_str(), "wb"), gzclose);
  bool written = file && (text.empty() || gzwrite(file.get(), text.data(), static_cast<unsigned>(text.size())) > 0);
  if (!written || gzclose(file.release()) != Z_OK) throw Error(fmt::format("cannot write {}", target.string()));
  fs::remove(run_dir / kPlain);
}

StoredRun load_run(const fs::path& dir) {
  if (!fs::is_directory(dir)) throw Error(fmt::format("{}: no such directory", dir.string()));
  fs::path record_path = dir / "run.json";
  if (!fs::exists(record_path)) {
    throw Error(fmt::format("{} is not a stored chaos run: it has no run.json", dir.string()));
  }
  RunFile file = runfiles::read_run_file(record_path, kRunFileFormat, 0, "a stored run's record", run_file_from);
  StoredRun run{file.campaign, file.setup, {}};
  run.setup.run_dir = dir;
  std::map<TrialKey, json> lines = trial_lines(dir);
  for (const TrialSpec& spec : all_trials(run.campaign)) {
    auto line = lines.find(trial_key(spec));
    if (line == lines.end()) {
      run.trials.emplace_back(spec).error = kNoResult;
      continue;
    }
    try {
      run.trials.push_back(trial_input_from(line->second, spec));
    } catch (const json::exception& e) {
      throw Error(fmt::format("{}'s trial {} {} {} is malformed: {}", dir.string(), row_name(spec),
                              to_string(spec.fault), spec.number, e.what()));
    }
  }
  return run;
}

}  // namespace rlock::chaos
