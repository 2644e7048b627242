// rlock --version (-V): what this binary is (its version and commit, the hiredis and libpqxx it was
// built with) and which servers it finds where the global options point: the Redis, the PostgreSQL
// and the etcd (ETCD_ENDPOINT, else 127.0.0.1:2379), each asked for its version with a timeout of
// about a second, so the command never hangs on a server that does not answer. Not thread-safe
// (it sets PGCONNECT_TIMEOUT); run once, from main.
#pragma once

#include <string>

#include "cli/global_options.h"

namespace rlock::cli {

// The text `rlock --version` prints, one line each: the binary, its libraries, then each server,
// found ("redis 7.0.15 at 127.0.0.1:6391") or not (with the reason).
std::string version_text(const GlobalOptions& global);

}  // namespace rlock::cli
