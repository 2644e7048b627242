#include "scenario/scenario_file.h"

#include <algorithm>
#include <cstdint>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "chaos/campaign.h"
#include "checker/classification.h"
#include "protocol/client_list.h"
#include "results/file_format.h"
#include "rlock/error.h"
#include "util/printable.h"

namespace rlock::scenario {
namespace {

using nlohmann::json;

constexpr std::size_t kMaxTextBytes = 1000;
constexpr std::size_t kMaxSequenceSteps = 20;

// A value as a line may show it: printable and short.
std::string shown(const json& value) {
  std::string text = util::printable(value.dump());
  return text.size() > 60 ? text.substr(0, 57) + "..." : text;
}

[[noreturn]] void refuse(std::string_view field, std::string_view problem) {
  throw Error(fmt::format("{} {}", field, problem));
}

const json& field(const json& j, const char* key) {
  if (!j.contains(key)) refuse(key, "is missing");
  return j.at(key);
}

// `value`, the field `name`: a string of 1 to kMaxTextBytes printable bytes.
std::string text_of(const json& value, std::string_view name) {
  const std::string* string = value.is_string() ? &value.get_ref<const std::string&>() : nullptr;
  if (string == nullptr || string->empty() || string->size() > kMaxTextBytes || util::printable(*string) != *string)
    refuse(name, fmt::format("is {}, not a text of 1 to {} printable characters", shown(value), kMaxTextBytes));
  return *string;
}

std::string text(const json& j, const char* key, std::string_view path = "") {
  return text_of(field(j, key), path.empty() ? std::string(key) : fmt::format("{}.{}", path, key));
}

long long integer(const json& j, const char* key, long long low, long long high) {
  const json& value = field(j, key);
  bool fits = value.is_number_integer() &&
              (value.is_number_unsigned() ? value.get<std::uint64_t>() <= static_cast<std::uint64_t>(high) &&
                                                static_cast<long long>(value.get<std::uint64_t>()) >= low
                                          : value.get<long long>() >= low && value.get<long long>() <= high);
  if (!fits) refuse(key, fmt::format("is {}, not an integer from {} to {}", shown(value), low, high));
  return value.get<long long>();
}

const json::array_t& list(const json& j, const char* key, std::size_t most) {
  const json& value = field(j, key);
  if (!value.is_array() || value.empty() || value.size() > most)
    refuse(key, fmt::format("is {}, not a list of 1 to {}", shown(value), most));
  return value.get_ref<const json::array_t&>();
}

void check_keys(const json& j, std::string_view where, std::initializer_list<std::string_view> keys) {
  for (const auto& [key, value] : j.items()) {
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
      refuse(where.empty() ? util::printable(key) : fmt::format("{}.{}", where, util::printable(key)),
             "is no field of a scenario");
    }
  }
}

Report report_from(const json& j) {
  const json& r = field(j, "report");
  if (!r.is_object()) refuse("report", "is not an object of url, title and claims");
  check_keys(r, "report", {"url", "title", "claims"});
  Report report{text(r, "url", "report"), text(r, "title", "report"), text(r, "claims", "report")};
  if (!report.url.starts_with("https://") || report.url.find_first_of(" \"'<>") != std::string::npos)
    refuse("report.url", fmt::format("is {}, not an https:// address", shown(report.url)));
  return report;
}

std::vector<std::string> versions_from(const json& j) {
  std::vector<std::string> versions;
  for (const json& v : list(j, "versions", kMaxVersions)) {
    if (!v.is_string() || !protocol::is_version_number(v.get<std::string>()))
      refuse("versions", fmt::format("holds {}, not a version (digits and letters with a dot: 3.4.3)", shown(v)));
    if (std::find(versions.begin(), versions.end(), v.get<std::string>()) != versions.end())
      refuse("versions", fmt::format("names {} twice", shown(v)));
    versions.push_back(v.get<std::string>());
  }
  return versions;
}

std::vector<checker::Loss> losses_from(const json& j) {
  std::vector<checker::Loss> losses;
  for (const json& name : list(j, "loss", checker::all_losses().size())) {
    std::optional<checker::Loss> loss = name.is_string() ? checker::loss_from(name.get<std::string>()) : std::nullopt;
    if (!loss) {
      std::string known;
      for (checker::Loss l : checker::all_losses()) known += (known.empty() ? "" : ", ") + std::string(to_string(l));
      refuse("loss", fmt::format("holds {}, not one of {}", shown(name), known));
    }
    if (std::find(losses.begin(), losses.end(), *loss) != losses.end())
      refuse("loss", fmt::format("names {} twice", shown(name)));
    losses.push_back(*loss);
  }
  return losses;
}

chaos::Fault fault_from(const json& j) {
  std::string fault = text(j, "fault");
  std::optional<chaos::Fault> known = chaos::fault_from(fault);
  if (!known) {
    std::string names;
    for (chaos::Fault f : chaos::all_faults()) names += (names.empty() ? "" : ", ") + std::string(to_string(f));
    refuse("fault", fmt::format("is {}, not one of {}", shown(fault), names));
  }
  return *known;
}

// The history's workload (its workers `workers`) and schedule, checked as chaos checks
// --increments, --duration and --nemesis.
ScenarioHistory history_from(const json& j, int workers) {
  const json& h = field(j, "history");
  if (!h.is_object()) refuse("history", "is not an object of increments or duration_s, and nemesis");
  check_keys(h, "history", {"increments", "duration_s", "nemesis"});
  ScenarioHistory history;
  history.workload.workers = workers;
  if (h.contains("increments") == h.contains("duration_s")) refuse("history", "wants one of increments and duration_s");
  if (h.contains("increments")) {
    history.workload.increments = static_cast<int>(integer(h, "increments", 1, chaos::kMaxHistoryIncrements));
  } else {
    const json& d = h.at("duration_s");
    if (!d.is_number() || !(d.get<double>() > 0) || d.get<double>() > chaos::kMaxHistorySeconds)
      refuse("history.duration_s",
             fmt::format("is {}, not a number of seconds above 0, {} at most", shown(d), chaos::kMaxHistorySeconds));
    history.workload.duration_s = d.get<double>();
  }
  std::string nemesis = text(h, "nemesis", "history");
  try {
    history.nemesis = chaos::parse_schedule(nemesis, workers);
    chaos::check_schedule(history.nemesis, history.workload);
  } catch (const UsageError& e) {
    std::string_view why = e.what();  // "--nemesis 'STEP': ..." or "--nemesis: ..."
    if (why.starts_with("--nemesis")) why.remove_prefix(std::string_view("--nemesis").size());
    if (why.starts_with(":")) why.remove_prefix(1);
    why.remove_prefix(std::min(why.find_first_not_of(' '), why.size()));
    refuse("history.nemesis", fmt::format("is refused: {}", why));
  }
  return history;
}

// fidelity, one of replays, partly and not replayed, and differs: a text unless it replays, none
// when it does.
void fidelity_from(const json& j, Scenario& s) {
  std::string fidelity = text(j, "fidelity");
  for (Fidelity f : {Fidelity::replays, Fidelity::partly, Fidelity::not_replayed}) {
    if (fidelity == to_string(f)) s.fidelity = f;
  }
  if (s.fidelity == Fidelity::unstated)
    refuse("fidelity", fmt::format("is {}, not one of replays, partly, not replayed", shown(fidelity)));
  if (s.fidelity == Fidelity::replays && j.contains("differs"))
    refuse("differs", "is for a scenario that does not replay its report wholly: its fidelity is replays");
  if (s.fidelity != Fidelity::replays) s.differs = text(j, "differs");
}

}  // namespace

Scenario read_scenario(std::string_view bytes) {
  if (bytes.size() > kMaxScenarioFileBytes) throw Error(fmt::format("over {} bytes", kMaxScenarioFileBytes));
  json j;
  try {
    j = results::parse_json(bytes);
  } catch (const json::exception& e) {
    throw Error(fmt::format("not JSON: {}", util::printable(e.what())));
  } catch (const Error& e) {
    throw Error(fmt::format("not JSON rlock reads: {}", e.what()));
  }
  if (!j.is_object()) throw Error("not a JSON object");
  check_keys(j, "",
             {"format", "name", "report", "client", "versions", "fault", "history", "ttl_ms", "workers", "trials",
              "loss", "sequence", "fidelity", "differs", "topology"});
  long long format = integer(j, "format", 1, kScenarioFileFormat);
  for (const char* key : {"history", "fidelity", "differs", "topology"}) {
    if (format < 2 && j.contains(key)) refuse(key, "is a field of format 2, not of format 1");
  }
  if (j.contains("fault") == j.contains("history")) refuse("fault", "or history: one of them, not both or neither");
  Scenario s;
  s.name = text(j, "name");
  if (!protocol::is_client_name(s.name))
    refuse("name", fmt::format("is {}, not 1 to 32 letters, digits, _ or -", shown(s.name)));
  s.report = report_from(j);
  s.client = text(j, "client");
  if (!protocol::is_client_name(s.client))
    refuse("client", fmt::format("is {}, not a catalogue name (rlock clients)", shown(s.client)));
  s.versions = versions_from(j);
  bool history = j.contains("history");
  s.ttl_ms = static_cast<long>(integer(j, "ttl_ms", chaos::kMinTtlMs, chaos::kMaxTtlMs));
  s.workers = static_cast<int>(integer(j, "workers", history ? chaos::kMinHistoryWorkers : kMinWorkers,
                                       history ? chaos::kMaxHistoryWorkers : kMaxWorkers));
  if (history) {
    s.history = history_from(j, s.workers);
    s.fault = s.history->nemesis.steps.front().fault;
  } else {
    s.fault = fault_from(j);
  }
  s.trials = static_cast<int>(integer(j, "trials", 1, kMaxScenarioTrials));
  s.loss = losses_from(j);
  for (const json& step : list(j, "sequence", kMaxSequenceSteps)) s.sequence.push_back(text_of(step, "sequence"));
  if (format >= 2) fidelity_from(j, s);
  if (j.contains("topology")) {
    std::string topology = text(j, "topology");
    std::optional<chaos::Topology> t = chaos::topology_from(topology);
    if (!t) refuse("topology", fmt::format("is {}, not one of {}", shown(topology), chaos::kTopologies));
    s.topology = *t;
  }
  return s;
}

std::string_view to_string(Fidelity fidelity) {
  switch (fidelity) {
    case Fidelity::replays: return "replays";
    case Fidelity::partly: return "partly";
    case Fidelity::not_replayed: return "not replayed";
    case Fidelity::unstated: break;
  }
  return "unstated";
}

std::vector<chaos::Fault> scenario_faults(const Scenario& scenario) {
  if (!scenario.history) return {scenario.fault};
  std::vector<chaos::Fault> faults;
  for (const chaos::NemesisStep& step : scenario.history->nemesis.steps) {
    if (std::find(faults.begin(), faults.end(), step.fault) == faults.end()) faults.push_back(step.fault);
  }
  return faults;
}

std::string strikes_text(const Scenario& scenario) {
  std::string text;
  for (chaos::Fault fault : scenario_faults(scenario))
    text += fmt::format("{}{}", text.empty() ? "" : "+", to_string(fault));
  return text;
}

bool showed_loss(const checker::TrialResult& trial, const std::vector<checker::Loss>& losses) {
  checker::Classification shown = checker::classify(trial);
  return std::any_of(losses.begin(), losses.end(), [&](checker::Loss loss) { return shown.shows(loss); });
}

}  // namespace rlock::scenario
