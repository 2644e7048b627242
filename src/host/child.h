// Child processes of this one: started by fork (to run a function, or to exec with only what the
// fork copied counted in its peak memory) or by posix_spawn (a program that inherits no file of
// ours), and reaped exactly once.
//
// A pid returned here is the caller's to reap, through reap(), try_reap() or kill_and_reap(): a
// child never reaped stays a zombie. Thread-safe, but fork_child() belongs in a process with no
// other threads: the child gets only the calling one.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace rlock::host {

// How a child ended, as wait4(2) told.
struct ChildExit {
  int status = 0;        // the wait status
  long peak_rss_kb = 0;  // its peak resident memory (ru_maxrss)

  bool exited() const;  // by exit, not by a signal
  int code() const;     // its exit code; 0 when a signal ended it
  bool succeeded() const { return exited() && code() == 0; }
};

// Forks; the child runs `body` and _exits with the code it returns (1 when an exception escapes
// it), running no destructor or atexit handler: what it inherited is the parent's to close. The
// child dies with its parent (SIGKILL when the parent ends, however it ends; a parent already gone
// by then ends the child at once), when the main thread forks it (see SpawnOptions). Throws Error
// when fork fails.
pid_t fork_child(const std::function<int()>& body);

// Where a spawned child's standard files go, whether it leads a process group of its own, and
// its environment.
struct SpawnOptions {
  int stdin_stdout = -1;                                  // a descriptor to be both its stdin and stdout; -1: ours
  std::filesystem::path stderr_file{};                    // appended to; empty: our stderr (or stderr_fd)
  int stderr_fd = -1;                                     // a descriptor to be its stderr, when no stderr_file
  bool own_group = false;                                 // its pid is then its group's id, for kill(-pid, ...)
  std::optional<std::vector<std::string>> environment{};  // NAME=VALUE each; none: ours
  // SIGKILL when this process ends, however it ends (PR_SET_PDEATHSIG), and SIGINT and SIGTERM
  // at their defaults: a server or client of a job must not outlive it. Not for a daemon. Only
  // when spawned by the main thread: Linux ties the signal to the forking thread's end.
  bool dies_with_parent = false;
};

// Runs `args` (argv[0] first, looked up in PATH) as a child that inherits no file of this process
// but stdin, stdout and stderr (or those `options` give it): a server that outlives rlock must not
// hold its sockets or, say, the lock file of a `flock` that started rlock. Throws Error naming
// argv[0] when it cannot run.
pid_t spawn_child(const std::vector<std::string>& args, const SpawnOptions& options = {});

// Waits until `pid` ends (through interrupting signals) and reaps it.
ChildExit reap(pid_t pid);

// Reaps `pid` when it has ended; nothing, at once, while it runs.
std::optional<ChildExit> try_reap(pid_t pid);

// SIGKILL (which ends a stopped child too), then reaps it.
ChildExit kill_and_reap(pid_t pid);

}  // namespace rlock::host
