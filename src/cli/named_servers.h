// Defaults that cannot hurt: the subcommands that change data (reset, chaos, bench, redis) run only
// against servers the user named, by flag or environment (--redis/REDIS_URL or --sentinel,
// --db/DATABASE_URL), or against the project's own: a Redis left at its default address is accepted
// when scripts/services.sh or rlock started it (its config file has the throwaway marker,
// host/redis_server.h). A PostgreSQL left at its default is never the project's own (services.sh
// runs it elsewhere and exports DATABASE_URL). Not thread-safe: call from the subcommand's callback.
#pragma once

#include <string_view>

#include "cli/global_options.h"
#include "lab/worker_plan.h"

namespace rlock::cli {

enum class ServersChanged { redis, redis_and_db };

// global.setup(), once the servers `changed` are named or the project's own. Otherwise throws
// UsageError, one line: how to start the project's servers (eval "$(scripts/services.sh up)") or
// how to name one's own.
lab::RunSetup setup_to_change_data(const GlobalOptions& global, std::string_view subcommand, ServersChanged changed);

}  // namespace rlock::cli
