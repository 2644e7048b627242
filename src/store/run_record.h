// A chaos run kept on disk, the Jepsen way, so that its checkers can be run again on it later
// (`rlock analyze`). A campaign's directory, chaos/runs/<UTC start time>-seed<S>/ under the lab
// directory, holds
//   run.json         the start time, the command line and environment (passwords blanked), the
//                    campaign and its setup (run_file.h)
//   trials.jsonl.gz  one line a trial: its spec and what judge() needs (trial_line.h)
//   chaos.json       the table as `rlock chaos --json` writes it (results/chaos_file.h), what
//                    `rlock report` reads
//   sealed.json      {format, state, trials_sha256}: written last, by seal_run(); state "complete"
//   trials/          the kept trials' directories, ROW-FAULT-NUMBER, each with its history
// Each file carries its format (results/file_format.h). While the campaign runs, its job
// processes append to trials.jsonl, whole lines (AppendFile); seal_run() compresses it when the
// campaign ends (gzip_file.h), then writes sealed.json with the SHA-256 of the trials uncompressed.
// A reader refuses a format newer than its own, a run that is not sealed complete, and trials
// whose digest is not the seal's: lines changed or removed after the seal. A seal written before
// the digest was has none; such a run's trials are checked by gzip's CRC and length alone. The
// digest finds a change made to the trials alone; whoever rewrites sealed.json too is not caught
// (it is no signature). A reader opens only regular files, never through a symbolic link
// (util/plain_files.h). A shard's run (`rlock chaos --shard K/N`) is the same, its trials those of
// its shard alone; `rlock merge` (merge.h) makes one run of the N.
//
// Functions on files; record_trial may be called from many processes at once, the rest from one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "chaos/campaign.h"
#include "checker/judge.h"
#include "store/run_file.h"

namespace rlock::store {

// chaos_dir/runs/<UTC time>-seed<S>, or <UTC time>-seed<S>-shard<K>of<N> for a shard's run (with
// -2, -3... when taken), not yet created.
std::filesystem::path new_run_dir(const std::filesystem::path& chaos_dir, std::uint64_t seed,
                                  const chaos::Shard& shard = {});
// Creates setup.run_dir and writes its run.json. Throws Error when it cannot.
void write_run_record(const chaos::Campaign& campaign, const chaos::ChaosSetup& setup);
// Appends the trial's line to run_dir/trials.jsonl.
void record_trial(const std::filesystem::path& run_dir, const checker::TrialInput& input);
// The directory of the trial `spec` under a campaign's trials/ and a run's: ROW-FAULT-NUMBER.
std::string trial_dir_name(const chaos::TrialSpec& spec);
// Keeps the campaign's kept trials (the directories in `trials`, anomalous or with a client's
// error) in run_dir/trials too, as hard links (copies across file systems): the next campaign
// clears `trials`, not the run. Names starting with a dot are the campaign's own records, not
// kept. Throws Error for anything in `trials` but regular files and directories
// (copy_plain_tree).
void keep_trials(const std::filesystem::path& run_dir, const std::filesystem::path& trials);
// 1: format and state, and since seals carry a digest trials_sha256, which a reader that knows
// no digest ignores: the number stays 1.
// A file without the field is refused.
inline constexpr int kSealFileFormat = 1;
inline constexpr const char* kSealedComplete = "complete";

// What a reader takes at most, so that a crafted run costs bounded memory.
inline constexpr std::uintmax_t kMaxRunFileBytes = 1 << 20;
inline constexpr std::uintmax_t kMaxSealFileBytes = 1 << 10;
inline constexpr std::size_t kMaxTrialLineBytes = 16 << 20;
inline constexpr std::uint64_t kMaxTrialsBytes = std::uint64_t{4} << 30;
inline constexpr std::uintmax_t kMaxKeptFileBytes = std::uintmax_t{256} << 20;  // a file of a kept trial

// What a sealed.json says: its state, the signal that stopped an interrupted campaign, and the
// digest of the trials uncompressed, absent from the seals written before it was.
struct Seal {
  std::string state;
  std::string signal;
  std::optional<std::string> trials_sha256;
};
// Throws Error, in one line, for a state missing, or a field of the wrong type (a digest that is
// not 64 lowercase hexadecimal digits).
Seal seal_from(const nlohmann::json& j);

// Compresses trials.jsonl into trials.jsonl.gz, removing trials.jsonl only once the copy reads
// back whole, then writes sealed.json (state complete). Throws Error when it cannot; trials.jsonl
// is then kept and the run left unsealed. sealed.json holds the trials' digest.
void seal_run(const std::filesystem::path& run_dir);
// Seals the run of a campaign stopped by `signal` before its trials were done: compressed as
// seal_run does, and marked with the file `interrupted`, naming the signal, which load_run refuses.
void seal_interrupted_run(const std::filesystem::path& run_dir, const std::string& signal);

// A run directory's run.json, once the run is known to be sealed complete: load_run's checks but
// those of the trials, and its errors.
RunFile load_run_file(const std::filesystem::path& run_dir);
// Calls `line` with each line of run_dir's trials.jsonl.gz, its text, its JSON object (format
// checked) and where it is ("PATH line N"). Throws Error, in one line, as load_run does for its
// trials file, and for a line whose fields `line` finds missing or of the wrong type. The digest
// is checked once the last line is given: a caller keeps nothing of the lines until it returns.
void for_each_trial_line(
    const std::filesystem::path& run_dir,
    const std::function<void(std::string_view text, const nlohmann::json& j, const std::string& where)>& line);

struct StoredRun {
  chaos::Campaign campaign;
  chaos::ChaosSetup setup;                  // the seed, TTL, wait mode and directories; no server addresses
  std::vector<checker::TrialInput> trials;  // in the campaign's order; a trial that left no line says so in `error`
};

// Reads a run directory. Throws Error, in one line, for a directory that is missing or not a run,
// a run not sealed complete, a truncated or damaged file, trials that are not the seal's, a file
// that is not a regular one (a symbolic link, a FIFO), a file or line over the sizes above, a
// field of the wrong type or out of its range (run_file.h), a trial line that names no trial of
// the campaign, a format newer than run_file.h's or trial_line.h's, and Interrupted for the run of an
// interrupted campaign.
StoredRun load_run(const std::filesystem::path& run_dir);

}  // namespace rlock::store
