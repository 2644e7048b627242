#include "chaos/run_record.h"

#include <zlib.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <tuple>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bank/account_store.h"
#include "lab/append_file.h"
#include "rlock/error.h"
#include "rlock/redis_address.h"
#include "util/run_dir.h"

extern char** environ;

namespace rlock {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

constexpr const char* kPlain = "trials.jsonl";
constexpr const char* kCompressed = "trials.jsonl.gz";

json command_line() {
  json args = json::array();
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  for (std::string arg; std::getline(in, arg, '\0');) args.push_back(blank_passwords(arg));
  return args;
}

// The variables that can change a run: rlock's, the servers', libpq's and the locale.
json environment() {
  json env = json::object();
  for (char** e = environ; *e != nullptr; ++e) {
    std::string entry = *e;
    std::string name = entry.substr(0, entry.find('=')), value = entry.substr(name.size() + 1);
    bool kept = name.starts_with("RLOCK_") || name.starts_with("PG") || name == "REDIS_URL" ||
                name == "DATABASE_URL" || name == "LANG" || name.starts_with("LC_") || name == "PATH";
    if (kept) env[name] = name == "PGPASSWORD" ? "***" : blank_passwords(value);
  }
  return env;
}

json client_json(const ClientSpec& c) {
  return {{"name", c.name}, {"command", blank_passwords(c.command)}, {"servers", c.servers}, {"expected_safe", c.expected_safe}};
}

template <typename T, typename Parse>
T parse_name(const std::string& name, Parse&& parse, const char* what) {
  auto value = parse(name);
  if (!value) throw Error(fmt::format("unknown {} '{}'", what, name));
  return *value;
}

Campaign campaign_from(const json& j) {
  Campaign c;
  for (const json& s : j.at("strategies")) c.strategies.push_back(parse_name<Strategy>(s.get<std::string>(), strategy_from, "strategy"));
  for (const json& f : j.at("faults")) c.faults.push_back(parse_name<Fault>(f.get<std::string>(), fault_from, "fault"));
  for (const json& k : j.at("clients")) {
    c.clients.push_back(ClientSpec{k.at("name").get<std::string>(), k.at("command").get<std::string>(),
                                   k.at("servers").get<int>(), k.at("expected_safe").get<bool>()});
  }
  c.trials = j.at("trials").get<int>();
  c.jobs = j.at("jobs").get<int>();
  return c;
}

ChaosSetup setup_from(const json& j) {
  ChaosSetup s;
  s.seed = j.at("seed").get<std::uint64_t>();
  s.ttl = std::chrono::milliseconds(j.at("ttl_ms").get<long>());
  s.wait = parse_name<WaitMode>(j.at("wait").get<std::string>(), [](const std::string& name) -> std::optional<WaitMode> {
    auto modes = wait_modes_by_name();
    auto it = modes.find(name);
    return it == modes.end() ? std::nullopt : std::optional(it->second);
  }, "wait mode");
  s.dir = j.at("dir").get<std::string>();
  s.first_account = j.at("first_account").get<long>();
  s.failover_port = j.at("failover_port").get<int>();
  s.redlock_port = j.at("redlock_port").get<int>();
  return s;
}

// A trial's identity in a run: its row, whether that is a client, its fault and its number.
using TrialKey = std::tuple<std::string, bool, std::string, int>;
TrialKey key_of(const TrialSpec& spec) {
  return {row_name(spec), spec.client.has_value(), std::string(to_string(spec.fault)), spec.number};
}

TrialInput input_from(const json& line, const TrialSpec& spec) {
  TrialInput input{spec};
  input.ms = line.at("ms").get<double>();
  input.error = line.at("error").get<std::string>();
  input.client_error = line.at("client_error").get<std::string>();
  input.not_run = line.at("not_run").get<bool>();
  if (line.contains("balance")) input.final_balance = line.at("balance").get<long long>();
  input.balance_error = line.value("balance_error", "");
  if (line.contains("served")) {
    input.served = ServedTally{line.at("served").at("stale_writes").get<int>(), line.at("served").at("lost_money").get<long long>()};
  }
  for (const json& op : line.at("history")) input.history.push_back(operation_from(op));
  for (const json& stuck : line.value("stuck", json::array())) input.stuck.push_back(stuck.get<bool>());
  input.struck = line.value("struck", false);
  if (line.contains("lock_reached_replica")) input.lock_reached_replica = line.at("lock_reached_replica").get<bool>();
  return input;
}

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

void check_format(const json& j, const std::string& where) {
  int format = j.value("format", 0);
  if (format > kRunFormat) {
    throw Error(fmt::format("{}: format {} is newer than this rlock reads ({}): analyze it with a newer rlock", where,
                            format, kRunFormat));
  }
  if (format < 1) throw Error(fmt::format("{}: no format number: not written by rlock chaos", where));
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
    check_format(j, where);
    try {
      lines[{j.at("row").get<std::string>(), j.at("client").get<bool>(), j.at("fault").get<std::string>(),
             j.at("number").get<int>()}] = j;
    } catch (const json::exception& e) {
      throw Error(fmt::format("{} is malformed: {}", where, e.what()));
    }
  }
  return lines;
}

}  // namespace

fs::path new_run_dir(const fs::path& chaos_dir, std::uint64_t seed) {
  return unused_path(chaos_dir / "runs" / fmt::format("{}-seed{}", utc_now("%Y%m%dT%H%M%SZ"), seed));
}

void write_run_record(const Campaign& campaign, const ChaosSetup& setup) {
  json strategies = json::array(), faults = json::array(), clients = json::array();
  for (Strategy s : campaign.strategies) strategies.push_back(to_string(s));
  for (Fault f : campaign.faults) faults.push_back(to_string(f));
  for (const ClientSpec& c : campaign.clients) clients.push_back(client_json(c));
  json record{{"format", kRunFormat},
              {"started", utc_now("%Y-%m-%dT%H:%M:%SZ")},
              {"command", command_line()},
              {"environment", environment()},
              {"campaign", {{"strategies", strategies}, {"faults", faults}, {"clients", clients},
                            {"trials", campaign.trials}, {"jobs", campaign.jobs}}},
              {"setup", {{"seed", setup.seed}, {"ttl_ms", setup.ttl.count()}, {"wait", wait_mode_name(setup.wait)},
                         {"dir", setup.dir.string()}, {"first_account", setup.first_account},
                         {"failover_port", setup.failover_port}, {"redlock_port", setup.redlock_port},
                         {"redis", setup.redis.display()}, {"postgres", describe_conninfo(setup.conninfo)}}}};
  fs::create_directories(setup.run_dir);
  std::ofstream out(setup.run_dir / "run.json");
  out << record.dump(2) << "\n";
  if (!out) throw Error(fmt::format("cannot write {}", (setup.run_dir / "run.json").string()));
}

void record_trial(const fs::path& run_dir, const TrialInput& input) {
  json history = json::array();
  for (const Operation& op : input.history) history.push_back(operation_json(op));
  json line{{"format", kRunFormat}, {"row", row_name(input.spec)}, {"client", input.spec.client.has_value()},
            {"fault", to_string(input.spec.fault)}, {"number", input.spec.number}, {"ms", input.ms},
            {"error", input.error}, {"client_error", input.client_error}, {"not_run", input.not_run},
            {"history", history}, {"stuck", input.stuck}, {"struck", input.struck}};
  if (input.lock_reached_replica) line["lock_reached_replica"] = *input.lock_reached_replica;
  if (input.final_balance) line["balance"] = *input.final_balance;
  if (!input.balance_error.empty()) line["balance_error"] = input.balance_error;
  if (input.served) line["served"] = {{"stale_writes", input.served->stale_writes}, {"lost_money", input.served->lost_money}};
  AppendFile(run_dir / kPlain).append_line(line.dump());
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
  std::ifstream in(record_path);
  json record = json::parse(in, nullptr, false);
  if (!record.is_object()) throw Error(fmt::format("{} is not JSON (truncated?)", record_path.string()));
  check_format(record, record_path.string());
  StoredRun run;
  try {
    run.campaign = campaign_from(record.at("campaign"));
    run.setup = setup_from(record.at("setup"));
  } catch (const json::exception& e) {
    throw Error(fmt::format("{} is malformed: {}", record_path.string(), e.what()));
  }
  run.setup.run_dir = dir;
  std::map<TrialKey, json> lines = trial_lines(dir);
  for (const TrialSpec& spec : all_trials(run.campaign)) {
    auto line = lines.find(key_of(spec));
    if (line == lines.end()) {
      run.trials.emplace_back(spec).error = kNoResult;
      continue;
    }
    try {
      run.trials.push_back(input_from(line->second, spec));
    } catch (const json::exception& e) {
      throw Error(fmt::format("{}'s trial {} {} {} is malformed: {}", dir.string(), row_name(spec),
                              to_string(spec.fault), spec.number, e.what()));
    }
  }
  return run;
}

}  // namespace rlock
