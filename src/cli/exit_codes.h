// rlock's exit codes, all set in main.cpp, and their table, which `rlock --help` prints.
#pragma once

namespace rlock::cli {

enum ExitCode : int {
  kSuccess = 0,
  kFailure = 1,        // a server unreachable, a worker missing, a file unwritable, ...
  kUsage = 2,          // a bad argument: nothing was attempted (as grep, curl and git say it)
  kWriteRejected = 3,  // worker --fenced without --retry: the write was rejected, the amount not added
  kMoneyLost = 3,      // judge: the client lost money, or two held its lock at once
  kAnomaly = 4,        // chaos: an anomaly where none was expected
  kLivenessLost = 4,   // judge: the client lost no money, but increments stuck, or none succeeding
  kHarnessLost = 5,    // chaos: the harness lost a server it needs; the campaign stopped
  kInterrupted = 6,    // chaos: stopped cleanly by SIGINT or SIGTERM; analyze: such a run
  kInternal = 255,     // a bug in rlock
};

inline constexpr const char* kExitCodeTable =
    "Exit codes:\n"
    "  0    done\n"
    "  1    failed: a server unreachable, a worker missing, a file unwritable (one line says which)\n"
    "  2    a bad argument: nothing was attempted\n"
    "  3    worker --fenced without --retry: the write was rejected, the amount not added;\n"
    "       judge: the client lost money (or two held its lock at once)\n"
    "  4    chaos: an anomaly where none was expected (analyze, merge: in the stored run);\n"
    "       judge: the client lost liveness alone (increments stuck, or none succeeding)\n"
    "  5    chaos: the harness lost a server it needs (one line says which); the campaign stopped\n"
    "  6    chaos, judge: interrupted (SIGINT, SIGTERM), stopped cleanly, the run sealed as interrupted\n"
    "       (analyze: an interrupted run); a second signal kills at once (130 SIGINT, 143 SIGTERM)\n"
    "  255  a bug in rlock";

}  // namespace rlock::cli
