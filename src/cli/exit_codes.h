// rlock's exit codes, all set in main.cpp.
#pragma once

namespace rlock::cli {

enum ExitCode : int {
  kSuccess = 0,
  kFailure = 1,        // a server unreachable, a worker missing, a file unwritable, ...
  kWriteRejected = 3,  // worker --fenced without --retry: the write was rejected, the amount not added
  kUsage = 254,        // a bad argument: nothing was attempted
  kInternal = 255,     // a bug in rlock
};

}  // namespace rlock::cli
