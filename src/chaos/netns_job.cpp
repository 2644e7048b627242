#include "chaos/netns_job.h"

#include <algorithm>
#include <chrono>
#include <thread>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "bank/account_store.h"
#include "host/child.h"
#include "host/redis_server.h"
#include "lab/strategy_list.h"
#include "rlock/error.h"
#include "rlock/redis_connection.h"

namespace rlock::chaos {
namespace {

using namespace std::chrono_literals;

constexpr int kRedisPort = 6379;
constexpr auto kRedisStart = 5s;

std::string worker_member(std::size_t worker) { return fmt::format("w{}", worker); }

void wait_for(const RedisAddress& address) {
  auto until = std::chrono::steady_clock::now() + kRedisStart;
  for (;;) {
    try {
      RedisConnection(address).checked({"PING"});
      return;
    } catch (const Error& e) {
      if (std::chrono::steady_clock::now() > until)
        throw Error(fmt::format("the lab's Redis did not start: {}", e.what()));
    }
    std::this_thread::sleep_for(20ms);
  }
}

}  // namespace

JobLab::JobLab(const std::filesystem::path& logs) : lab_({"ctl", "w0", "w1", "w2", "w3", "redis"}) {
  std::filesystem::create_directories(logs);
  redis_pid_ = lab_.spawn("redis", {"redis-server", "--bind", lab_.address("redis"), "--port",
                                    std::to_string(kRedisPort), "--protected-mode", "no", "--save", "", "--appendonly",
                                    "no", "--dir", logs.string(), "--logfile", (logs / "redis.log").string()});
  try {
    lab_.enter("ctl");
    wait_for(redis());
  } catch (...) {
    host::kill_and_reap(redis_pid_);
    throw;
  }
}

JobLab::~JobLab() { host::kill_and_reap(redis_pid_); }

RedisAddress JobLab::redis() const {
  RedisAddress address;
  address.host = lab_.address("redis");
  address.port = kRedisPort;
  return address;
}

void JobLab::enter_worker(std::size_t worker) const { lab_.enter(worker_member(worker)); }

void JobLab::cut_redis(std::size_t worker) { lab_.partition(worker_member(worker), "redis"); }

void JobLab::heal_redis(std::size_t worker) { lab_.heal(worker_member(worker), "redis"); }

void JobLab::heal_all() { lab_.heal_all(); }

void check_netns(const Campaign& campaign, const ChaosSetup& setup) {
  std::vector<std::string_view> in_netns;
  for (Fault f : all_faults()) {
    if (f->runs_in_netns()) in_netns.push_back(f->name());
  }
  for (Fault f : campaign.faults) {
    if (!f->runs_in_netns()) {
      throw UsageError(
          fmt::format("--netns runs the faults {}; {} runs without it", fmt::join(in_netns, " and "), to_string(f)));
    }
  }
  if (lab::any_on_three_servers(campaign.strategies)) {
    throw UsageError("--netns runs the single-Redis strategies; redlock (three servers) runs without it");
  }
  if (!campaign.clients.empty()) throw UsageError("--netns runs the built-in strategies; --client runs without it");
  bool ours = false;
  try {
    RedisConnection redis(setup.redis);
    ours = !host::local_redis_process(redis).config_file.empty();
  } catch (const UsageError&) {
    throw;
  } catch (const Error&) {
  }
  if (!ours) {
    throw UsageError(
        fmt::format("--netns runs on servers rlock starts (eval \"$(scripts/services.sh up)\", without "
                    "--redis and --db), and the Redis at {} is not one",
                    setup.redis.display()));
  }
}

std::string netns_conninfo(const std::string& conninfo) {
  bank::AccountStore store(conninfo);
  std::string dirs = store.setting("unix_socket_directories");
  std::string dir = dirs.substr(0, dirs.find(','));
  int port = std::stoi(store.setting("port"));
  std::filesystem::path socket = std::filesystem::path(dir) / fmt::format(".s.PGSQL.{}", port);
  if (dir.empty() || !std::filesystem::is_socket(socket)) {
    throw UsageError(
        fmt::format("--netns reaches PostgreSQL through its Unix socket, and {} has none on this machine: run "
                    "it on servers rlock starts (eval \"$(scripts/services.sh up)\", without --redis and --db)",
                    bank::describe_conninfo(conninfo)));
  }
  return bank::conninfo_at(conninfo, dir, port);
}

}  // namespace rlock::chaos
