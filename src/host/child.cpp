#include "host/child.h"

#include <spawn.h>

#include <cstring>

#include <fmt/format.h>

#include "rlock/error.h"

extern char** environ;

namespace rlock {

pid_t spawn_redis_server(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addclosefrom_np(&actions, 3);
  pid_t pid = 0;
  int rc = posix_spawnp(&pid, "redis-server", &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw Error(fmt::format("cannot run redis-server: {}", std::strerror(rc)));
  return pid;
}

}  // namespace rlock
