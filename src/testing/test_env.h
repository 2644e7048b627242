// What the lock library's tests need from their environment, and one assertion helper.
//
// servers(): the Redis at REDIS_URL that scripts/services.sh starts and prints; the library's tests
// need nothing else (the PostgreSQL of the harness's tests is database_env.h's). Integration tests
// never skip: when the variable is unset or its server does not answer, servers() throws, and every
// test that asked fails saying which one and why.
// TestLock: one account's lock keys on that Redis, deleted before and after a test.
// closed_port(): a local port where nothing listens. error_message(): what an expected error said.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "rlock/error.h"
#include "rlock/lock_key.h"
#include "rlock/redis_address.h"
#include "rlock/redis_connection.h"
#include "rlock/redis_lock.h"

namespace rlock::testing {

struct Servers {
  RedisAddress redis;
};

inline std::string required_env(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') {
    throw std::runtime_error(std::string(name) +
                             " is not set: the integration tests need the real servers. Run "
                             "`scripts/services.sh up && eval \"$(scripts/services.sh env)\"` first.");
  }
  return value;
}

// The Redis, checked once per test binary (it answers PING).
inline const Servers& servers() {
  static const Servers checked = [] {
    std::string redis_url = required_env("REDIS_URL");
    Servers s;
    try {
      s.redis = RedisAddress::parse(redis_url);
      RedisConnection(s.redis).checked({"PING"});
    } catch (const std::exception& e) {
      throw std::runtime_error(std::string("REDIS_URL: no usable Redis: ") + e.what());
    }
    return s;
  }();
  return checked;
}

// The lock of one account on the test Redis, with its own connection. Use an account no other test
// or lab uses (the labs use 1): its keys are deleted before and after.
class TestLock {
 public:
  explicit TestLock(long account, LockOptions options = {})
      : redis(servers().redis), key(LockKey::for_account(account)), lock(redis, key, options) {
    clear();
  }
  ~TestLock() {
    try {
      clear();
    } catch (const std::exception& e) {
      ADD_FAILURE() << "cannot delete " << key.lock << ": " << e.what();
    }
  }
  TestLock(const TestLock&) = delete;
  TestLock& operator=(const TestLock&) = delete;

  // GET of a key; nullopt when it does not exist.
  std::optional<std::string> get(const std::string& name) {
    Reply reply = redis.checked({"GET", name});
    if (reply.is_nil()) return std::nullopt;
    return reply.text();
  }
  void clear() {
    redis.checked({"DEL", key.lock, key.fence_counter, key.queue, key.queue_deadlines, key.queue_claims});
  }

  RedisConnection redis;
  LockKey key;
  RedisLock lock;
};

// A port on 127.0.0.1 that was free a moment ago: bound, read back, closed.
inline int closed_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) throw std::runtime_error("socket() failed");
  sockaddr_in address{};
  address.sin_family = AF_INET;
  ::inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
  socklen_t length = sizeof address;
  bool ok = ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
            ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0;
  ::close(fd);
  if (!ok) throw std::runtime_error("cannot find a free port on 127.0.0.1");
  return ntohs(address.sin_port);
}

// The message of the E that `action` throws; a test failure when it throws nothing.
template <typename E, typename Action>
std::string error_message(Action&& action) {
  try {
    action();
  } catch (const E& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected an exception, nothing was thrown";
  return {};
}

}  // namespace rlock::testing
