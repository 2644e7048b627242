#include "runner/job_runner.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <map>
#include <optional>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "chaos/campaign.h"
#include "chaos/job.h"
#include "chaos/needed_servers.h"
#include "chaos/netns_job.h"
#include "checker/classification.h"
#include "checker/judge.h"
#include "host/child.h"
#include "lab/append_file.h"
#include "results/file_format.h"
#include "rlock/error.h"
#include "rlock/redis_connection.h"
#include "runner/interruption.h"
#include "runner/result_line.h"
#include "runner/trial.h"
#include "store/run_record.h"

namespace rlock::runner {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

std::vector<nlohmann::json> read_lines(const std::filesystem::path& path) {
  std::vector<nlohmann::json> lines;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    auto j = results::parse_json_or_discarded(line);
    if (j.is_object()) lines.push_back(std::move(j));
  }
  return lines;
}

std::filesystem::path client_record(const chaos::ChaosSetup& setup, const std::string& name) {
  return setup.dir / "trials" / ".clients" / (name + ".jsonl");
}

bool gave_up_on(const chaos::ChaosSetup& setup, const std::string& name) {
  std::vector<nlohmann::json> trials = read_lines(client_record(setup, name));
  if (trials.size() < kGiveUpAfter) return false;
  return std::all_of(trials.begin(), trials.begin() + kGiveUpAfter,
                     [](const nlohmann::json& t) { return t.value("client_error", false); });
}

// The trial `i` of a job, judged, or not run: its client gave up on, or it could not run (a trial
// cut short or a server lost stops the job: TrialStopped, HarnessLost).
checker::JudgedTrial trial_of_job(const std::vector<chaos::TrialSpec>& specs, std::size_t i, chaos::Job& job) {
  const chaos::ChaosSetup& setup = job.setup;
  const std::optional<protocol::ClientSpec>& client = specs[i].client;
  auto not_run = [&](auto&& fill) {
    checker::TrialInput input{specs[i]};
    fill(input);
    input.not_run = true;
    return checker::JudgedTrial{input, checker::judge(input)};
  };
  if (client && gave_up_on(setup, client->name)) {
    return not_run([&](checker::TrialInput& input) {
      input.client_error = fmt::format("not run: client {} failed its first {} trials", client->name, kGiveUpAfter);
    });
  }
  std::optional<checker::JudgedTrial> trial;
  try {
    trial = run_trial(specs[i], setup.first_account + static_cast<long>(i), job);
  } catch (const chaos::HarnessLost&) {
    throw;
  } catch (const std::exception& e) {
    trial = not_run([&](checker::TrialInput& input) { input.error = e.what(); });
  }
  if (client) {
    lab::AppendFile(client_record(setup, client->name))
        .append_line(nlohmann::json{{"client_error", !trial->input.client_error.empty()}}.dump());
  }
  return std::move(*trial);
}

// One job process: every jobs-th trial, one after the other, each result one line in `results`.
// It stops when the campaign does, and at the first server the harness lost, which it reports.
void run_job(int job, int jobs, const std::vector<chaos::TrialSpec>& specs, const chaos::ChaosSetup& setup,
             const std::filesystem::path& results) {
  lab::AppendFile out(results);
  try {
    std::optional<chaos::JobLab> lab;
    chaos::ChaosSetup own = setup;  // under --netns, the lab's Redis
    if (setup.netns) {
      lab.emplace(setup.dir / "trials" / fmt::format(".lab-{}", job));
      own.redis = lab->redis();
    }
    chaos::Job context{
        job,
        own,
        chaos::needing("Redis", own.redis.display(), [&] { return RedisConnection(own.redis); }),
        chaos::needing("PostgreSQL", chaos::postgres_at(own), [&] { return bank::AccountStore(own.conninfo); }),
        {},
        lab ? &*lab : nullptr};
    for (std::size_t i = static_cast<std::size_t>(job); i < specs.size() && !chaos::stopping(setup);
         i += static_cast<std::size_t>(jobs)) {
      checker::JudgedTrial trial = trial_of_job(specs, i, context);
      if (!setup.run_dir.empty()) store::record_trial(setup.run_dir, trial.input);
      nlohmann::json line = result_json(trial.result);
      line["i"] = i;
      out.append_line(line.dump());
    }
  } catch (const chaos::HarnessLost& e) {
    out.append_line(nlohmann::json{{"harness_lost", e.what()}}.dump());
  } catch (const chaos::TrialStopped&) {
    // the campaign stops: the trial cut short is not run
  }
}

// How long the jobs of a stopping campaign have to end their trials before they are killed.
constexpr auto kStopGrace = 2s;

bool restarts_shared_redis(const chaos::TrialSpec& spec) {
  return spec.fault->one_at_a_time() && !chaos::on_three_servers(spec);
}

std::filesystem::path results_of(const chaos::ChaosSetup& setup, int job) {
  return setup.dir / "trials" / fmt::format(".results-{}.jsonl", job);
}

// The job processes of one run_trials, forked, watched and collected.
class Jobs {
 public:
  Jobs(const std::vector<chaos::TrialSpec>& specs, const chaos::ChaosSetup& setup, int jobs)
      : specs_(specs),
        setup_(setup),
        jobs_(jobs),
        probe_(setup, !std::any_of(specs.begin(), specs.end(), restarts_shared_redis),
               chaos::client_servers(specs, setup.topology)) {
    for (int job = 0; job < jobs; ++job) {
      pids_.push_back(host::fork_child([&] {
        leave_interruptions_to_the_campaign();
        try {
          run_job(job, jobs, specs, setup, results_of(setup, job));
        } catch (const std::exception& e) {
          fmt::print(stderr, "chaos: job {} stopped: {}\n", job, e.what());
          return 1;  // its trials report nothing: they are not run
        }
        return 0;
      }));
    }
    running_ = pids_.size();
  }

  // Waits for every job, reporting progress; stops them when the harness lost a server or the
  // campaign was interrupted.
  void watch(const std::function<void(std::size_t, std::size_t)>& progress) {
    while (running_ > 0) {
      std::this_thread::sleep_for(stopped_ ? 50ms : 1s);
      for (pid_t& pid : pids_) {
        if (pid > 0 && host::try_reap(pid)) pid = 0, --running_;
      }
      collect();
      if (lost_.empty()) lost_ = probe_();
      if ((!lost_.empty() || interruption() != 0) && !stopped_) stop();
      if (stopped_ && Clock::now() > kill_at_) kill_the_rest();
      if (!stopped_) {
        progress(reported_.size(),
                 static_cast<std::size_t>(std::count_if(reported_.begin(), reported_.end(),
                                                        [](const auto& r) { return checker::anomaly(r.second); })));
      }
    }
    collect();
  }

  // Every trial's result, in the order of the specs: those no job reported are not run.
  std::vector<checker::TrialResult> results() const {
    std::vector<checker::TrialResult> results;
    for (std::size_t i = 0; i < specs_.size(); ++i) {
      auto it = reported_.find(i);
      if (it != reported_.end()) {
        results.push_back(it->second);
      } else {
        results.push_back(checker::TrialResult{.spec = specs_[i],
                                               .error = !lost_.empty()        ? lost_
                                                        : interruption() != 0 ? chaos::kNotRunInterrupted
                                                                              : chaos::kNoResult,
                                               .not_run = true,
                                               .harness_lost = !lost_.empty()});
      }
    }
    return results;
  }

 private:
  void collect() {
    reported_.clear();
    for (int job = 0; job < jobs_; ++job) {
      for (const auto& line : read_lines(results_of(setup_, job))) {
        auto i = results::integer_at<std::size_t>(line, "i", specs_.size());
        if (i < specs_.size()) reported_.insert_or_assign(i, result_from(line, specs_[i]));
        if (lost_.empty()) lost_ = line.value("harness_lost", "");
      }
    }
  }

  void stop() {
    lab::AppendFile(chaos::stop_file(setup_)).append_line(lost_);
    stopped_ = true;
    kill_at_ = Clock::now() + kStopGrace;
  }

  void kill_the_rest() {
    for (pid_t& pid : pids_) {
      if (pid > 0) host::kill_and_reap(pid), pid = 0, --running_;
    }
  }

  const std::vector<chaos::TrialSpec>& specs_;
  const chaos::ChaosSetup& setup_;
  int jobs_;
  chaos::ServerWatch probe_;
  std::vector<pid_t> pids_;
  std::size_t running_ = 0;
  std::map<std::size_t, checker::TrialResult> reported_;
  std::string lost_;  // the first server the harness lost, named
  bool stopped_ = false;
  Clock::time_point kill_at_{};  // once the campaign stops, jobs not done by then are killed
};

}  // namespace

std::vector<checker::TrialResult> run_trials(const std::vector<chaos::TrialSpec>& specs, const chaos::ChaosSetup& setup,
                                             int jobs, const std::function<void(std::size_t, std::size_t)>& progress) {
  if (specs.empty()) return {};
  std::filesystem::create_directories(setup.dir / "trials");
  std::filesystem::remove(chaos::stop_file(setup));
  Jobs running(specs, setup, jobs);
  running.watch(progress);
  for (int job = 0; job < jobs; ++job) std::filesystem::remove(results_of(setup, job));
  return running.results();
}

}  // namespace rlock::runner
