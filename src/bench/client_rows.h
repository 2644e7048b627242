// Peers in rlock bench: a protocol client (docs/clients.md; `rlock bench --client NAME=COMMAND`),
// redis-py's Lock or node-redlock say, priced as the built-in strategies are, on the bench's servers.
//
// Each client is driven by protocol/client_driver.h; the bench serves the account itself
// (protocol/served_account.h), answering every read and write at once (no work time), and sends
// each client its next increment as soon as it said done. A row's latency is the increment's,
// from the harness's `increment` to the client's `done`. The floor is the Redis strategies' own
// (bench_strategy.h): ttl's, or redlock's for a client declared NAME@3, timed in the same rounds as
// the single client's increments. A row's balance is right when the
// served account ends at its initial balance plus the applied increments, with no stale write.
// Functions of the calling thread; the clients are processes of their own, ended with the row.
#pragma once

#include <vector>

#include "bench/bench_strategy.h"
#include "protocol/client_driver.h"
#include "protocol/client_spec.h"

namespace rlock::bench {

// The TTL the bench's client processes are given, the bench's strategies' (WorkerPlan's default), and how long one that
// owes an answer may be silent (as chaos allows).
inline constexpr std::chrono::milliseconds kClientTtl{2000};
inline constexpr std::chrono::milliseconds kPeerSilenceLimit = protocol::silence_limit(kClientTtl);

// `clients` processes of `client` started and past their handshake, as many at a time as the machine has cores, so
// that their start-up comes before any clock: workers bench-0 and on, on the bench's Redis (setup.redlock's three for
// NAME@3), their stderr in `stderr_prefix`-I.stderr of setup.dir. Throws ClientError as the driver does.
std::vector<protocol::ClientDriver> start_client_processes(const BenchSetup& setup, const protocol::ClientSpec& client,
                                                           int clients, const std::string& stderr_prefix);

// The client counts of a client's rows, on one account.
inline const std::vector<int> kPeerClients{1, 16};

// The rows of `client`, for setup.seconds each (its three servers: setup.redlock). The clients'
// stderr goes to client-NAME-I.stderr in setup.dir. Throws ClientError (one line naming the client,
// with the end of its stderr) when a client fails to start or breaks the protocol.
std::vector<StrategyRow> measure_client_rows(const BenchSetup& setup, const protocol::ClientSpec& client);

}  // namespace rlock::bench
