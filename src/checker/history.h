// A trial's history, the Jepsen way: for every worker, one increment operation that ends ok (its
// amount is in the database), fail (surely not: rejected, or failed before writing) or info
// (unknown: killed mid-way, or a write whose answer was lost), with the critical sections it ran
// (read to write) and the fencing tokens the database accepted.
//
// Built from the run's events and the workers' exit statuses; written as history.jsonl when the
// trial is kept. Plain values; thread-safe.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "lab/event.h"

namespace rlock::checker {

enum class Outcome { ok, fail, info };
std::string_view to_string(Outcome outcome);

// One read-modify-write: read at `read_at`, its write sent at `wrote_at`, accepted or not.
struct Section {
  double read_at = 0;
  double wrote_at = 0;
  bool accepted = false;
  std::optional<long long> fence;
};

struct Operation {
  std::string worker;
  long long amount = 0;
  Outcome outcome = Outcome::info;
  std::vector<Section> sections;
  // A history's increment (workload.h): when it was sent and when its done came (or it ended
  // otherwise), in the run log's seconds. Unset for a one-increment trial's.
  std::optional<double> invoked_at{};
  std::optional<double> completed_at{};
};

// One nemesis operation a history struck: its fault, the worker it struck, when, and when it was
// healed (at the strike for one nothing heals, a crash), in the run log's seconds.
struct Strike {
  std::string fault;
  std::string worker;
  double at = 0;
  double healed_at = 0;
};

// How a worker process ended, as waitpid(2) told.
struct WorkerExit {
  std::string worker;
  long long amount = 0;
  bool exited = false;  // false: killed by a signal (or never reaped: timed out)
  int code = 0;         // the exit code when exited
  bool stuck = false;   // still running when the trial's time ran out, then killed
};

std::vector<Operation> history_from(const std::vector<lab::Event>& events, const std::vector<WorkerExit>& exits);

// Writes `history` to `path`, one operation a line (history.jsonl of a kept trial).
void write_history(const std::filesystem::path& path, const std::vector<Operation>& history);
// One operation as history.jsonl writes it, and back. operation_from throws Error on a field
// missing or of the wrong type.
nlohmann::json operation_json(const Operation& op);
Operation operation_from(const nlohmann::json& line);
// A strike as a stored history holds it, and back (operation_from's errors).
nlohmann::json strike_json(const Strike& strike);
Strike strike_from(const nlohmann::json& j);

}  // namespace rlock::checker
