// rlock --version (-V): what this binary is (its version and commit, the hiredis and libpqxx it was
// built with), which servers it finds and which adapters of the client catalogue are installed. The
// servers are those named (--redis/REDIS_URL, --db/DATABASE_URL, ETCD_ENDPOINT, ZOOKEEPER_CONNECT),
// else the project's own at scripts/services.sh's ports (RLOCK_REDIS_PORT, RLOCK_PG_PORT,
// RLOCK_ETCD_PORT, RLOCK_ZOOKEEPER_PORT, else 6391, 5441, 2391, 2481); each is asked for its version
// side by side with a timeout of about a second, so the command never hangs on a server that does
// not answer. Not thread-safe (it sets PGCONNECT_TIMEOUT); run once, from main.
#pragma once

#include <string>

#include "cli/global_options.h"

namespace rlock::cli {

// The text `rlock --version` prints, one line each: the binary, its libraries, then each server,
// found ("redis 7.0.15 at 127.0.0.1:6391") or not (with the reason).
std::string version_text(const GlobalOptions& global);

}  // namespace rlock::cli
