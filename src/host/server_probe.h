// Whether a server the harness does not speak to itself (the etcd or ZooKeeper of a lock client)
// answers on HOST:PORT: a TCP connection within the timeout and, when `say` is given, its answer
// to `say` starting with `expect` (ZooKeeper's four-letter `ruok`, answered `imok`). A function on
// a socket of its own; thread-safe.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

namespace rlock::host {

// Throws Error, in one line, saying what went wrong (refused, silent, a wrong answer).
void probe_server(const std::string& host_port, std::string_view say, std::string_view expect,
                  std::chrono::milliseconds timeout);

}  // namespace rlock::host
