// Options every subcommand shares, each with an environment fallback:
//   --redis URL (REDIS_URL)  --db CONNINFO (DATABASE_URL)  --dir DIR (RLOCK_DIR)  --lang en|ko (RLOCK_LANG)
//   --sentinel HOST:PORT (RLOCK_SENTINEL)  --master NAME (RLOCK_MASTER): find the Redis through Sentinel
// Without --dir, runs are kept in the user's state directory (default_data_dir), never in the
// directory rlock was started from. Whether a server was named (by flag or environment) is known
// once parsed: the subcommands that change data ask (named_servers.h).
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "lab/worker_plan.h"

namespace rlock::cli {

struct GlobalOptions {
  std::string redis_url = "redis://127.0.0.1:6379/0";
  std::string db = "postgresql://postgres@127.0.0.1:5432/bank";
  std::string dir;  // empty: default_data_dir()
  std::string lang = "en";
  std::string sentinel;  // empty: connect to --redis itself
  std::string master = "mymaster";

  // The parsed options. Throws rlock::UsageError for a malformed Redis URL or Sentinel address,
  // and as own_data_dir does.
  lab::RunSetup setup() const;
  // --dir, or default_data_dir() without it.
  std::string data_dir() const;
  // data_dir(), where rlock writes: throws rlock::UsageError, in one line, when it is not this
  // user's own (util/own_dir.h: another user owns it or can write it or a directory above it).
  std::string own_data_dir() const;

  // Whether the Redis (--redis, or --sentinel) and the PostgreSQL were named, by flag or environment,
  // rather than left at their defaults.
  bool redis_named() const;
  bool db_named() const;

  // Set by register_global_options: the options as CLI11 parsed them.
  const CLI::Option* redis_option = nullptr;
  const CLI::Option* sentinel_option = nullptr;
  const CLI::Option* db_option = nullptr;
};

// $XDG_STATE_HOME/rlock, else ~/.local/state/rlock ($HOME), else rlock-runs in the temporary
// directory.
std::string default_data_dir();

void register_global_options(CLI::App& app, GlobalOptions& options);

}  // namespace rlock::cli
