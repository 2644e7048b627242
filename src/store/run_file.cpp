#include "store/run_file.h"

#include <algorithm>
#include <fstream>
#include <limits>
#include <optional>

#include <fmt/format.h>

#include "bank/account_store.h"
#include "chaos/workload.h"
#include "protocol/client_list.h"
#include "results/file_format.h"
#include "rlock/error.h"
#include "rlock/redis_address.h"
#include "util/run_dir.h"
#include "util/seeded_random.h"

extern char** environ;

namespace rlock::store {
namespace {

using nlohmann::json;

json command_line() {
  json args = json::array();
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  for (std::string arg; std::getline(in, arg, '\0');) args.push_back(protocol::blank_command_secrets(arg));
  return args;
}

// The variables that can change a run: rlock's, the servers', libpq's and the locale.
json environment() {
  json env = json::object();
  for (char** e = environ; *e != nullptr; ++e) {
    std::string entry = *e;
    std::string name = entry.substr(0, entry.find('=')), value = entry.substr(name.size() + 1);
    bool kept = name.starts_with("RLOCK_") || name.starts_with("PG") || name == "REDIS_URL" || name == "DATABASE_URL" ||
                name == "LANG" || name.starts_with("LC_") || name == "PATH";
    if (kept) env[name] = name == "PGPASSWORD" ? "***" : blank_passwords(value);
  }
  return env;
}

json client_json(const protocol::ClientSpec& c) {
  json j{{"name", c.name},
         {"command", protocol::blank_command_secrets(c.command)},
         {"servers", c.servers},
         {"expected_safe", c.expected_safe},
         {"server", protocol::to_string(c.server)}};
  if (c.skewable_clock) j["skewable_clock"] = true;  // which cells are n/a depends on it
  if (c.cluster) j["cluster"] = true;                // so does this
  return j;
}

template <typename T, typename Parse>
T parse_name(const json& j, Parse&& parse, const char* what) {
  if (!j.is_string()) throw Error(fmt::format("a {} is {}, not a name", what, j.dump()));
  auto value = parse(j.get<std::string>());
  if (!value) throw Error(fmt::format("unknown {} {}", what, j.dump()));
  return *value;
}

// j[key], an integer from `low` to `high`.
long long integer(const json& j, const char* key, long long low, long long high) {
  const json& value = j.at(key);
  bool fits = value.is_number_integer() &&
              (value.is_number_unsigned() ? value.get<std::uint64_t>() <= static_cast<std::uint64_t>(high)
                                          : value.get<long long>() >= low && value.get<long long>() <= high);
  if (!fits) throw Error(fmt::format("{} is {}, not an integer from {} to {}", key, value.dump(), low, high));
  return value.get<long long>();
}

// j[key]'s names, each parsed, none given twice.
template <typename T, typename Parse>
std::vector<T> name_list(const json& j, const char* key, Parse&& parse, const char* what) {
  std::vector<T> values;
  for (const json& name : j.at(key).get_ref<const json::array_t&>()) {
    T value = parse_name<T>(name, parse, what);
    if (std::find(values.begin(), values.end(), value) != values.end()) {
      throw Error(fmt::format("{} names the {} {} twice", key, what, name.dump()));
    }
    values.push_back(value);
  }
  return values;
}

protocol::ClientSpec client_from(const json& k, const std::vector<protocol::ClientSpec>& before) {
  protocol::ClientSpec c{k.at("name").get<std::string>(), k.at("command").get<std::string>(),
                         static_cast<int>(integer(k, "servers", 1, 3)), k.at("expected_safe").get<bool>()};
  if (!protocol::is_client_row_name(c.name) || lab::strategy_from(c.name))
    throw Error(fmt::format("client name {} is not one", k.at("name").dump()));
  if (c.servers == 2) throw Error("a client's servers are 1 or 3, not 2");
  // Runs stored before clients had a kind of server were all Redis clients.
  if (k.contains("server"))
    c.server = parse_name<protocol::ServerKind>(k.at("server"), protocol::server_kind_from, "server kind");
  if (k.contains("cluster")) {
    if (!k.at("cluster").is_boolean()) throw Error("a client's cluster is not true or false");
    c.cluster = k.at("cluster").get<bool>();
  }
  if (k.contains("skewable_clock")) {
    if (!k.at("skewable_clock").is_boolean()) throw Error("a client's skewable_clock is not true or false");
    c.skewable_clock = k.at("skewable_clock").get<bool>();
  }
  bool twice =
      std::any_of(before.begin(), before.end(), [&](const protocol::ClientSpec& b) { return b.name == c.name; });
  if (twice) throw Error(fmt::format("the client {} is named twice", c.name));
  return c;
}

chaos::Campaign campaign_from(const json& j) {
  chaos::Campaign c;
  c.strategies = name_list<lab::Strategy>(j, "strategies", lab::strategy_from, "strategy");
  c.faults = name_list<chaos::Fault>(j, "faults", chaos::recorded_fault_from, "fault");
  for (const json& k : j.at("clients").get_ref<const json::array_t&>()) c.clients.push_back(client_from(k, c.clients));
  c.trials = static_cast<int>(integer(j, "trials", 1, chaos::kMaxTrialsACell));
  c.jobs = static_cast<int>(integer(j, "jobs", 1, chaos::kMaxJobs));
  if (j.contains("topology"))
    c.topology = parse_name<chaos::Topology>(j.at("topology"), chaos::topology_from, "topology");
  if (chaos::planned_trials(c) > chaos::kMaxTrialsARun) {
    throw Error(
        fmt::format("the campaign runs {} trials: at most {} a run", chaos::planned_trials(c), chaos::kMaxTrialsARun));
  }
  return c;
}

// A history's workload: its workers (`workers`, which it needs) and its increments or seconds.
chaos::Workload workload_from(const json& j, int workers) {
  if (workers == 0) throw Error("a history's setup has no workers");
  chaos::Workload w{workers, 0, 0};
  if (j.contains("increments"))
    w.increments = static_cast<int>(integer(j, "increments", 1, chaos::kMaxHistoryIncrements));
  if (j.contains("duration_s")) w.duration_s = j.at("duration_s").get<double>();
  try {
    chaos::check_workload(w);
  } catch (const UsageError& e) {
    throw Error(fmt::format("a history's setup: {}", e.what()));
  }
  return w;
}

chaos::ChaosSetup setup_from(const json& j) {
  chaos::ChaosSetup s;
  s.seed = results::integer_at<std::uint64_t>(j, "seed");
  s.ttl = std::chrono::milliseconds(integer(j, "ttl_ms", chaos::kMinTtlMs, chaos::kMaxTtlMs));
  s.wait = parse_name<WaitMode>(
      j.at("wait"),
      [](const std::string& name) -> std::optional<WaitMode> {
        auto modes = wait_modes_by_name();
        auto it = modes.find(name);
        return it == modes.end() ? std::nullopt : std::optional(it->second);
      },
      "wait mode");
  s.dir = j.at("dir").get<std::string>();
  s.first_account = integer(j, "first_account", 0, std::numeric_limits<int>::max());
  s.failover_port = static_cast<int>(integer(j, "failover_port", chaos::kMinOwnPort, chaos::kMaxOwnPort));
  s.redlock_port = static_cast<int>(integer(j, "redlock_port", chaos::kMinOwnPort, chaos::kMaxOwnPort));
  if (j.contains("cluster_port"))
    s.cluster_port = static_cast<int>(integer(j, "cluster_port", chaos::kMinOwnPort, chaos::kMaxOwnPort));
  // Runs stored before it was recorded ran without --netns.
  if (j.contains("netns")) s.netns = j.at("netns").get<bool>();
  // A scenario's 2 to 4, or a history's up to 8.
  if (j.contains("workers")) s.workers = static_cast<int>(integer(j, "workers", 2, chaos::kMaxHistoryWorkers));
  if (j.contains("increments") || j.contains("duration_s")) s.workload = workload_from(j, s.workers);
  if (j.contains("nemesis")) {
    if (!s.workload.history()) throw Error("nemesis: a schedule of no history (no increments or duration_s)");
    try {
      s.nemesis = chaos::parse_schedule(j.at("nemesis").get<std::string>(), s.workers);
      chaos::check_schedule(*s.nemesis, s.workload);
    } catch (const UsageError& e) {
      throw Error(fmt::format("nemesis: {}", e.what()));
    }
  }
  return s;
}

// A scenario's name is a client's name; a version holds a dot (scenario/scenario_file.h).
chaos::ScenarioLabel scenario_label_from(const json& j) {
  chaos::ScenarioLabel label{j.at("name").get<std::string>(), j.at("version").get<std::string>()};
  if (!protocol::is_client_name(label.name) || !protocol::is_version_number(label.version))
    throw Error(fmt::format("scenario {} is not a scenario's name and version", j.dump()));
  return label;
}

json plan_json(const chaos::Campaign& campaign) {
  json strategies = json::array(), faults = json::array(), clients = json::array();
  for (lab::Strategy s : campaign.strategies) strategies.push_back(to_string(s));
  for (chaos::Fault f : campaign.faults) faults.push_back(to_string(f));
  for (const protocol::ClientSpec& c : campaign.clients) clients.push_back(client_json(c));
  json plan{{"strategies", strategies}, {"faults", faults}, {"clients", clients}, {"trials", campaign.trials}};
  // Runs of one server, the only topology before it was recorded, keep their plans' fingerprints.
  if (campaign.topology != chaos::Topology::single) plan["topology"] = to_string(campaign.topology);
  return plan;
}

chaos::Shard shard_from(const json& j, const RunFile& run) {
  chaos::Shard shard{static_cast<int>(integer(j, "index", 1, chaos::kMaxShards)),
                     static_cast<int>(integer(j, "count", 1, chaos::kMaxShards))};
  if (shard.index > shard.count)
    throw Error(fmt::format("shard {}/{}: its index is past its count", shard.index, shard.count));
  std::string stated = j.at("fingerprint").get<std::string>(), computed = fingerprint(run);
  if (stated != computed) {
    throw Error(fmt::format("shard {}/{}: its fingerprint {} is not its campaign's, {}", shard.index, shard.count,
                            json(stated).dump(), computed));
  }
  return shard;
}

}  // namespace

std::string_view rlock_version() { return RLOCK_VERSION; }

json plan_fields(const RunFile& run) {
  json fields = plan_json(run.campaign);
  fields["seed"] = run.setup.seed;
  fields["ttl_ms"] = run.setup.ttl.count();
  fields["wait"] = wait_mode_name(run.setup.wait);
  fields["rlock_version"] = run.rlock_version;
  fields["netns"] = run.setup.netns;
  if (run.setup.trial_workers() != 0) fields["workers"] = run.setup.trial_workers();
  return fields;
}

std::string fingerprint(const RunFile& run) {
  json fields = plan_fields(run);
  // The plans of shards stored before netns was recorded were hashed without it, and ran without it.
  if (!run.setup.netns) fields.erase("netns");
  return fmt::format("{:016x}", util::fnv1a(fields.dump()));
}

json run_file_json(const chaos::Campaign& campaign, const chaos::ChaosSetup& setup) {
  json campaign_json = plan_json(campaign);
  campaign_json["jobs"] = campaign.jobs;
  json file{{"format", kRunFileFormat},
            {"started", util::utc_now("%Y-%m-%dT%H:%M:%SZ")},
            {"rlock_version", rlock_version()},
            {"command", command_line()},
            {"environment", environment()},
            {"campaign", campaign_json},
            {"setup",
             {{"seed", setup.seed},
              {"ttl_ms", setup.ttl.count()},
              {"wait", wait_mode_name(setup.wait)},
              {"dir", setup.dir.string()},
              {"first_account", setup.first_account},
              {"failover_port", setup.failover_port},
              {"redlock_port", setup.redlock_port},
              {"netns", setup.netns},
              {"redis", setup.redis.display()},
              {"postgres", bank::describe_conninfo(setup.conninfo)}}}};
  if (setup.trial_workers() != 0) file["setup"]["workers"] = setup.trial_workers();
  if (setup.workload.increments > 0) file["setup"]["increments"] = setup.workload.increments;
  if (setup.workload.duration_s > 0) file["setup"]["duration_s"] = setup.workload.duration_s;
  if (campaign.topology == chaos::Topology::cluster) file["setup"]["cluster_port"] = setup.cluster_port;
  if (setup.workload.history() && setup.nemesis) file["setup"]["nemesis"] = chaos::to_string(*setup.nemesis);
  if (setup.scenario) file["scenario"] = {{"name", setup.scenario->name}, {"version", setup.scenario->version}};
  const chaos::Shard& shard = campaign.shard;
  if (!shard.whole()) {
    file["shard"] = {{"index", shard.index},
                     {"count", shard.count},
                     {"fingerprint", fingerprint(RunFile{campaign, setup, std::string(rlock_version())})}};
  }
  return file;
}

RunFile run_file_from(const json& j) {
  RunFile run{campaign_from(j.at("campaign")), setup_from(j.at("setup")), j.value("rlock_version", "")};
  if (j.contains("scenario")) run.setup.scenario = scenario_label_from(j.at("scenario"));
  if (j.contains("shard")) run.campaign.shard = shard_from(j.at("shard"), run);
  return run;
}

}  // namespace rlock::store
