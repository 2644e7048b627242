#include "cli/global_options.h"

#include <cstdlib>
#include <filesystem>

#include "util/own_dir.h"

namespace rlock::cli {

std::string default_data_dir() {
  auto set = [](const char* name) -> const char* {
    const char* value = std::getenv(name);
    return value != nullptr && *value != '\0' ? value : nullptr;
  };
  if (const char* state = set("XDG_STATE_HOME")) return std::string(state) + "/rlock";
  if (const char* home = set("HOME")) return std::string(home) + "/.local/state/rlock";
  return (std::filesystem::temp_directory_path() / "rlock-runs").string();
}

std::string GlobalOptions::data_dir() const { return dir.empty() ? default_data_dir() : dir; }

std::string GlobalOptions::own_data_dir() const {
  std::string path = data_dir();
  util::check_own_dir(path, "the data directory");
  return path;
}

lab::RunSetup GlobalOptions::setup() const {
  lab::RunSetup setup{RedisAddress::parse(redis_url), db, lab::LogDir(own_data_dir()), lab::parse_lang(lang)};
  if (!sentinel.empty()) setup.redis.use_sentinel(sentinel, master);
  return setup;
}

bool GlobalOptions::redis_named() const {
  return (redis_option != nullptr && redis_option->count() > 0) ||
         (sentinel_option != nullptr && sentinel_option->count() > 0);
}

bool GlobalOptions::db_named() const { return db_option != nullptr && db_option->count() > 0; }

void register_global_options(CLI::App& app, GlobalOptions& options) {
  options.redis_option = app.add_option("--redis", options.redis_url, "Redis URL: redis://[:password@]host[:port][/db]")
                             ->envname("REDIS_URL")
                             ->capture_default_str();
  options.db_option =
      app.add_option("--db", options.db, "PostgreSQL conninfo or URL")->envname("DATABASE_URL")->capture_default_str();
  app.add_option("--dir", options.dir, "data directory: run.log, events.jsonl, pid files, chaos/ and bench/ runs")
      ->envname("RLOCK_DIR")
      ->default_str("$XDG_STATE_HOME/rlock or ~/.local/state/rlock");
  app.add_option("--lang", options.lang, "language of the log lines")
      ->envname("RLOCK_LANG")
      ->check(CLI::IsMember({"en", "ko"}))
      ->capture_default_str();
  options.sentinel_option =
      app.add_option("--sentinel", options.sentinel, "ask this Sentinel (HOST:PORT) for the Redis master")
          ->envname("RLOCK_SENTINEL");
  app.add_option("--master", options.master, "the master's name at the Sentinel")
      ->envname("RLOCK_MASTER")
      ->capture_default_str();
}

}  // namespace rlock::cli
