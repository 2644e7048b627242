// Whether a server the harness does not speak to itself (the etcd or ZooKeeper of a lock client)
// answers on HOST:PORT: a TCP connection within the timeout and, when `say` is given, its answer
// to `say` starting with `expect` (ZooKeeper's four-letter `ruok`, answered `imok`); and what such a
// server answers a request (etcd's HTTP gateway). Functions on a socket of their own; thread-safe.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

namespace rlock::host {

// Throws Error, in one line, saying what went wrong (refused, silent, a wrong answer).
void probe_server(const std::string& host_port, std::string_view say, std::string_view expect,
                  std::chrono::milliseconds timeout);

// Sends `say` and returns what the server answers until it closes the connection, at most
// `max_bytes` of it. Throws Error, in one line, when it is refused or silent past the timeout.
std::string ask_server(const std::string& host_port, std::string_view say, std::size_t max_bytes,
                       std::chrono::milliseconds timeout);

}  // namespace rlock::host
