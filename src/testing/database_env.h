// The PostgreSQL that the harness's integration tests use besides test_env.h's Redis: the one at
// DATABASE_URL that scripts/services.sh starts and prints. Like servers(), database_url() never
// skips: it throws when the variable is unset or the server refuses a connection.
#pragma once

#include <stdexcept>
#include <string>

#include "bank/account_store.h"
#include "testing/test_env.h"

namespace rlock::testing {

// DATABASE_URL, checked once per test binary (PostgreSQL accepts a connection).
inline const std::string& database_url() {
  static const std::string checked = [] {
    std::string url = required_env("DATABASE_URL");
    try {
      bank::AccountStore store(url);
    } catch (const std::exception& e) {
      throw std::runtime_error(std::string("DATABASE_URL: no usable PostgreSQL: ") + e.what());
    }
    return url;
  }();
  return checked;
}

}  // namespace rlock::testing
