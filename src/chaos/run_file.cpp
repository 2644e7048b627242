#include "chaos/run_file.h"

#include <fstream>
#include <optional>

#include <fmt/format.h>

#include "bank/account_store.h"
#include "rlock/error.h"
#include "rlock/redis_address.h"
#include "util/run_dir.h"

extern char** environ;

namespace rlock::chaos {
namespace {

using nlohmann::json;

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

json client_json(const protocol::ClientSpec& c) {
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
  for (const json& s : j.at("strategies")) c.strategies.push_back(parse_name<lab::Strategy>(s.get<std::string>(), lab::strategy_from, "strategy"));
  for (const json& f : j.at("faults")) c.faults.push_back(parse_name<Fault>(f.get<std::string>(), fault_from, "fault"));
  for (const json& k : j.at("clients")) {
    c.clients.push_back(protocol::ClientSpec{k.at("name").get<std::string>(), k.at("command").get<std::string>(),
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

}  // namespace

json run_file_json(const Campaign& campaign, const ChaosSetup& setup) {
  json strategies = json::array(), faults = json::array(), clients = json::array();
  for (lab::Strategy s : campaign.strategies) strategies.push_back(to_string(s));
  for (Fault f : campaign.faults) faults.push_back(to_string(f));
  for (const protocol::ClientSpec& c : campaign.clients) clients.push_back(client_json(c));
  return json{{"format", kRunFileFormat},
              {"started", util::utc_now("%Y-%m-%dT%H:%M:%SZ")},
              {"command", command_line()},
              {"environment", environment()},
              {"campaign", {{"strategies", strategies}, {"faults", faults}, {"clients", clients},
                            {"trials", campaign.trials}, {"jobs", campaign.jobs}}},
              {"setup", {{"seed", setup.seed}, {"ttl_ms", setup.ttl.count()}, {"wait", wait_mode_name(setup.wait)},
                         {"dir", setup.dir.string()}, {"first_account", setup.first_account},
                         {"failover_port", setup.failover_port}, {"redlock_port", setup.redlock_port},
                         {"redis", setup.redis.display()}, {"postgres", bank::describe_conninfo(setup.conninfo)}}}};
}

RunFile run_file_from(const json& j) { return RunFile{campaign_from(j.at("campaign")), setup_from(j.at("setup"))}; }

}  // namespace rlock::chaos
