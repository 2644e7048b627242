// RedisConnection's failures, without a Redis server: a closed port, a server that never answers,
// and one that answers the connection's PING and then falls silent.
#include "rlock/redis_connection.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "rlock/error.h"
#include "rlock/lock_key.h"
#include "rlock/redis_lock.h"
#include "testing/test_env.h"

namespace rlock {
namespace {

using namespace std::chrono_literals;
using testing::error_message;

constexpr RedisTimeouts kShortTimeouts{.connect = 500ms, .command = 300ms};

// A socket on 127.0.0.1 that listens: the kernel completes connections to it. With `pongs` set, a
// thread accepts one connection, answers its first PING and then reads everything and answers
// nothing; without it, nothing is ever accepted or answered.
class FakeServer {
 public:
  // `backlog`: how many connections the kernel completes before one is accepted (0: one).
  explicit FakeServer(bool pongs, int backlog = 8) : listener_(::socket(AF_INET, SOCK_STREAM, 0)) {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    ::inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
    socklen_t length = sizeof address;
    if (listener_ < 0 || ::bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
        ::listen(listener_, backlog) != 0 ||
        ::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
      throw std::runtime_error("cannot open a listening socket on 127.0.0.1");
    }
    port_ = ntohs(address.sin_port);
    if (pongs) thread_ = std::thread([this] { answer_one_ping(); });
  }
  ~FakeServer() {
    ::shutdown(listener_, SHUT_RDWR);                                             // wakes a blocked accept()
    if (int client = client_.load(); client >= 0) ::shutdown(client, SHUT_RDWR);  // and a blocked read()
    if (thread_.joinable()) thread_.join();
    if (client_ >= 0) ::close(client_);
    ::close(listener_);
  }
  FakeServer(const FakeServer&) = delete;
  FakeServer& operator=(const FakeServer&) = delete;

  RedisAddress address() const {
    RedisAddress address;
    address.port = port_;
    return address;
  }

 private:
  void answer_one_ping() {
    int client = ::accept(listener_, nullptr, nullptr);
    if (client < 0) return;
    client_ = client;
    std::string received;
    char buffer[4096];
    bool answered = false;
    for (ssize_t n; (n = ::read(client, buffer, sizeof buffer)) > 0;) {
      received.append(buffer, static_cast<std::size_t>(n));
      if (!answered && received.find("PING\r\n") != std::string::npos) {
        answered = ::write(client, "+PONG\r\n", 7) == 7;
      }
    }
  }

  int listener_;
  int port_ = 0;
  std::atomic<int> client_{-1};
  std::thread thread_;
};

TEST(RedisConnection, ConnectToAClosedPortThrowsErrorNamingTheAddress) {
  RedisAddress address;
  address.port = testing::closed_port();
  std::string message = error_message<Error>([&] { RedisConnection redis(address, kShortTimeouts); });
  EXPECT_NE(message.find("127.0.0.1:" + std::to_string(address.port)), std::string::npos) << message;
}

// The constructor's PING is the first command: a server that accepts and never answers fails it.
TEST(RedisConnection, ConnectToASilentServerIsOutcomeUnknown) {
  FakeServer server(/*pongs=*/false);
  std::string message = error_message<OutcomeUnknown>([&] { RedisConnection redis(server.address(), kShortTimeouts); });
  EXPECT_NE(message.find(server.address().display()), std::string::npos) << message;
}

// A server whose queue of connections is full drops the handshake: the connection itself times out.
TEST(RedisConnection, ConnectWithNoHandshakeSaysNoAnswerWithinTheTimeout) {
  FakeServer server(/*pongs=*/false, /*backlog=*/0);
  EXPECT_THROW(RedisConnection(server.address(), kShortTimeouts), OutcomeUnknown) << "the one place in the queue";
  std::string message = error_message<Error>([&] { RedisConnection redis(server.address(), kShortTimeouts); });
  EXPECT_NE(message.find("cannot connect to Redis at " + server.address().display() + ": no answer within 500 ms"),
            std::string::npos)
      << message;
}

TEST(RedisConnection, ACommandWithNoAnswerIsOutcomeUnknown) {
  FakeServer server(/*pongs=*/true);
  RedisConnection redis(server.address(), kShortTimeouts);
  std::string message = error_message<OutcomeUnknown>([&] { redis.command({"SET", "k", "v"}); });
  EXPECT_NE(message.find(server.address().display()), std::string::npos) << message;
}

TEST(RedisConnection, CheckedWithNoAnswerIsOutcomeUnknown) {
  FakeServer server(/*pongs=*/true);
  RedisConnection redis(server.address(), kShortTimeouts);
  EXPECT_THROW(redis.checked({"GET", "k"}), OutcomeUnknown);
}

TEST(RedisConnection, AfterOutcomeUnknownEveryCommandThrowsError) {
  FakeServer server(/*pongs=*/true);
  RedisConnection redis(server.address(), kShortTimeouts);
  EXPECT_THROW(redis.command({"SET", "k", "v"}), OutcomeUnknown);
  // Later commands are never sent: a plain Error (they surely did not apply), not OutcomeUnknown.
  for (int i = 0; i < 2; ++i) {
    try {
      redis.command({"GET", "k"});
      ADD_FAILURE() << "a command on a broken connection returned";
    } catch (const OutcomeUnknown& e) {
      ADD_FAILURE() << "expected a plain Error, got OutcomeUnknown: " << e.what();
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(server.address().display()), std::string::npos) << e.what();
    }
  }
}

// Release paths never throw: a release whose answer is lost is reported as unknown.
TEST(RedisConnection, ReleaseWithNoAnswerIsUnknownAndDoesNotThrow) {
  FakeServer server(/*pongs=*/true);
  RedisConnection redis(server.address(), kShortTimeouts);
  RedisLock lock(redis, LockKey::for_account(9999));
  EXPECT_EQ(lock.release(Token{"0123456789abcdef0123456789abcdef"}), ReleaseResult::unknown);
  EXPECT_EQ(lock.release(Token{"0123456789abcdef0123456789abcdef"}), ReleaseResult::unknown);
}

}  // namespace
}  // namespace rlock
