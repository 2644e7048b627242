#include "runner/result_line.h"

#include <optional>

#include "results/file_format.h"

namespace rlock::runner {
namespace {

nlohmann::json check_json(const checker::CheckResult& c) {
  return {{"validity", to_string(c.validity)}, {"detail", c.detail}, {"amount", c.amount}, {"count", c.count}};
}

checker::CheckResult check_from(const nlohmann::json& j) {
  return {checker::validity_from(j.value("validity", "unknown")), j.value("detail", ""),
          results::count_at(j, "amount", 0LL), results::count_at(j, "count", 0)};
}

}  // namespace

nlohmann::json result_json(const checker::TrialResult& r) {
  return {{"lost", check_json(r.lost)},
          {"overlaps", check_json(r.overlaps)},
          {"fences", check_json(r.fences)},
          {"ok_ops", r.ok_ops},
          {"failed_ops", r.failed_ops},
          {"failed_amount", r.failed_amount},
          {"unknown_ops", r.unknown_ops},
          {"stuck_ops", r.stuck_ops},
          {"balance", check_json(r.balance)},
          {"unwritten_ops", r.unwritten_ops},
          {"struck", r.struck},
          {"lock_reached_replica", r.lock_reached_replica ? nlohmann::json(*r.lock_reached_replica) : nlohmann::json()},
          {"ms", r.ms},
          {"error", r.error},
          {"client_error", r.client_error},
          {"not_run", r.not_run},
          {"judged", r.judged},
          {"history", r.history},
          {"increments", r.increments},
          {"lost_increments", r.lost_increments},
          {"faults_struck", r.faults_struck},
          {"faults_followed_by_loss", r.faults_followed_by_loss},
          {"started_after_heal", r.started_after_heal},
          {"ok_after_heal", r.ok_after_heal}};
}

checker::TrialResult result_from(const nlohmann::json& line, const chaos::TrialSpec& spec) {
  return checker::TrialResult{
      .spec = spec,
      .lost = check_from(line.value("lost", nlohmann::json::object())),
      .overlaps = check_from(line.value("overlaps", nlohmann::json::object())),
      .fences = check_from(line.value("fences", nlohmann::json::object())),
      .ok_ops = results::count_at(line, "ok_ops", 0),
      .failed_ops = results::count_at(line, "failed_ops", 0),
      .failed_amount = results::count_at(line, "failed_amount", 0LL),
      .unknown_ops = results::count_at(line, "unknown_ops", 0),
      .stuck_ops = results::count_at(line, "stuck_ops", 0),
      .balance = check_from(line.value("balance", nlohmann::json::object())),
      .unwritten_ops = results::count_at(line, "unwritten_ops", 0),
      .struck = line.value("struck", false),
      .lock_reached_replica = line.contains("lock_reached_replica") && line["lock_reached_replica"].is_boolean()
                                  ? std::optional<bool>(line["lock_reached_replica"].get<bool>())
                                  : std::nullopt,
      .ms = line.value("ms", 0.0),
      .error = line.value("error", ""),
      .client_error = line.value("client_error", ""),
      .not_run = line.value("not_run", false),
      .judged = line.value("judged", false),
      .history = line.value("history", false),
      .increments = results::count_at(line, "increments", 0),
      .lost_increments = results::count_at(line, "lost_increments", 0),
      .faults_struck = results::count_at(line, "faults_struck", 0),
      .faults_followed_by_loss = results::count_at(line, "faults_followed_by_loss", 0),
      .started_after_heal = results::count_at(line, "started_after_heal", 0),
      .ok_after_heal = results::count_at(line, "ok_after_heal", 0)};
}

}  // namespace rlock::runner
