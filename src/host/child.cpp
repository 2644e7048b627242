#include "host/child.h"

#include <fcntl.h>
#include <linux/close_range.h>
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
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

// The parent whose end a child about to be forked dies with, or 0. Linux sends the death signal
// when the thread that forked ends, not the process: a child forked by another thread (a test's
// nemesis restarting a server) would die with that thread, so only the main thread's children are
// tied to the process.
pid_t tie_to_process() { return ::gettid() == ::getpid() ? ::getpid() : 0; }

// In a child just forked: SIGKILL when `parent` ends, and at once when it already has (it may
// have ended before the prctl); nothing for 0. Only async-signal-safe calls: the parent may have
// threads.
void die_with(pid_t parent) {
  if (parent == 0) return;
  if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || ::getppid() != parent) ::_exit(1);
}

// spawn_child's fork and exec, for a child that dies with its parent, which posix_spawn cannot
// ask for. An exec that fails sends its errno through a close-on-exec pipe.
pid_t fork_and_exec(std::vector<char*>& argv, char** environment, const SpawnOptions& options) {
  int report[2];
  if (::pipe2(report, O_CLOEXEC) != 0) throw Error(fmt::format("pipe failed: {}", std::strerror(errno)));
  std::string stderr_file = options.stderr_file.string();
  pid_t parent = tie_to_process();
  pid_t pid = ::fork();
  if (pid < 0) {
    ::close(report[0]), ::close(report[1]);
    throw Error(fmt::format("fork failed: {}", std::strerror(errno)));
  }
  if (pid == 0) {
    die_with(parent);
    struct sigaction by_default {};
    by_default.sa_handler = SIG_DFL;
    ::sigaction(SIGINT, &by_default, nullptr);
    ::sigaction(SIGTERM, &by_default, nullptr);
    if (options.stdin_stdout >= 0) ::dup2(options.stdin_stdout, 0), ::dup2(options.stdin_stdout, 1);
    if (!stderr_file.empty()) {
      int fd = ::open(stderr_file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW, 0644);
      if (fd >= 0) ::dup2(fd, 2);
    } else if (options.stderr_fd >= 0) {
      ::dup2(options.stderr_fd, 2);
    }
    ::close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);  // the report pipe closes at the exec too
    if (options.own_group) ::setpgid(0, 0);
    ::execvpe(argv[0], argv.data(), environment);
    int error = errno;
    (void)!::write(report[1], &error, sizeof error);
    ::_exit(127);
  }
  ::close(report[1]);
  int error = 0;
  ssize_t n = 0;
  while ((n = ::read(report[0], &error, sizeof error)) < 0 && errno == EINTR) {
  }
  ::close(report[0]);
  if (n > 0) {
    reap(pid);
    throw Error(fmt::format("cannot run {}: {}", argv[0], std::strerror(error)));
  }
  return pid;
}

}  // namespace

bool ChildExit::exited() const { return WIFEXITED(status); }

int ChildExit::code() const { return exited() ? WEXITSTATUS(status) : 0; }

pid_t fork_child(const std::function<int()>& body) {
  pid_t parent = tie_to_process();
  pid_t pid = ::fork();
  if (pid < 0) throw Error(fmt::format("fork failed: {}", std::strerror(errno)));
  if (pid > 0) return pid;
  die_with(parent);
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
  std::vector<char*> environment;
  if (options.environment) {
    for (const std::string& variable : *options.environment) environment.push_back(const_cast<char*>(variable.c_str()));
    environment.push_back(nullptr);
  }
  char** env = options.environment ? environment.data() : environ;
  if (options.dies_with_parent) return fork_and_exec(argv, env, options);
  std::string stderr_file = options.stderr_file.string();
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (options.stdin_stdout >= 0) {
    posix_spawn_file_actions_adddup2(&actions, options.stdin_stdout, 0);
    posix_spawn_file_actions_adddup2(&actions, options.stdin_stdout, 1);
  }
  if (!stderr_file.empty()) {
    posix_spawn_file_actions_addopen(&actions, 2, stderr_file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW,
                                     0644);
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
  pid_t pid = 0;
  int rc = posix_spawnp(&pid, argv[0], &actions, &attributes, argv.data(), env);
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
