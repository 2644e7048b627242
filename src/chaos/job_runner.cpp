#include "chaos/job_runner.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <map>
#include <optional>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "chaos/campaign.h"
#include "chaos/harness.h"
#include "chaos/job.h"
#include "chaos/judge.h"
#include "chaos/netns_job.h"
#include "chaos/run_record.h"
#include "chaos/trial.h"
#include "host/child.h"
#include "lab/append_file.h"
#include "rlock/error.h"
#include "rlock/redis_connection.h"

namespace rlock {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

nlohmann::json check_json(const CheckResult& c) {
  return {{"validity", to_string(c.validity)}, {"detail", c.detail}, {"amount", c.amount}, {"count", c.count}};
}

CheckResult check_from(const nlohmann::json& j) {
  return {validity_from(j.value("validity", "unknown")), j.value("detail", ""), j.value("amount", 0LL),
          j.value("count", 0)};
}

std::vector<nlohmann::json> read_lines(const std::filesystem::path& path) {
  std::vector<nlohmann::json> lines;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_object()) lines.push_back(std::move(j));
  }
  return lines;
}

// A result line of a job process (see run_job) back as the TrialResult of `spec`.
TrialResult result_from(const nlohmann::json& line, const TrialSpec& spec) {
  return TrialResult{.spec = spec,
                     .lost = check_from(line.value("lost", nlohmann::json::object())),
                     .overlaps = check_from(line.value("overlaps", nlohmann::json::object())),
                     .fences = check_from(line.value("fences", nlohmann::json::object())),
                     .failed_ops = line.value("failed_ops", 0),
                     .failed_amount = line.value("failed_amount", 0LL),
                     .unknown_ops = line.value("unknown_ops", 0),
                     .stuck_ops = line.value("stuck_ops", 0),
                     .struck = line.value("struck", false),
                     .lock_reached_replica = line.contains("lock_reached_replica") && line["lock_reached_replica"].is_boolean()
                                                 ? std::optional<bool>(line["lock_reached_replica"].get<bool>())
                                                 : std::nullopt,
                     .ms = line.value("ms", 0.0),
                     .error = line.value("error", ""),
                     .client_error = line.value("client_error", ""),
                     .not_run = line.value("not_run", false)};
}

std::filesystem::path client_record(const ChaosSetup& setup, const std::string& name) {
  return setup.dir / "trials" / ".clients" / (name + ".jsonl");
}

bool gave_up_on(const ChaosSetup& setup, const std::string& name) {
  std::vector<nlohmann::json> trials = read_lines(client_record(setup, name));
  if (trials.size() < kGiveUpAfter) return false;
  return std::all_of(trials.begin(), trials.begin() + kGiveUpAfter,
                     [](const nlohmann::json& t) { return t.value("client_error", false); });
}

// The trial `i` of a job, or not run: its client gave up on, or it could not run (a trial cut
// short or a server lost stops the job: TrialStopped, HarnessLost).
TrialInput trial_of_job(const std::vector<TrialSpec>& specs, std::size_t i, Job& job) {
  const ChaosSetup& setup = job.setup;
  TrialInput r{specs[i]};
  const std::optional<ClientSpec>& client = specs[i].client;
  if (client && gave_up_on(setup, client->name)) {
    r.not_run = true;
    r.client_error = fmt::format("not run: client {} failed its first {} trials", client->name, kGiveUpAfter);
    return r;
  }
  try {
    r = run_trial(specs[i], setup.first_account + static_cast<long>(i), job);
  } catch (const HarnessLost&) {
    throw;
  } catch (const std::exception& e) {
    r = TrialInput{specs[i]};
    r.error = e.what();
    r.not_run = true;
  }
  if (client) {
    AppendFile(client_record(setup, client->name))
        .append_line(nlohmann::json{{"client_error", !r.client_error.empty()}}.dump());
  }
  return r;
}

// One job process: every jobs-th trial, one after the other, each result one line in `results`.
// It stops when the campaign does, and at the first server the harness lost, which it reports.
void run_job(int job, int jobs, const std::vector<TrialSpec>& specs, const ChaosSetup& setup,
             const std::filesystem::path& results) {
  AppendFile out(results);
  try {
    std::optional<JobLab> lab;
    ChaosSetup own = setup;  // under --netns, the lab's Redis
    if (setup.netns) {
      lab.emplace(setup.dir / "trials" / fmt::format(".lab-{}", job));
      own.redis = lab->redis();
    }
    Job context{job, own, needing("Redis", own.redis.display(), [&] { return RedisConnection(own.redis); }),
                needing("PostgreSQL", postgres_at(own), [&] { return AccountStore(own.conninfo); }), {},
                lab ? &*lab : nullptr};
    for (std::size_t i = static_cast<std::size_t>(job); i < specs.size() && !stopping(setup);
         i += static_cast<std::size_t>(jobs)) {
      TrialInput input = trial_of_job(specs, i, context);
      if (!setup.run_dir.empty()) record_trial(setup.run_dir, input);
      TrialResult r = judge(input);
      out.append_line(nlohmann::json{{"i", i},
                                     {"lost", check_json(r.lost)},
                                     {"overlaps", check_json(r.overlaps)},
                                     {"fences", check_json(r.fences)},
                                     {"failed_ops", r.failed_ops},
                                     {"failed_amount", r.failed_amount},
                                     {"unknown_ops", r.unknown_ops},
                                     {"stuck_ops", r.stuck_ops},
                                     {"struck", r.struck},
                                     {"lock_reached_replica", r.lock_reached_replica ? nlohmann::json(*r.lock_reached_replica) : nlohmann::json()},
                                     {"ms", r.ms},
                                     {"error", r.error},
                                     {"client_error", r.client_error},
                                     {"not_run", r.not_run}}
                          .dump());
    }
  } catch (const HarnessLost& e) {
    out.append_line(nlohmann::json{{"harness_lost", e.what()}}.dump());
  } catch (const TrialStopped&) {
    // the campaign stops: the trial cut short is not run
  }
}

// How long the jobs of a stopping campaign have to end their trials before they are killed.
constexpr auto kStopGrace = 2s;

bool restarts_shared_redis(const TrialSpec& spec) { return spec.fault == Fault::redis_restart && !on_three_servers(spec); }

}  // namespace

std::vector<TrialResult> run_trials(const std::vector<TrialSpec>& specs, const ChaosSetup& setup, int jobs,
                                    const std::function<void(std::size_t, std::size_t)>& progress) {
  if (specs.empty()) return {};
  std::filesystem::create_directories(setup.dir / "trials");
  std::filesystem::remove(stop_file(setup));
  auto results_of = [&](int job) { return setup.dir / "trials" / fmt::format(".results-{}.jsonl", job); };
  std::vector<pid_t> pids;
  for (int job = 0; job < jobs; ++job) {
    pids.push_back(fork_child([&] {
      try {
        run_job(job, jobs, specs, setup, results_of(job));
      } catch (const std::exception& e) {
        fmt::print(stderr, "chaos: job {} stopped: {}\n", job, e.what());
        return 1;  // its trials report nothing: they are not run
      }
      return 0;
    }));
  }

  std::map<std::size_t, TrialResult> reported;
  std::string lost;  // the first server the harness lost, named
  auto collect = [&] {
    reported.clear();
    for (int job = 0; job < jobs; ++job) {
      for (const auto& line : read_lines(results_of(job))) {
        std::size_t i = line.value("i", specs.size());
        if (i < specs.size()) reported.insert_or_assign(i, result_from(line, specs[i]));
        if (lost.empty()) lost = line.value("harness_lost", "");
      }
    }
  };
  HarnessProbe probe(setup, !std::any_of(specs.begin(), specs.end(), restarts_shared_redis));
  std::size_t running = pids.size();
  bool stopped = false;
  Clock::time_point kill_at{};  // once the campaign stops, jobs not done by then are killed
  while (running > 0) {
    std::this_thread::sleep_for(stopped ? 50ms : 1s);
    for (pid_t& pid : pids) {
      if (pid > 0 && try_reap(pid)) pid = 0, --running;
    }
    collect();
    if (lost.empty()) lost = probe();
    if (!lost.empty() && !stopped) {
      AppendFile(stop_file(setup)).append_line(lost);
      stopped = true;
      kill_at = Clock::now() + kStopGrace;
    }
    if (stopped && Clock::now() > kill_at) {
      for (pid_t& pid : pids) {
        if (pid > 0) kill_and_reap(pid), pid = 0, --running;
      }
    }
    if (!stopped) {
      progress(reported.size(), static_cast<std::size_t>(std::count_if(
                                    reported.begin(), reported.end(), [](const auto& r) { return r.second.anomaly(); })));
    }
  }
  collect();

  std::vector<TrialResult> results;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    auto it = reported.find(i);
    if (it != reported.end()) {
      results.push_back(it->second);
    } else {
      results.push_back(TrialResult{.spec = specs[i],
                                    .error = lost.empty() ? kNoResult : lost,
                                    .not_run = true,
                                    .harness_lost = !lost.empty()});
    }
  }
  for (int job = 0; job < jobs; ++job) std::filesystem::remove(results_of(job));
  return results;
}

}  // namespace rlock
