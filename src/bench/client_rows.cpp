#include "bench/client_rows.h"

#include <algorithm>
#include <functional>
#include <thread>
#include <variant>

#include <fmt/format.h>

#include "bench/bench_contended.h"
#include "protocol/client_driver.h"
#include "protocol/served_account.h"
#include "util/stats.h"

namespace rlock::bench {
namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

double us_since(Clock::time_point start) {
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
}

// One client process and when it was sent the increment it is doing.
struct ClientProcess {
  protocol::ClientDriver client;
  Clock::time_point sent{};
};

// A row's clients, started and initialized by the constructor, and the account they increment.
class PeerRun {
 public:
  PeerRun(const BenchSetup& setup, const protocol::ClientSpec& spec, int clients)
      : key_(LockKey::for_account(setup.account).lock), account_(bank::AccountStore::kInitialBalance) {
    for (protocol::ClientDriver& client : start_client_processes(setup, spec, clients, "client-" + spec.name))
      processes_.push_back(ClientProcess{std::move(client)});
  }

  // Increments until `end`, then lets those under way finish. `floor` (a single client's) is timed
  // before each increment.
  StrategyRow run(Clock::time_point end, const std::function<void()>& floor) {
    auto start = Clock::now();
    for (ClientProcess& p : processes_) next(p, floor);
    while (std::any_of(processes_.begin(), processes_.end(),
                       [](const ClientProcess& p) { return p.client.under_way(); })) {
      wait_for_messages();
      for (ClientProcess& p : processes_) serve(p, end, floor);
    }
    double seconds = us_since(start) / 1e6;
    StrategyRow row{"",
                    static_cast<int>(processes_.size()),
                    1,
                    latencies_.size(),
                    util::median(latencies_),
                    util::percentile(latencies_, 0.99),
                    floors_.empty() ? 0 : util::median(floors_),
                    static_cast<double>(latencies_.size()) / seconds};
    row.balance_ok =
        account_.balance() == bank::AccountStore::kInitialBalance + applied_ && account_.stale_writes() == 0;
    row.client = true;
    row.failed = failed_;
    return row;
  }

 private:
  void next(ClientProcess& p, const std::function<void()>& floor) {
    if (floor) {
      auto began = Clock::now();
      floor();
      floors_.push_back(us_since(began));
    }
    p.sent = Clock::now();
    p.client.send_increment(protocol::Increment{++last_id_, key_, 1});
  }

  void wait_for_messages() {
    std::vector<const protocol::ClientDriver*> clients;
    for (const ClientProcess& p : processes_) {
      if (p.client.under_way()) clients.push_back(&p.client);
    }
    protocol::wait_for_any(clients, 10ms);
  }

  void serve(ClientProcess& p, Clock::time_point end, const std::function<void()>& floor) {
    while (p.client.under_way()) {
      std::optional<protocol::ClientMessage> message = p.client.receive();
      if (!message) break;
      handle(p, *message);
      if (!p.client.under_way() && Clock::now() < end) next(p, floor);
    }
    if (p.client.under_way()) p.client.check_silence(kPeerSilenceLimit);
  }

  // The client's read, write, step or done (the driver checked that it is one, of its increment): each
  // answered at once.
  void handle(ClientProcess& p, const protocol::ClientMessage& message) {
    if (const auto* read = std::get_if<protocol::Read>(&message)) {
      p.client.send(p.client.serve_read(account_, *read, 1));
    } else if (const auto* write = std::get_if<protocol::Write>(&message)) {
      protocol::WriteOk reply = p.client.serve_write(account_, *write);
      if (reply.applied) ++applied_;
      p.client.send(reply);
    } else if (const auto* step = std::get_if<protocol::Step>(&message)) {
      p.client.answer(*step);
    } else if (std::get<protocol::Done>(message).error) {
      ++failed_;
    } else {
      latencies_.push_back(us_since(p.sent));
    }
  }

  std::string key_;
  protocol::ServedAccount account_;
  std::vector<ClientProcess> processes_;
  long long last_id_ = 0;
  long long applied_ = 0;
  std::size_t failed_ = 0;
  std::vector<double> latencies_, floors_;
};

}  // namespace

std::vector<protocol::ClientDriver> start_client_processes(const BenchSetup& setup, const protocol::ClientSpec& client,
                                                           int clients, const std::string& stderr_prefix) {
  std::vector<std::string> redis;
  if (client.servers == 3) {
    for (const RedisAddress& server : setup.redlock) redis.push_back(server.url());
  } else {
    redis.push_back(setup.redis.url());
  }
  // As many start at a time as the machine has cores: sixteen JVMs starting at once on two busy cores outlast the
  // silence limit.
  int batch = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
  std::vector<protocol::ClientDriver> drivers;
  for (int first = 0; first < clients; first += batch) {
    int end = std::min(clients, first + batch);
    for (int i = first; i < end; ++i) {
      drivers.emplace_back(fmt::format("bench-{}", i), client.command,
                           setup.dir / fmt::format("{}-{}.stderr", stderr_prefix, i));
      drivers.back().send_init(protocol::Init{protocol::kVersion, drivers.back().worker(), redis, kClientTtl.count(),
                                              std::nullopt, std::nullopt});
    }
    for (int i = first; i < end; ++i)
      drivers[static_cast<std::size_t>(i)].await_init_ok(protocol::start_limit(kClientTtl));
  }
  return drivers;
}

std::vector<StrategyRow> measure_client_rows(const BenchSetup& setup, const protocol::ClientSpec& client) {
  bank::AccountStore store(setup.conninfo);
  std::function<void()> floor =
      strategy_floor(setup, client.servers == 3 ? lab::Strategy::redlock : lab::Strategy::ttl, store);
  floor();  // connections made: no round is the first
  std::vector<StrategyRow> rows;
  try {
    for (int clients : kPeerClients) {
      reset_accounts(setup, 1);
      PeerRun run(setup, client, clients);
      auto end = Clock::now() + std::chrono::duration_cast<Clock::duration>(setup.seconds);
      rows.push_back(run.run(end, clients == 1 ? floor : std::function<void()>{}));
      rows.back().name = client.name;
      rows.back().floor_us = rows.front().floor_us;  // the single client's, timed in its rounds
    }
  } catch (const protocol::ClientError& e) {
    throw protocol::ClientError(fmt::format("bench: client {}: {}", client.name, e.what()));
  }
  return rows;
}

}  // namespace rlock::bench
