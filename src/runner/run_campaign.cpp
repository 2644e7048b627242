#include "runner/run_campaign.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>

#include <fmt/format.h>

#include "bank/account_store.h"
#include "chaos/job.h"
#include "chaos/needed_servers.h"
#include "chaos/netns_job.h"
#include "chaos/workload.h"
#include "checker/classification.h"
#include "host/redis_server.h"
#include "lab/strategy_list.h"
#include "rlock/redis_connection.h"
#include "runner/campaign_lock.h"
#include "runner/interruption.h"
#include "runner/job_runner.h"
#include "store/run_record.h"
#include "util/progress.h"

namespace rlock::runner {
namespace {

// Prints the client's first error, in one line, and how many of its trials were not run.
void report_client_errors(const std::string& name, const std::vector<checker::TrialResult>& results) {
  auto of_client = [&](const checker::TrialResult& r) { return r.spec.client && r.spec.client->name == name; };
  auto first = std::find_if(results.begin(), results.end(), [&](const checker::TrialResult& r) {
    return of_client(r) && !r.client_error.empty() && !r.not_run;
  });
  if (first == results.end()) return;
  auto skipped = std::count_if(results.begin(), results.end(),
                               [&](const checker::TrialResult& r) { return of_client(r) && r.not_run; });
  fmt::print(stderr, "chaos: client error: {}{}\n", first->client_error,
             skipped
                 ? fmt::format(" ({} of its trials not run: its first {} all failed this way)", skipped, kGiveUpAfter)
                 : "");
}

// The servers the campaign needs, checked before any trial runs: the shared ones answer (one error
// here rather than one per job), Redis can be struck when a fault strikes it, --netns can run, and
// the jobs' own servers start. Returns the setup the jobs run on.
chaos::ChaosSetup check_servers(const chaos::Campaign& campaign, const chaos::ChaosSetup& setup) {
  RedisConnection{setup.redis};
  bank::AccountStore{setup.conninfo};
  for (chaos::Fault f : campaign.faults) {
    if (f->strikes_server()) chaos::check_strikable(setup.redis, f);
  }
  chaos::ChaosSetup jobs_setup = setup;  // under --netns, PostgreSQL through its Unix socket
  jobs_setup.topology = campaign.topology;
  if (setup.netns) {
    chaos::check_netns(campaign, setup);
    jobs_setup.conninfo = chaos::netns_conninfo(setup.conninfo);
  }
  return jobs_setup;
}

void check_own_servers_of(const chaos::Campaign& campaign, const chaos::ChaosSetup& setup) {
  bool three_servers = lab::any_on_three_servers(campaign.strategies) ||
                       std::any_of(campaign.clients.begin(), campaign.clients.end(),
                                   [](const protocol::ClientSpec& c) { return c.servers == 3; });
  std::vector<protocol::ServerKind> clusters;  // the kinds of the clients that run on a cluster
  for (const chaos::TrialSpec& cell : chaos::planned_cells(campaign)) {
    if (setup.topology == chaos::Topology::cluster && cell.client &&
        std::find(clusters.begin(), clusters.end(), cell.client->server) == clusters.end())
      clusters.push_back(cell.client->server);
  }
  chaos::check_own_servers(
      setup, campaign.jobs,
      std::any_of(campaign.faults.begin(), campaign.faults.end(), [](chaos::Fault f) { return f->runs_own_redis(); }),
      three_servers, clusters);
}

void print_first_line(const chaos::Campaign& campaign, const chaos::ChaosSetup& setup) {
  const chaos::Shard& shard = campaign.shard;
  fmt::print(
      "rlock chaos: seed {}, {} trials a cell, TTL {}ms, {} jobs, {} strategies{} x {} faults{}{}{}\n", setup.seed,
      campaign.trials, setup.ttl.count(), campaign.jobs, campaign.strategies.size(),
      campaign.clients.empty() ? "" : fmt::format(" and {} clients", campaign.clients.size()), campaign.faults.size(),
      setup.wait == WaitMode::notify    ? ", waiters notified"
      : setup.wait == WaitMode::queue   ? ", waiters queued"
      : setup.wait == WaitMode::handoff ? ", the lock handed over to queued waiters"
                                        : "",
      chaos::history_text(setup.workload, setup.nemesis),
      shard.whole()
          ? ""
          : fmt::format(", shard {}/{} of plan {}", shard.index, shard.count,
                        store::fingerprint(store::RunFile{campaign, setup, std::string(store::rlock_version())})));
  std::fflush(stdout);
}

// The trials side by side, then the redis-restart ones one at a time (they would crash each
// other's Redis), unless the first lost a server the harness needs.
std::vector<checker::TrialResult> run_plan(const chaos::TrialPlan& plan, const chaos::Campaign& campaign,
                                           const chaos::ChaosSetup& setup, const chaos::ChaosSetup& jobs_setup) {
  std::size_t done_before = 0, anomalies_before = 0;
  util::Progress line(stderr, "chaos", "trials", plan.side_by_side.size() + plan.one_by_one.size());
  auto progress = [&](std::size_t done, std::size_t anomalies) {
    line.update(done_before + done, fmt::format("{} with an anomaly", anomalies_before + anomalies));
  };
  if (setup.netns) host::NetnsBridge::cleanup_leftovers();
  std::vector<checker::TrialResult> results = run_trials(plan.side_by_side, jobs_setup, campaign.jobs, progress);
  if (setup.netns) host::NetnsBridge::cleanup_leftovers();  // those of a job killed
  done_before = results.size();
  anomalies_before = static_cast<std::size_t>(
      std::count_if(results.begin(), results.end(), [](const checker::TrialResult& r) { return checker::anomaly(r); }));
  auto lost =
      std::find_if(results.begin(), results.end(), [](const checker::TrialResult& r) { return r.harness_lost; });
  if (interruption() != 0) {
    for (const chaos::TrialSpec& spec : plan.one_by_one) {
      results.push_back(checker::TrialResult{.spec = spec, .error = chaos::kNotRunInterrupted, .not_run = true});
    }
  } else if (lost == results.end()) {
    std::vector<checker::TrialResult> restarts = run_trials(plan.one_by_one, jobs_setup, 1, progress);
    results.insert(results.end(), restarts.begin(), restarts.end());
  } else {
    std::string error = lost->error;
    for (const chaos::TrialSpec& spec : plan.one_by_one) {
      results.push_back(checker::TrialResult{.spec = spec, .error = error, .not_run = true, .harness_lost = true});
    }
  }
  line.finish();
  return results;
}

// Says how many trials could not run, and each client's first error.
void report_errors(const chaos::Campaign& campaign, const std::vector<checker::TrialResult>& results) {
  auto could_not = [](const checker::TrialResult& r) { return !r.error.empty() && !r.harness_lost; };
  if (auto not_run = std::count_if(results.begin(), results.end(), could_not); not_run > 0) {
    fmt::print(stderr, "chaos: {} trials could not run (not_run, not judged); the first: {}\n", not_run,
               std::find_if(results.begin(), results.end(), could_not)->error);
  }
  for (const protocol::ClientSpec& client : campaign.clients) report_client_errors(client.name, results);
}

// The shared Redis's process when a trial crashes and restarts it (check_strikable vouched for
// it): an interruption between the crash and the start must not leave it down.
std::optional<host::RedisProcess> restartable_shared_redis(const chaos::Campaign& campaign,
                                                           const chaos::ChaosSetup& setup) {
  if (std::none_of(campaign.faults.begin(), campaign.faults.end(), [](chaos::Fault f) { return f->one_at_a_time(); })) {
    return std::nullopt;
  }
  RedisConnection redis(setup.redis);
  return host::local_redis_process(redis);
}

// Starts the shared Redis again when it does not answer (a restart trial's job was killed between
// the crash and the start); says so in one line when it cannot.
void restore_shared_redis(const RedisAddress& address, const std::optional<host::RedisProcess>& process) {
  if (!process) return;
  try {
    RedisConnection(address).checked({"PING"});
    return;
  } catch (const Error&) {
  }
  try {
    host::start_redis(*process, address);
    fmt::print(stderr, "chaos: the shared Redis at {} started again (a restart trial was cut short)\n",
               address.display());
  } catch (const Error& e) {
    fmt::print(stderr, "chaos: the shared Redis at {} is down: {}\n", address.display(), e.what());
  }
}

// The end of an interrupted campaign: the shared Redis running, the trials kept, the run sealed as
// interrupted; throws Interrupted.
[[noreturn]] void end_interrupted(const chaos::ChaosSetup& setup, const std::optional<host::RedisProcess>& shared,
                                  const std::vector<checker::TrialResult>& results) {
  restore_shared_redis(setup.redis, shared);
  std::string signal = signal_name(interruption());
  if (!setup.run_dir.empty()) {
    store::keep_trials(setup.run_dir, setup.dir / "trials");
    store::seal_interrupted_run(setup.run_dir, signal);
  }
  auto checked =
      std::count_if(results.begin(), results.end(), [](const checker::TrialResult& r) { return !r.not_run; });
  throw chaos::Interrupted(
      fmt::format("chaos: interrupted by {}: {} of {} trials checked{}", signal, checked, results.size(),
                  setup.run_dir.empty() ? "" : "; the run is sealed as interrupted in " + setup.run_dir.string()));
}

}  // namespace

std::vector<checker::TrialResult> run_campaign(const chaos::Campaign& campaign, const chaos::ChaosSetup& setup) {
  CampaignLock lock(setup.dir);
  CatchInterruptions interruptions;
  chaos::TrialPlan plan = chaos::plan_trials(campaign);
  chaos::ChaosSetup jobs_setup = check_servers(campaign, setup);
  // The etcd and ZooKeeper its clients lock on answer before any trial runs, or it stops at once.
  for (const chaos::ClientServer& server : chaos::client_servers(chaos::all_trials(campaign), campaign.topology))
    chaos::check_client_server(server, std::chrono::seconds(3));
  std::optional<host::RedisProcess> shared = restartable_shared_redis(campaign, setup);
  print_first_line(campaign, setup);
  if (!setup.run_dir.empty()) store::write_run_record(campaign, setup);
  std::filesystem::remove_all(setup.dir / "trials");
  check_own_servers_of(campaign, jobs_setup);
  std::filesystem::create_directories(setup.dir / "trials" / ".clients");
  std::vector<checker::TrialResult> results = run_plan(plan, campaign, setup, jobs_setup);
  std::filesystem::remove_all(setup.dir / "trials" / ".clients");
  std::filesystem::remove(chaos::stop_file(setup));
  if (interruption() != 0) end_interrupted(setup, shared, results);
  report_errors(campaign, results);
  if (!setup.run_dir.empty()) {
    store::keep_trials(setup.run_dir, setup.dir / "trials");
    store::seal_run(setup.run_dir);
  }
  return results;
}

void check_harness(const std::vector<checker::TrialResult>& results) {
  auto lost =
      std::find_if(results.begin(), results.end(), [](const checker::TrialResult& r) { return r.harness_lost; });
  if (lost == results.end()) return;
  auto not_run = std::count_if(results.begin(), results.end(), [](const checker::TrialResult& r) { return r.not_run; });
  throw chaos::HarnessLost(fmt::format("the campaign stopped: the harness lost {} ({} trials checked, {} not run)",
                                       lost->error, static_cast<long>(results.size()) - not_run, not_run));
}

}  // namespace rlock::runner
