#include "bench/peer_bench.h"

#include <poll.h>

#include <algorithm>
#include <functional>
#include <memory>

#include <fmt/format.h>

#include "bench/bench_contended.h"
#include "protocol/protocol_client.h"
#include "protocol/served_account.h"
#include "util/stats.h"

namespace rlock {
namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

constexpr std::chrono::milliseconds kTtl{2000};  // the bench's strategies' (WorkerPlan's default)
constexpr auto kSilenceLimit = 10 * kTtl + 5s;   // as chaos allows a client that owes an answer

double us_since(Clock::time_point start) {
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
}

// One client process and the increment it is doing (id 0: none).
struct Peer {
  std::unique_ptr<ProtocolClient> client;
  std::string name;
  long long id = 0;
  Clock::time_point sent{};
  Clock::time_point heard{};
};

// A row's clients, started and initialized by the constructor, and the account they increment.
class PeerRun {
 public:
  PeerRun(const BenchSetup& setup, const ClientSpec& spec, int clients)
      : key_(LockKey::for_account(setup.account).lock), account_(AccountStore::kInitialBalance) {
    nlohmann::json redis = nlohmann::json::array();
    if (spec.servers == 3) {
      for (const RedisAddress& server : setup.redlock) redis.push_back(server.url());
    } else {
      redis.push_back(setup.redis.url());
    }
    for (int i = 0; i < clients; ++i) {
      std::string name = fmt::format("bench-{}", i);
      peers_.push_back(Peer{std::make_unique<ProtocolClient>(spec.command, setup.dir / fmt::format("peer-{}-{}.stderr", spec.name, i)), name});
    }
    for (Peer& p : peers_) {
      guarded(p, [&] { p.client->send({{"type", "init"}, {"protocol", 1}, {"name", p.name}, {"redis", redis}, {"ttl_ms", kTtl.count()}}); });
    }
    for (Peer& p : peers_) {
      nlohmann::json reply = guarded(p, [&] { return p.client->receive_within(kSilenceLimit); });
      if (reply["type"] != "init_ok") fail(p, fmt::format("answered init with {:.120}", reply.dump()));
    }
  }

  // Increments until `end`, then lets those under way finish. `floor` (a single client's) is timed
  // before each increment.
  StrategyRow run(Clock::time_point end, const std::function<void()>& floor) {
    auto start = Clock::now();
    for (Peer& p : peers_) next(p, floor);
    while (std::any_of(peers_.begin(), peers_.end(), [](const Peer& p) { return p.id != 0; })) {
      wait_for_messages();
      for (Peer& p : peers_) serve(p, end, floor);
    }
    double seconds = us_since(start) / 1e6;
    StrategyRow row{"", static_cast<int>(peers_.size()), 1, latencies_.size(), median(latencies_),
                    percentile(latencies_, 0.99), floors_.empty() ? 0 : median(floors_),
                    static_cast<double>(latencies_.size()) / seconds};
    row.balance_ok = account_.balance() == AccountStore::kInitialBalance + applied_ && account_.stale_writes() == 0;
    row.client = true;
    row.failed = failed_;
    return row;
  }

 private:
  void next(Peer& p, const std::function<void()>& floor) {
    if (floor) {
      auto began = Clock::now();
      floor();
      floors_.push_back(us_since(began));
    }
    p.id = ++last_id_;
    p.sent = p.heard = Clock::now();
    guarded(p, [&] { p.client->send({{"type", "increment"}, {"id", p.id}, {"key", key_}, {"amount", 1}}); });
  }

  void wait_for_messages() {
    std::vector<pollfd> fds;
    for (const Peer& p : peers_) {
      if (p.id != 0) fds.push_back(pollfd{p.client->stdout_fd(), POLLIN, 0});
    }
    ::poll(fds.data(), fds.size(), 10);
  }

  void serve(Peer& p, Clock::time_point end, const std::function<void()>& floor) {
    while (p.id != 0) {
      std::optional<nlohmann::json> message = guarded(p, [&] { return p.client->receive(); });
      if (!message) break;
      p.heard = Clock::now();
      if (message->value("id", -1LL) != p.id) fail(p, fmt::format("sent an unknown id: {:.120}", message->dump()));
      handle(p, *message);
      if (p.id == 0 && Clock::now() < end) next(p, floor);
    }
    if (p.id != 0 && Clock::now() - p.heard > kSilenceLimit) {
      fail(p, fmt::format("said nothing for {} ms", std::chrono::duration_cast<std::chrono::milliseconds>(kSilenceLimit).count()));
    }
  }

  void handle(Peer& p, const nlohmann::json& message) {
    std::string type = message["type"];
    if (type == "read") {
      std::optional<long long> token = number(p, message, "token");
      ServedAccount::ReadResult result = account_.read(p.id, 1, token, message.value("claim", false));
      nlohmann::json reply{{"type", "read_ok"}, {"id", p.id}, {"balance", result.balance}};
      if (result.claimed) reply["claimed"] = *result.claimed;
      guarded(p, [&] { p.client->send(reply); });
    } else if (type == "write") {
      std::optional<long long> balance = number(p, message, "balance");
      if (!balance) fail(p, fmt::format("wrote no integer balance: {:.120}", message.dump()));
      ServedAccount::WriteResult result = account_.write(p.id, *balance, number(p, message, "token"));
      if (result.protocol_error) fail(p, *result.protocol_error);
      if (result.applied) ++applied_;
      guarded(p, [&] { p.client->send({{"type", "write_ok"}, {"id", p.id}, {"applied", result.applied}}); });
    } else if (type == "done") {
      if (message.contains("error")) {
        ++failed_;
      } else {
        latencies_.push_back(us_since(p.sent));
      }
      p.id = 0;
    } else {
      fail(p, fmt::format("sent a message of unknown type: {:.120}", message.dump()));
    }
  }

  std::optional<long long> number(Peer& p, const nlohmann::json& message, const char* field) {
    if (!message.contains(field)) return std::nullopt;
    if (!message[field].is_number_integer()) fail(p, fmt::format("sent a {} that is not an integer: {:.120}", field, message.dump()));
    return message[field].get<long long>();
  }

  // The client's error, with the end of its stderr, in one line.
  [[noreturn]] void fail(const Peer& p, const std::string& what) { throw p.client->error(p.name, what); }

  // Runs `step`, turning the client's protocol errors (and a field of the wrong type) into fail's.
  template <typename Step>
  auto guarded(Peer& p, Step&& step) -> decltype(step()) {
    try {
      return step();
    } catch (const ClientError& e) {
      fail(p, e.what());
    } catch (const nlohmann::json::exception& e) {
      fail(p, fmt::format("sent a malformed message: {}", e.what()));
    }
  }

  std::string key_;
  ServedAccount account_;
  std::vector<Peer> peers_;
  long long last_id_ = 0;
  long long applied_ = 0;
  std::size_t failed_ = 0;
  std::vector<double> latencies_, floors_;
};

}  // namespace

std::vector<StrategyRow> measure_peer(const BenchSetup& setup, const ClientSpec& client) {
  AccountStore store(setup.conninfo);
  std::function<void()> floor = strategy_floor(setup, client.servers == 3 ? Strategy::redlock : Strategy::ttl, store);
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
  } catch (const ClientError& e) {
    throw ClientError(fmt::format("bench: peer {}: {}", client.name, e.what()));
  }
  return rows;
}

}  // namespace rlock
