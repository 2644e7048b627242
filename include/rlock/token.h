// Lock tokens: 128 random bits from the operating system (getrandom), hex-encoded.
//
// A new token is made for every acquisition, so a release or extend by a client whose lock has
// expired cannot touch the lock that somebody else acquired since. Thread-safe.
#pragma once

#include <string>

namespace rlock {

struct Token {
  std::string hex;  // 32 lowercase hex digits
  friend bool operator==(const Token&, const Token&) = default;
};

// Throws rlock::Error when the OS cannot supply random bytes.
Token make_token();

}  // namespace rlock
