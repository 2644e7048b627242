// rlock facts (hidden): the figures the docs state that --help does not show, one "name value" line
// each, for the docs test (tests/docs_test.sh): the default campaign's trials, the project's server
// ports and the protocol client's limits. Reads nothing and asks no server.
#include <chrono>

#include <fmt/format.h>

#include "chaos/campaign.h"
#include "chaos/faults/fault.h"
#include "cli/commands.h"
#include "cli/project_ports.h"
#include "lab/strategy.h"
#include "protocol/client_driver.h"
#include "protocol/protocol_client.h"

namespace rlock::cli {

void register_facts(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand("facts", "the figures the docs state, for the docs test");
  cmd->group("");
  cmd->callback([] {
    using std::chrono::duration_cast;
    using std::chrono::seconds;
    chaos::Campaign whole{lab::all_strategies(), {}, chaos::all_faults()};
    std::chrono::milliseconds ttl{1000};
    fmt::print("default_cells {}\n", chaos::planned_cells(whole).size());
    fmt::print("default_trials {}\n", chaos::planned_trials(whole));
    fmt::print("redis_port {}\npostgres_port {}\netcd_port {}\nzookeeper_port {}\n", kProjectRedisPort,
               kProjectPostgresPort, kProjectEtcdPort, kProjectZookeeperPort);
    fmt::print("client_start_limit_s {}\n", duration_cast<seconds>(protocol::start_limit(ttl)).count());
    fmt::print("client_line_limit_kib {}\n", protocol::kMaxLineBytes / 1024);
    fmt::print("client_messages_an_increment {}\n", protocol::kMaxMessagesPerIncrement);
  });
}

}  // namespace rlock::cli
