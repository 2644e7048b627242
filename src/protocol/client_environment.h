// The environment a protocol client is started with: only the variables on an allow-list, taken
// from rlock's own (docs/clients.md). A client needs to find its runtime and its libraries, not
// rlock's DATABASE_URL or REDIS_URL, which may hold a password: the servers it may use are in its
// init message.
//
// Pure functions; thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace rlock::protocol {

// Whether the variable `name` is passed on to clients.
bool passed_to_clients(std::string_view name);

// The NAME=VALUE entries of `environment` that are passed on, in their order.
std::vector<std::string> client_environment(const std::vector<std::string>& environment);

// The same of this process's environment.
std::vector<std::string> client_environment();

// `environment` with each NAME=VALUE of `overrides` in place of the entry of that name, or added:
// a trial that routes a client's etcd or ZooKeeper through a proxy gives it the proxy's address.
std::vector<std::string> with_overrides(std::vector<std::string> environment,
                                        const std::vector<std::string>& overrides);

}  // namespace rlock::protocol
