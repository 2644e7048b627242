// A protocol client checked before a campaign (`rlock client --check COMMAND`, docs/clients.md):
// one client process driven through the protocol alone, given the Redis it uses (an etcd, ZooKeeper,
// Hazelcast or PostgreSQL named in its environment, as in a trial), each rule it breaks reported in
// one line that quotes the rule from docs/clients.md. The steps: init, answered
// in time (a client silent until its stdin closes does not flush its stdout); three increments, each
// read served, each write its read plus its amount, each step answered, each done without an error
// while nothing else holds the lock, none done with no write; for a client that fences, a fourth
// increment whose claim (or fenced write) a newer holder refuses, whose done must carry an error;
// and wherever they come, silence while the client owes an answer and garbage on its stdout. The
// first broken rule that leaves the client's state unknown ends the check.
//
// A function that starts one process and speaks to it; not thread-safe.
#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace rlock::protocol {

struct ConformanceSetup {
  std::string command;             // the client, run by /bin/sh as a trial's are
  std::vector<std::string> redis;  // the URLs init gives: one, or Redlock's three
  std::chrono::milliseconds ttl{1000};
  std::chrono::milliseconds start_limit{60'000};  // for init_ok
  std::filesystem::path stderr_file;              // the client's stderr
};

struct Conformance {
  std::vector<std::string> broken;  // one line a rule broken, quoting it
  std::vector<std::string> passed;  // one line a step passed, or why it was not checked
};

// Throws Error when the client cannot be started at all.
Conformance check_conformance(const ConformanceSetup& setup);

// The rules the lines quote, each a passage of docs/clients.md.
std::vector<std::string_view> conformance_rules();

}  // namespace rlock::protocol
