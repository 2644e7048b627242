#include "store/run_record.h"

#include <map>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "lab/append_file.h"
#include "results/file_format.h"
#include "rlock/error.h"
#include "store/gzip_file.h"
#include "store/run_file.h"
#include "store/trial_line.h"
#include "util/plain_files.h"
#include "util/printable.h"
#include "util/run_dir.h"

namespace rlock::store {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

constexpr const char* kPlain = "trials.jsonl";
constexpr const char* kCompressed = "trials.jsonl.gz";
constexpr const char* kSealed = "sealed.json";
constexpr const char* kSealedInterrupted = "interrupted";

constexpr const char* kDigest = "trials_sha256";

// Whether something, a link included, stands at `path`.
bool present(const fs::path& path) {
  std::error_code ec;
  return fs::exists(fs::symlink_status(path, ec));
}

// The JSON object of a run's file `path`, read as a regular file alone, its format checked.
json read_run_member(const fs::path& path, int newest, std::uintmax_t max_bytes) {
  json j;
  try {
    j = results::parse_json(util::read_plain_file(path, max_bytes));
  } catch (const json::exception&) {  // not JSON: said below
  } catch (const Error& e) {
    throw Error(fmt::format("{} is {}: more than rlock reads", path.string(), e.what()));
  }
  if (!j.is_object()) throw Error(fmt::format("{} is not a JSON object (truncated?)", path.string()));
  results::check_format(j, newest, path.string(), 0);
  return j;
}

// The run's sealed.json; nullopt when it has none.
std::optional<Seal> read_seal(const fs::path& dir) {
  if (!present(dir / kSealed)) return std::nullopt;
  json j = read_run_member(dir / kSealed, kSealFileFormat, kMaxSealFileBytes);
  try {
    return seal_from(j);
  } catch (const Error& e) {
    throw Error(fmt::format("{} is not a seal: {}", (dir / kSealed).string(), e.what()));
  }
}

// Refuses a run whose campaign did not seal it complete. A run.json of format 1 comes from before
// sealed.json: its trials compressed (and read whole, CRC and length checked) were its seal.
void check_sealed(const fs::path& dir, int run_format) {
  if (present(dir / kPlain)) {
    throw Error(fmt::format("{} is not sealed: its {} was never compressed (the campaign is running or was stopped)",
                            dir.string(), kPlain));
  }
  std::optional<Seal> seal = read_seal(dir);
  if (run_format == 1 && !seal) return;
  if (!seal) {
    throw Error(
        fmt::format("{} is not sealed: it has no {} (the campaign is running or was stopped)", dir.string(), kSealed));
  }
  if (seal->state == kSealedInterrupted) {
    throw chaos::Interrupted(
        fmt::format("{} is the run of an interrupted campaign ({}): its trials were not all run, and "
                    "it is not judged",
                    dir.string(), util::printable(seal->signal.empty() ? "a signal" : seal->signal.substr(0, 16))));
  }
  if (seal->state != kSealedComplete) {
    throw Error(fmt::format("{} is not complete: it was sealed {}", dir.string(), json(seal->state).dump()));
  }
}

// Each trial line of the run, read into the campaign's trial it names (`index`: trial_key ->
// position in `trials`). A line naming no trial of the campaign is refused; a trial named twice
// keeps its last line.
void read_trial_lines(const fs::path& dir, const std::map<TrialKey, std::size_t>& index,
                      std::vector<checker::TrialInput>& trials) {
  for_each_trial_line(dir, [&](std::string_view, const json& j, const std::string& where) {
    auto found = index.find(trial_key_of(j));
    if (found == index.end()) throw Error(fmt::format("{} names no trial of the campaign", where));
    checker::TrialInput& input = trials[found->second];
    input = trial_input_from(j, input.spec);
  });
}

// Compresses the trials, then writes `seal` as sealed.json with their digest.
void seal_as(const fs::path& run_dir, json seal) {
  if (present(run_dir / kPlain)) {
    seal[kDigest] = gzip_file(run_dir / kPlain, run_dir / kCompressed);
    fs::remove(run_dir / kPlain);
  } else if (present(run_dir / kCompressed)) {  // compressed before: its digest read back
    seal[kDigest] = for_each_gzip_line(run_dir / kCompressed, kMaxTrialLineBytes, kMaxTrialsBytes, [](auto) {});
  }
  seal["format"] = kSealFileFormat;
  results::write_json_file(run_dir / kSealed, seal);
}

}  // namespace

fs::path new_run_dir(const fs::path& chaos_dir, std::uint64_t seed, const chaos::Shard& shard) {
  std::string part = shard.whole() ? "" : fmt::format("-shard{}of{}", shard.index, shard.count);
  return util::unused_path(chaos_dir / "runs" /
                           fmt::format("{}-seed{}{}", util::utc_now("%Y%m%dT%H%M%SZ"), seed, part));
}

void write_run_record(const chaos::Campaign& campaign, const chaos::ChaosSetup& setup) {
  fs::create_directories(setup.run_dir);
  results::write_json_file(setup.run_dir / "run.json", run_file_json(campaign, setup));
}

void record_trial(const fs::path& run_dir, const checker::TrialInput& input) {
  lab::AppendFile(run_dir / kPlain).append_line(trial_line(input).dump());
}

std::string trial_dir_name(const chaos::TrialSpec& spec) {
  return fmt::format("{}-{}-{}", chaos::row_name(spec), to_string(spec.fault), spec.number);
}

void keep_trials(const fs::path& run_dir, const fs::path& trials) {
  if (!fs::exists(trials)) return;
  fs::create_directories(run_dir / "trials");
  for (const fs::directory_entry& entry : fs::directory_iterator(trials)) {
    if (entry.path().filename().string().starts_with(".")) continue;  // the campaign's own records
    util::copy_plain_tree(entry.path(), run_dir / "trials" / entry.path().filename(), util::FileCopy::hard_link,
                          kMaxKeptFileBytes);
  }
}

Seal seal_from(const json& j) {
  auto state = j.find("state");
  if (state == j.end() || !state->is_string()) throw Error("it has no state");
  Seal seal{state->get<std::string>(), {}, {}};
  if (auto signal = j.find("signal"); signal != j.end()) {
    if (!signal->is_string()) throw Error("its signal is not a name");
    seal.signal = signal->get<std::string>();
  }
  if (auto digest = j.find(kDigest); digest != j.end()) {
    bool hex = digest->is_string() && digest->get_ref<const std::string&>().size() == 64 &&
               digest->get_ref<const std::string&>().find_first_not_of("0123456789abcdef") == std::string::npos;
    if (!hex) throw Error(fmt::format("its {} is not a SHA-256 in 64 hexadecimal digits", kDigest));
    seal.trials_sha256 = digest->get<std::string>();
  }
  return seal;
}

void seal_run(const fs::path& run_dir) { seal_as(run_dir, json{{"state", kSealedComplete}}); }

void seal_interrupted_run(const fs::path& run_dir, const std::string& signal) {
  seal_as(run_dir, json{{"state", kSealedInterrupted}, {"signal", signal}});
}

RunFile load_run_file(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw Error(fmt::format("{}: no such directory", dir.string()));
  fs::path record_path = dir / "run.json";
  if (!present(record_path)) {
    throw Error(fmt::format("{} is not a stored chaos run: it has no run.json", dir.string()));
  }
  json record = read_run_member(record_path, kRunFileFormat, kMaxRunFileBytes);
  RunFile file;
  try {
    file = run_file_from(record);
  } catch (const json::exception& e) {
    throw Error(fmt::format("{} is not a stored run's record: {}", record_path.string(), e.what()));
  } catch (const Error& e) {
    throw Error(fmt::format("{} is not a stored run's record: {}", record_path.string(), e.what()));
  }
  check_sealed(dir, record.at("format").get<int>());
  return file;
}

void for_each_trial_line(const fs::path& dir,
                         const std::function<void(std::string_view, const json&, const std::string&)>& line) {
  fs::path path = dir / kCompressed;
  if (!present(path)) throw Error(fmt::format("{} holds no {}: the run stored no trials", dir.string(), kCompressed));
  std::optional<Seal> seal = read_seal(dir);
  int number = 0;
  std::string digest = for_each_gzip_line(path, kMaxTrialLineBytes, kMaxTrialsBytes, [&](std::string_view text) {
    std::string where = fmt::format("{} line {}", path.string(), ++number);
    json j = results::parse_json_or_discarded(text);
    if (!j.is_object()) throw Error(fmt::format("{} is not a JSON object (truncated?)", where));
    results::check_format(j, kTrialLineFormat, where, 0);
    try {
      line(text, j, where);
    } catch (const json::exception& e) {
      throw Error(fmt::format("{} is malformed: {}", where, e.what()));
    }
  });
  if (seal && seal->trials_sha256 && *seal->trials_sha256 != digest) {
    throw Error(
        fmt::format("{} is not what its {} sealed: its SHA-256 differs (its trials changed after the run "
                    "was sealed)",
                    path.string(), kSealed));
  }
}

StoredRun load_run(const fs::path& dir) {
  RunFile file = load_run_file(dir);
  StoredRun run{file.campaign, file.setup, {}};
  run.setup.run_dir = dir;
  std::map<TrialKey, std::size_t> index;
  for (const chaos::TrialSpec& spec : chaos::all_trials(run.campaign)) {
    index.emplace(trial_key(spec), run.trials.size());
    run.trials.emplace_back(spec).error = chaos::kNoResult;
  }
  read_trial_lines(dir, index, run.trials);
  return run;
}

}  // namespace rlock::store
