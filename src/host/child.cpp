#include "host/child.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "rlock/error.h"

extern char** environ;

namespace rlock::host {
namespace {

// wait4 with `options`; nothing when no child was reaped (WNOHANG and still running).
std::optional<ChildExit> wait_child(pid_t pid, int options) {
  ChildExit exit;
  rusage usage{};
  pid_t got = 0;
  while ((got = ::wait4(pid, &exit.status, options, &usage)) < 0 && errno == EINTR) {
  }
  if (got != pid) return std::nullopt;
  exit.peak_rss_kb = usage.ru_maxrss;
  return exit;
}

}  // namespace

bool ChildExit::exited() const { return WIFEXITED(status); }

int ChildExit::code() const { return exited() ? WEXITSTATUS(status) : 0; }

pid_t fork_child(const std::function<int()>& body) {
  pid_t pid = ::fork();
  if (pid < 0) throw Error(fmt::format("fork failed: {}", std::strerror(errno)));
  if (pid > 0) return pid;
  int code = 1;
  try {
    code = body();
  } catch (...) {
  }
  ::_exit(code);
}

pid_t spawn_child(const std::vector<std::string>& args, const SpawnOptions& options) {
  std::vector<char*> argv;
  for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  std::string stderr_file = options.stderr_file.string();
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (options.stdin_stdout >= 0) {
    posix_spawn_file_actions_adddup2(&actions, options.stdin_stdout, 0);
    posix_spawn_file_actions_adddup2(&actions, options.stdin_stdout, 1);
  }
  if (!stderr_file.empty()) {
    posix_spawn_file_actions_addopen(&actions, 2, stderr_file.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  } else if (options.stderr_fd >= 0) {
    posix_spawn_file_actions_adddup2(&actions, options.stderr_fd, 2);
  }
  posix_spawn_file_actions_addclosefrom_np(&actions, 3);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  if (options.own_group) {
    posix_spawnattr_setpgroup(&attributes, 0);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  }
  std::vector<char*> environment;
  if (options.environment) {
    for (const std::string& variable : *options.environment) environment.push_back(const_cast<char*>(variable.c_str()));
    environment.push_back(nullptr);
  }
  pid_t pid = 0;
  int rc = posix_spawnp(&pid, argv[0], &actions, &attributes, argv.data(),
                        options.environment ? environment.data() : environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  if (rc != 0) throw Error(fmt::format("cannot run {}: {}", args.front(), std::strerror(rc)));
  return pid;
}

ChildExit reap(pid_t pid) { return wait_child(pid, 0).value_or(ChildExit{}); }

std::optional<ChildExit> try_reap(pid_t pid) { return wait_child(pid, WNOHANG); }

ChildExit kill_and_reap(pid_t pid) {
  ::kill(pid, SIGKILL);
  return reap(pid);
}

}  // namespace rlock::host
