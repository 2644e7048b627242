// Errors of the lock library.
//
// Every backend failure is translated into one of these in the one place that talks to that backend
// (redis_connection.cpp, account_store.cpp). Error means the operation did not happen, or failed in a
// way the caller can see; OutcomeUnknown means a command was sent and its answer was lost (a timeout,
// a connection dropped mid-command), so it may or may not have been applied. A safety checker must
// treat the two differently.
#pragma once

#include <stdexcept>

namespace rlock {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class OutcomeUnknown : public Error {
 public:
  using Error::Error;
};

// A bad argument or option value: the command line is wrong, nothing was attempted.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace rlock
