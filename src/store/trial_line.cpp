#include "store/trial_line.h"

#include "results/file_format.h"

namespace rlock::store {

using nlohmann::json;

TrialKey trial_key(const chaos::TrialSpec& spec) {
  return {chaos::row_name(spec), spec.client.has_value(), std::string(to_string(spec.fault)), spec.number};
}

json trial_line(const checker::TrialInput& input) {
  json history = json::array();
  for (const checker::Operation& op : input.history) history.push_back(checker::operation_json(op));
  json line{{"format", kTrialLineFormat},
            {"row", chaos::row_name(input.spec)},
            {"client", input.spec.client.has_value()},
            {"fault", to_string(input.spec.fault)},
            {"number", input.spec.number},
            {"ms", input.ms},
            {"error", input.error},
            {"client_error", input.client_error},
            {"not_run", input.not_run},
            {"history", history},
            {"stuck", input.stuck},
            {"struck", input.struck}};
  if (input.lock_reached_replica) line["lock_reached_replica"] = *input.lock_reached_replica;
  if (input.final_balance) line["balance"] = *input.final_balance;
  if (!input.balance_error.empty()) line["balance_error"] = input.balance_error;
  if (input.served) {
    const checker::ServedTally& served = *input.served;
    line["served"] = {{"stale_writes", served.stale_writes},
                      {"lost_money", served.lost_money},
                      {"repeated_writes", served.repeated_writes},
                      {"unwritten", served.unwritten}};
    if (served.balance) line["served"]["balance"] = *served.balance;
    if (served.expected_balance) line["served"]["expected_balance"] = *served.expected_balance;
    if (served.lost_increments > 0) line["served"]["lost_increments"] = served.lost_increments;
    if (!served.stale_write_times.empty()) line["served"]["stale_write_times"] = served.stale_write_times;
  }
  if (!input.strikes.empty()) {
    json strikes = json::array();
    for (const checker::Strike& s : input.strikes) strikes.push_back(checker::strike_json(s));
    line["strikes"] = strikes;
  }
  return line;
}

TrialKey trial_key_of(const json& line) {
  return {line.at("row").get<std::string>(), line.at("client").get<bool>(), line.at("fault").get<std::string>(),
          results::integer_at<int>(line, "number")};
}

checker::TrialInput trial_input_from(const json& line, const chaos::TrialSpec& spec) {
  checker::TrialInput input{spec};
  input.ms = line.at("ms").get<double>();
  input.error = line.at("error").get<std::string>();
  input.client_error = line.at("client_error").get<std::string>();
  input.not_run = line.at("not_run").get<bool>();
  if (line.contains("balance")) input.final_balance = results::integer_at<long long>(line, "balance");
  input.balance_error = line.value("balance_error", "");
  if (line.contains("served")) {
    const json& served = line.at("served");
    input.served = checker::ServedTally{.stale_writes = results::integer_at<int>(served, "stale_writes"),
                                        .lost_money = results::integer_at<long long>(served, "lost_money"),
                                        .repeated_writes = results::integer_at<int>(served, "repeated_writes", 0),
                                        .unwritten = results::integer_at<int>(served, "unwritten", 0)};
    if (served.contains("balance")) input.served->balance = results::integer_at<long long>(served, "balance");
    if (served.contains("expected_balance"))
      input.served->expected_balance = results::integer_at<long long>(served, "expected_balance");
    input.served->lost_increments = results::count_at<int>(served, "lost_increments", 0);
    for (const json& t : served.value("stale_write_times", json::array())) {
      input.served->stale_write_times.push_back(results::within(t.get<double>(), 0.0, 1e9, "stale_write_times"));
    }
  }
  for (const json& s : line.value("strikes", json::array())) input.strikes.push_back(checker::strike_from(s));
  for (const json& op : line.at("history")) input.history.push_back(checker::operation_from(op));
  for (const json& stuck : line.value("stuck", json::array())) input.stuck.push_back(stuck.get<bool>());
  input.struck = line.value("struck", false);
  if (line.contains("lock_reached_replica")) input.lock_reached_replica = line.at("lock_reached_replica").get<bool>();
  return input;
}

}  // namespace rlock::store
