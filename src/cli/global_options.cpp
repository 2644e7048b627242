#include "cli/global_options.h"

namespace rlock::cli {

lab::LabSetup GlobalOptions::setup() const {
  lab::LabSetup setup{RedisAddress::parse(redis_url), db, lab::LabDir(dir), lab::parse_lang(lang)};
  if (!sentinel.empty()) setup.redis.use_sentinel(sentinel, master);
  return setup;
}

void register_global_options(CLI::App& app, GlobalOptions& options) {
  app.add_option("--redis", options.redis_url, "Redis URL: redis://[:password@]host[:port][/db]")
      ->envname("REDIS_URL")
      ->capture_default_str();
  app.add_option("--db", options.db, "PostgreSQL conninfo or URL")->envname("DATABASE_URL")->capture_default_str();
  app.add_option("--dir", options.dir, "lab directory: run.log, events.jsonl, pid files")
      ->envname("RLOCK_DIR")
      ->capture_default_str();
  app.add_option("--lang", options.lang, "language of the log lines")
      ->envname("RLOCK_LANG")
      ->check(CLI::IsMember({"en", "ko"}))
      ->capture_default_str();
  app.add_option("--sentinel", options.sentinel, "ask this Sentinel (HOST:PORT) for the Redis master")
      ->envname("RLOCK_SENTINEL");
  app.add_option("--master", options.master, "the master's name at the Sentinel")
      ->envname("RLOCK_MASTER")
      ->capture_default_str();
}

}  // namespace rlock::cli
