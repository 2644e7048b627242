// Options every subcommand shares, each with an environment fallback:
//   --redis URL (REDIS_URL)  --db CONNINFO (DATABASE_URL)  --dir DIR (RLOCK_DIR)  --lang en|ko (RLOCK_LANG)
//   --sentinel HOST:PORT (RLOCK_SENTINEL)  --master NAME (RLOCK_MASTER): find the Redis through Sentinel
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "lab/lab_worker.h"

namespace rlock::cli {

struct GlobalOptions {
  std::string redis_url = "redis://127.0.0.1:6379/0";
  std::string db = "postgresql://postgres@127.0.0.1:5432/bank";
  std::string dir = ".";
  std::string lang = "en";
  std::string sentinel;  // empty: connect to --redis itself
  std::string master = "mymaster";

  // The parsed options. Throws rlock::UsageError for a malformed Redis URL or Sentinel address.
  lab::LabSetup setup() const;
};

void register_global_options(CLI::App& app, GlobalOptions& options);

}  // namespace rlock::cli
