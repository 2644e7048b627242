#include "results/chaos_file.h"

#include "results/file_format.h"

namespace rlock::results {
namespace {

nlohmann::json cell_json(const ChaosFileCell& c) {
  nlohmann::json j{{"strategy", c.strategy},
                   {"fault", c.fault},
                   {"client", c.client},
                   {"client_error", c.client_error},
                   {"not_run", c.not_run},
                   {"expected_safe", c.expected_safe},
                   {"trials", c.trials},
                   {"anomalies", c.anomalies},
                   {"lost_updates", c.lost_updates},
                   {"lost_amount", c.lost_amount},
                   {"overlaps", c.overlaps},
                   {"failed", c.failed},
                   {"dropped_amount", c.dropped_amount},
                   {"unknown", c.unknown},
                   {"stuck", c.stuck},
                   {"struck", c.struck},
                   {"unwritten", c.unwritten},
                   {"created", c.created},
                   {"created_amount", c.created_amount},
                   {"rate", c.rate},
                   {"ci_low", c.ci_low},
                   {"ci_high", c.ci_high},
                   {"median_trial_ms", c.median_trial_ms},
                   {"kept_trials", c.kept_trials}};
  if (c.unjudged != c.client_error) j["unjudged"] = c.unjudged;  // as in the files written before it
  if (!c.not_applicable.empty()) j["not_applicable"] = c.not_applicable;
  if (!c.replica.empty()) j["replica"] = c.replica;
  if (c.increments > 0) {
    j["history"] = {{"increments", c.increments},
                    {"lost_increments", c.lost_increments},
                    {"faults_struck", c.faults_struck},
                    {"faults_followed_by_loss", c.faults_followed_by_loss}};
  }
  return j;
}

ChaosFileCell cell_from(const nlohmann::json& j) {
  nlohmann::json history = j.value("history", nlohmann::json::object());
  return ChaosFileCell{.strategy = j.at("strategy").get<std::string>(),
                       .fault = j.at("fault").get<std::string>(),
                       .client = j.value("client", false),
                       .client_error = count_at(j, "client_error", 0L),
                       .unjudged = count_at(j, "unjudged", count_at(j, "client_error", 0L)),
                       .not_run = count_at(j, "not_run", 0L),
                       .expected_safe = j.at("expected_safe").get<bool>(),
                       .trials = count_at<long>(j, "trials"),
                       .anomalies = count_at<long>(j, "anomalies"),
                       .lost_updates = count_at<long>(j, "lost_updates"),
                       .lost_amount = count_at<long long>(j, "lost_amount"),
                       .overlaps = count_at<long>(j, "overlaps"),
                       .failed = count_at<long>(j, "failed"),
                       .dropped_amount = count_at<long long>(j, "dropped_amount"),
                       .unknown = count_at(j, "unknown", 0L),
                       .stuck = count_at(j, "stuck", 0L),
                       .unwritten = count_at(j, "unwritten", 0L),
                       .created = count_at(j, "created", 0L),
                       .created_amount = count_at(j, "created_amount", 0LL),
                       .struck = count_at(j, "struck", 0L),
                       .rate = number_at(j, "rate", 0, 1),
                       .ci_low = number_at(j, "ci_low", 0, 1),
                       .ci_high = number_at(j, "ci_high", 0, 1),
                       .median_trial_ms = number_at(j, "median_trial_ms"),
                       .kept_trials = j.at("kept_trials").get<std::vector<std::string>>(),
                       .not_applicable = j.value("not_applicable", ""),
                       .replica = j.value("replica", ""),
                       .increments = count_at(history, "increments", 0L),
                       .lost_increments = count_at(history, "lost_increments", 0L),
                       .faults_struck = count_at(history, "faults_struck", 0L),
                       .faults_followed_by_loss = count_at(history, "faults_followed_by_loss", 0L)};
}

}  // namespace

nlohmann::json to_json(const ChaosFile& file) {
  nlohmann::json cells = nlohmann::json::array();
  for (const ChaosFileCell& c : file.cells) cells.push_back(cell_json(c));
  return {{"format", kChaosFileFormat}, {"seed", file.seed},
          {"ttl_ms", file.ttl_ms},      {"trials_per_cell", file.trials_per_cell},
          {"wait", file.wait},          {"cells", cells}};
}

ChaosFile chaos_file_from(const nlohmann::json& j) {
  ChaosFile file{
      integer_at<std::uint64_t>(j, "seed"),
      within(integer_at<long>(j, "ttl_ms"), 1L, std::numeric_limits<long>::max(), "ttl_ms"),
      within(integer_at<long>(j, "trials_per_cell"), 1L, std::numeric_limits<long>::max(), "trials_per_cell"),
      j.at("wait").get<std::string>(),
      {}};
  for (const nlohmann::json& c : j.at("cells")) file.cells.push_back(cell_from(c));
  return file;
}

void write_chaos_file(const std::filesystem::path& path, const ChaosFile& file) {
  write_json_file(path, to_json(file));
}

ChaosFile read_chaos_file(const std::filesystem::path& path) {
  return read_run_file(path, kChaosFileFormat, 1, "a chaos run's table", chaos_file_from);
}

}  // namespace rlock::results
