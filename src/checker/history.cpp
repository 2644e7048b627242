#include "checker/history.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "lab/append_file.h"
#include "results/file_format.h"
#include "rlock/error.h"
#include "util/enum_names.h"

namespace rlock::checker {
namespace {

constexpr util::NameTable<Outcome, 3> kOutcomes{
    {{Outcome::ok, "ok"}, {Outcome::fail, "fail"}, {Outcome::info, "info"}}};

// What a worker's events say of its write: the error event, when there is one, decides.
Outcome outcome_of(const WorkerExit& exit, const std::vector<const lab::Event*>& errors, bool accepted_write) {
  if (!exit.exited) return accepted_write ? Outcome::ok : Outcome::info;
  if (exit.code == 0) return Outcome::ok;
  for (const lab::Event* error : errors) {
    if (error->added().value_or(false)) return Outcome::ok;
    if (error->in_doubt().value_or(false)) return Outcome::info;
  }
  return accepted_write ? Outcome::ok : Outcome::fail;
}

}  // namespace

std::string_view to_string(Outcome outcome) { return util::name_in(kOutcomes, outcome); }

std::vector<Operation> history_from(const std::vector<lab::Event>& events, const std::vector<WorkerExit>& exits) {
  std::vector<Operation> history;
  for (const WorkerExit& exit : exits) {
    Operation op{exit.worker, exit.amount, Outcome::info, {}};
    std::vector<const lab::Event*> errors;
    double read_at = -1;  // -1: no read since the last write
    bool accepted_write = false;
    for (const lab::Event& event : events) {
      if (event.who != exit.worker) continue;
      switch (event.kind) {
        case lab::EventKind::read: read_at = event.t; break;
        case lab::EventKind::wrote:
        case lab::EventKind::fenced_write: {
          bool accepted = event.kind == lab::EventKind::wrote || event.rowcount().value_or(0) > 0;
          std::optional<long long> fence = event.fence();
          double sent_at = event.sent_at().value_or(event.t);
          op.sections.push_back(Section{read_at < 0 ? sent_at : read_at, sent_at, accepted, fence});
          accepted_write = accepted_write || accepted;
          read_at = -1;
          break;
        }
        case lab::EventKind::pg_added:
          accepted_write = true;  // one statement: no section of its own to overlap
          break;
        case lab::EventKind::error: errors.push_back(&event); break;
        default: break;
      }
    }
    op.outcome = outcome_of(exit, errors, accepted_write);
    history.push_back(std::move(op));
  }
  return history;
}

nlohmann::json operation_json(const Operation& op) {
  nlohmann::json sections = nlohmann::json::array();
  for (const Section& s : op.sections) {
    nlohmann::json section{{"read_at", s.read_at}, {"wrote_at", s.wrote_at}, {"accepted", s.accepted}};
    if (s.fence) section["fence"] = *s.fence;
    sections.push_back(section);
  }
  nlohmann::json j{{"worker", op.worker},
                   {"f", "add"},
                   {"value", op.amount},
                   {"type", to_string(op.outcome)},
                   {"sections", sections}};
  if (op.invoked_at) j["invoked_at"] = *op.invoked_at;
  if (op.completed_at) j["completed_at"] = *op.completed_at;
  return j;
}

Operation operation_from(const nlohmann::json& line) {
  try {
    Operation op{
        line.at("worker").get<std::string>(), results::integer_at<long long>(line, "value"), Outcome::info, {}};
    auto outcome = util::value_in(kOutcomes, line.at("type").get<std::string>());
    if (!outcome) throw Error(fmt::format("unknown operation type '{}'", line.at("type").get<std::string>()));
    op.outcome = *outcome;
    for (const nlohmann::json& s : line.at("sections")) {
      Section section{s.at("read_at").get<double>(), s.at("wrote_at").get<double>(), s.at("accepted").get<bool>(), {}};
      if (s.contains("fence")) section.fence = results::integer_at<long long>(s, "fence");
      op.sections.push_back(section);
    }
    if (line.contains("invoked_at")) op.invoked_at = results::number_at(line, "invoked_at");
    if (line.contains("completed_at")) op.completed_at = results::number_at(line, "completed_at");
    return op;
  } catch (const nlohmann::json::exception& e) {
    throw Error(fmt::format("a history operation is malformed: {}", e.what()));
  }
}

nlohmann::json strike_json(const Strike& s) {
  return {{"fault", s.fault}, {"worker", s.worker}, {"at", s.at}, {"healed_at", s.healed_at}};
}

Strike strike_from(const nlohmann::json& j) {
  try {
    return Strike{j.at("fault").get<std::string>(), j.at("worker").get<std::string>(), results::number_at(j, "at"),
                  results::number_at(j, "healed_at")};
  } catch (const nlohmann::json::exception& e) {
    throw Error(fmt::format("a history's strike is malformed: {}", e.what()));
  }
}

void write_history(const std::filesystem::path& path, const std::vector<Operation>& history) {
  lab::AppendFile file(path);
  for (const Operation& op : history) file.append_line(operation_json(op).dump());
}

}  // namespace rlock::checker
