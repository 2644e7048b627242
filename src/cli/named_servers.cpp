#include "cli/named_servers.h"

#include <chrono>

#include <fmt/format.h>

#include "host/redis_server.h"
#include "rlock/error.h"
#include "rlock/redis_connection.h"

namespace rlock::cli {
namespace {

using namespace std::chrono_literals;

// Whether the Redis at `address` is a throwaway one of the project's (found within a second).
bool is_project_redis(const RedisAddress& address) {
  try {
    RedisConnection redis(address, RedisTimeouts{1000ms, 1000ms});
    host::local_redis_process(redis);
    return true;
  } catch (const Error&) {
    return false;
  }
}

}  // namespace

lab::RunSetup setup_to_change_data(const GlobalOptions& global, std::string_view subcommand, ServersChanged changed) {
  lab::RunSetup setup = global.setup();
  const char* unnamed = nullptr;
  if (changed == ServersChanged::redis_and_db && !global.db_named()) {
    unnamed = "no PostgreSQL was named";
  } else if (!global.redis_named() && !is_project_redis(setup.redis)) {
    unnamed = "no Redis was named and the one at the default address is not the project's";
  }
  if (unnamed != nullptr) {
    throw UsageError(fmt::format(
        "rlock {} changes data, and {}: start the project's own servers with eval \"$(scripts/services.sh up)\", "
        "or name yours with --redis and --db (REDIS_URL, DATABASE_URL), a Redis db and a database of their own",
        subcommand, unnamed));
  }
  return setup;
}

}  // namespace rlock::cli
