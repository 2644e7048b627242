// The protocol clients of the command line (`--client NAME=COMMAND`, `NAME@KIND=COMMAND`, or a shipped
// adapter's bare catalogue name, repeated), parsed into ClientSpec (chaos.h) by one rule set for
// chaos and bench: each client is a row of its own, so a name is given once and is not a
// strategy's. Pure functions but parse_command_line_clients; thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "protocol/client_catalogue.h"
#include "protocol/client_spec.h"

namespace rlock::protocol {

// Parses NAME=COMMAND, or NAME@KIND=COMMAND where KIND is where its lock lives: redis, redis3 (or 3:
// three independent Redis servers), etcd or zookeeper. Throws UsageError for anything else.
protocol::ClientSpec parse_client_spec(const std::string& text);

// Each of `texts` parsed, in order: a text without `=` is a name of `catalogue`, or NAME@V, whose
// entry it takes (shipped_client). Throws UsageError, in one line, as parse_client_spec and shipped_client
// do, and for a name given twice or taken by a strategy.
std::vector<protocol::ClientSpec> parse_client_list(const std::vector<std::string>& texts,
                                                    const Catalogue& catalogue = {});

// parse_client_list with the shipped catalogue (shipped_catalogue()), which is read only when one of
// `texts` is a bare name: no manifest ever stops a run of NAME=COMMAND clients. Reads files.
std::vector<protocol::ClientSpec> parse_command_line_clients(const std::vector<std::string>& texts);

}  // namespace rlock::protocol
