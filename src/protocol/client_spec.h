// A lock client of any language, given on the command line and driven over rlock's line protocol
// (docs/clients.md): `--client NAME=COMMAND`, or `NAME@3=COMMAND` for a client given three
// independent Redis servers (the job's Redlock servers). It is a row of its own, like a strategy.
// A plain value.
#pragma once

#include <string>

namespace rlock::protocol {

struct ClientSpec {
  std::string name;
  std::string command;
  int servers = 1;
  bool expected_safe = false;  // --client-safe NAME
};

}  // namespace rlock::protocol
