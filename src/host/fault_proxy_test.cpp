#include "host/fault_proxy.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "host/child.h"
#include "host/process.h"
#include "host/temp_dir.h"
#include "rlock/error.h"
#include "rlock/redis_connection.h"
#include "testing/test_env.h"

namespace rlock::host {
namespace {

using namespace std::chrono_literals;
using testing::error_message;
using testing::servers;

sockaddr_in loopback(int port) {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return address;
}

// Writes all of `bytes` to a blocking socket; false when it fails.
bool send_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

// A blocking TCP connection to 127.0.0.1:port, closed when it goes.
class Socket {
 public:
  explicit Socket(int port) : fd_(::socket(AF_INET, SOCK_STREAM, 0)) {
    sockaddr_in address = loopback(port);
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
      throw std::runtime_error("cannot connect to port " + std::to_string(port));
    }
  }
  ~Socket() { ::close(fd_); }
  Socket(const Socket&) = delete;
  Socket& operator=(const Socket&) = delete;

  void send(std::string_view bytes) {
    if (!send_all(fd_, bytes)) throw std::runtime_error("send failed");
  }
  void finish_sending() { ::shutdown(fd_, SHUT_WR); }
  int fd() const { return fd_; }
  // Everything until EOF; stops early at a reset.
  std::string receive_all() {
    std::string bytes;
    char buffer[65536];
    ssize_t n;
    while ((n = ::recv(fd_, buffer, sizeof buffer, 0)) > 0) bytes.append(buffer, static_cast<std::size_t>(n));
    return bytes;
  }

 private:
  int fd_;
};

// A server of the test's own on 127.0.0.1 that sends back every byte it gets, one thread per
// connection, and closes its side after the client's EOF.
class EchoServer {
 public:
  EchoServer() : listener_(::socket(AF_INET, SOCK_STREAM, 0)) {
    sockaddr_in address = loopback(0);
    socklen_t length = sizeof address;
    if (::bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 || ::listen(listener_, 16) != 0 ||
        ::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
      throw std::runtime_error("echo server cannot listen");
    }
    port_ = ntohs(address.sin_port);
    acceptor_ = std::thread([this] {
      int fd;
      while ((fd = ::accept(listener_, nullptr, nullptr)) >= 0) echoes_.emplace_back([fd] { echo(fd); });
    });
  }
  ~EchoServer() {
    ::shutdown(listener_, SHUT_RDWR);  // ends accept()
    acceptor_.join();
    for (std::thread& echo : echoes_) echo.join();
    ::close(listener_);
  }
  EchoServer(const EchoServer&) = delete;
  EchoServer& operator=(const EchoServer&) = delete;

  int port() const { return port_; }

 private:
  static void echo(int fd) {
    char buffer[65536];
    ssize_t n;
    while ((n = ::recv(fd, buffer, sizeof buffer, 0)) > 0) {
      if (!send_all(fd, std::string_view(buffer, static_cast<std::size_t>(n)))) break;
    }
    ::close(fd);
  }

  int listener_;
  int port_ = 0;
  std::thread acceptor_;
  std::vector<std::thread> echoes_;
};

std::string random_bytes(std::size_t size, std::mt19937& random) {
  std::string bytes(size, '\0');
  for (char& byte : bytes) byte = static_cast<char>(random());
  return bytes;
}

// Where two byte strings first differ; npos when they are equal.
std::size_t first_difference(const std::string& a, const std::string& b) {
  auto [at, other] = std::mismatch(a.begin(), a.end(), b.begin(), b.end());
  if (at == a.end() && other == b.end()) return std::string::npos;
  return static_cast<std::size_t>(at - a.begin());
}

// Sends `bytes` through `port` in writes of random sizes, calling `between_writes` after each, and
// reads back what the echo returns, until EOF.
std::string echo_through(int port, const std::string& bytes, unsigned seed,
                         const std::function<void(std::mt19937&)>& between_writes) {
  Socket socket(port);
  std::string received;
  std::thread reader([&] { received = socket.receive_all(); });
  std::mt19937 random(seed);
  for (std::size_t at = 0; at < bytes.size();) {
    std::size_t size = std::min<std::size_t>(1 + random() % 16384, bytes.size() - at);
    socket.send(std::string_view(bytes).substr(at, size));
    at += size;
    between_writes(random);
  }
  socket.finish_sending();
  reader.join();
  return received;
}

void no_fault(std::mt19937&) {}

// Now and then, a new fault for a random direction: pass, a delay of 1 to 5 ms, or a hold of up to
// 10 ms; then a pause.
void change_fault(FaultProxy& proxy, std::mt19937& random) {
  if (random() % 8 != 0) return;
  const Direction directions[] = {Direction::to_server, Direction::to_client, Direction::both};
  Direction direction = directions[random() % 3];
  switch (random() % 3) {
    case 0: proxy.pass(direction); break;
    case 1: proxy.delay(std::chrono::milliseconds(1 + random() % 5), direction); break;
    default:
      proxy.hold(direction);
      std::this_thread::sleep_for(std::chrono::milliseconds(random() % 10));
      proxy.pass(direction);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(random() % 3));
}

// The port of a descriptor's IPv4 socket, its own or its peer's; -1 for anything else.
int port_of(int fd, bool peer) {
  sockaddr_storage address{};
  socklen_t length = sizeof address;
  auto* any = reinterpret_cast<sockaddr*>(&address);
  if ((peer ? ::getpeername(fd, any, &length) : ::getsockname(fd, any, &length)) != 0 || address.ss_family != AF_INET) {
    return -1;
  }
  return ntohs(reinterpret_cast<sockaddr_in*>(&address)->sin_port);
}

// The proxy's sockets among this process's descriptors: those on its port (its listener and the
// connections it accepted) and those connected to its upstream.
std::vector<int> proxy_sockets(const FaultProxy& proxy, int upstream_port) {
  std::vector<int> found;
  std::error_code ignored;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd", ignored)) {
    int fd = std::stoi(entry.path().filename().string());
    if (port_of(fd, false) == proxy.port() || port_of(fd, true) == upstream_port) found.push_back(fd);
  }
  return found;
}

TEST(FaultProxy, ItsSocketsAreCloseOnExec) {
  EchoServer echo;
  FaultProxy proxy("127.0.0.1", echo.port());
  Socket client(proxy.port());
  ASSERT_TRUE(wait_for(2s, [&] { return proxy.accepted() == 1; }));
  std::vector<int> sockets = proxy_sockets(proxy, echo.port());
  EXPECT_EQ(sockets.size(), 3u) << "its listener, the accepted connection and the upstream one";
  for (int fd : sockets) EXPECT_NE(::fcntl(fd, F_GETFD) & FD_CLOEXEC, 0) << "descriptor " << fd;
}

TEST(FaultProxy, AChildForkedWhileItRunsHoldsNoneOfItsSockets) {
  EchoServer echo;
  FaultProxy proxy("127.0.0.1", echo.port());
  Socket client(proxy.port());
  ASSERT_TRUE(wait_for(2s, [&] { return proxy.accepted() == 1; }));
  pid_t child = fork_child([&] { return static_cast<int>(proxy_sockets(proxy, echo.port()).size()); });
  EXPECT_EQ(reap(child).code(), 0) << "sockets of the proxy's in a forked child";

  // A child that lives on does not keep a reset connection open: the client sees the reset now.
  pid_t holder = fork_child([] {
    ::sleep(10);
    return 0;
  });
  proxy.reset();
  timeval two_seconds{2, 0};
  ::setsockopt(client.fd(), SOL_SOCKET, SO_RCVTIMEO, &two_seconds, sizeof two_seconds);
  char byte = 0;
  ssize_t n = ::recv(client.fd(), &byte, 1, 0);
  int error = errno;
  kill_and_reap(holder);
  EXPECT_TRUE(n == 0 || (n < 0 && error == ECONNRESET)) << "recv gave " << n << ", errno " << error;
}

// A child forked while the proxy's thread works can allocate: the thread is never inside the
// allocator at a fork (an allocator whose lock a fork can copy held, as AddressSanitizer's before
// LLVM 15, would leave the child stuck on its first allocation). The traffic comes from a thread
// that itself allocates nothing, so that only the proxy's thread can hold the allocator.
TEST(FaultProxy, AChildForkedWhileItWorksCanAllocate) {
  FaultProxy proxy(servers().redis.host, servers().redis.port);
  Socket client(proxy.port());
  std::atomic<bool> done{false};
  std::thread traffic([&] {
    static constexpr char kPings[] = "PING\r\nPING\r\nPING\r\nPING\r\n";
    char replies[4 * 7];
    while (!done.load()) {
      if (!send_all(client.fd(), kPings) ||
          ::recv(client.fd(), replies, sizeof replies, MSG_WAITALL) != static_cast<ssize_t>(sizeof replies)) {
        return;
      }
    }
  });
  int stuck = 0;
  for (int i = 0; i < 100 && stuck == 0; ++i) {
    pid_t child = fork_child([] {
      std::vector<std::string> pieces;
      for (int n = 1; n <= 64; ++n) pieces.emplace_back(static_cast<std::size_t>(n) * 100, 'x');
      return pieces.size() == 64 ? 0 : 1;
    });
    if (!wait_for(5s, [&] { return try_reap(child).has_value(); })) {
      ++stuck;
      kill_and_reap(child);
    }
  }
  done = true;
  traffic.join();
  EXPECT_EQ(stuck, 0) << "a child forked while the proxy worked never finished allocating";
}

TEST(FaultProxy, AtTheDescriptorLimitItRestsInsteadOfSpinning) {
  // Upstream, the test's Redis: a process of its own, with descriptors of its own.
  FaultProxy proxy(servers().redis.host, servers().redis.port);
  rlimit before{};
  ASSERT_EQ(::getrlimit(RLIMIT_NOFILE, &before), 0);
  rlimit low = before;
  low.rlim_cur = 256;
  ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &low), 0);
  // Every descriptor taken but the client's: the proxy's accept4 fails with EMFILE.
  std::vector<int> fillers;
  for (int fd; (fd = ::fcntl(0, F_DUPFD_CLOEXEC, 0)) >= 0;) fillers.push_back(fd);
  ASSERT_FALSE(fillers.empty());
  ::close(fillers.back());
  fillers.pop_back();
  std::unique_ptr<Socket> client = std::make_unique<Socket>(proxy.port());  // connected: waiting in the backlog

  auto cpu = [] {
    rusage usage{};
    ::getrusage(RUSAGE_SELF, &usage);
    return std::chrono::seconds(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
           std::chrono::microseconds(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
  };
  auto cpu_before = cpu();
  auto wall_before = std::chrono::steady_clock::now();
  std::this_thread::sleep_for(1s);
  double ratio = std::chrono::duration<double>(cpu() - cpu_before).count() /
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_before).count();
  EXPECT_EQ(proxy.accepted(), 0u);

  for (int fd : fillers) ::close(fd);
  ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &before), 0);
  EXPECT_LT(ratio, 0.05) << "the process used " << ratio << " s of CPU a second at the descriptor limit";
  EXPECT_TRUE(wait_for(2s, [&] { return proxy.accepted() == 1; })) << "the waiting client was never accepted";
  timeval two_seconds{2, 0};
  ::setsockopt(client->fd(), SOL_SOCKET, SO_RCVTIMEO, &two_seconds, sizeof two_seconds);
  client->send("PING\r\n");
  char reply[7] = {};
  EXPECT_EQ(::recv(client->fd(), reply, sizeof reply, MSG_WAITALL), 7);
  EXPECT_EQ(std::string(reply, sizeof reply), "+PONG\r\n");
}

TEST(FaultProxy, DeliversEveryByteOnceAndInOrderWhileItsFaultsChange) {
  EchoServer echo;
  FaultProxy proxy("127.0.0.1", echo.port());
  std::mt19937 random(15);
  const std::vector<std::string> sent{random_bytes(3 << 20, random), random_bytes(2 << 20, random)};
  std::vector<std::string> received(sent.size());
  std::vector<std::thread> clients;
  for (std::size_t i = 0; i < sent.size(); ++i) {
    clients.emplace_back([&, i] {
      auto faults = [&](std::mt19937& r) { change_fault(proxy, r); };
      received[i] = echo_through(proxy.port(), sent[i], static_cast<unsigned>(i), faults);
    });
  }
  for (std::thread& client : clients) client.join();
  for (std::size_t i = 0; i < sent.size(); ++i) {
    EXPECT_EQ(received[i].size(), sent[i].size()) << "connection " << i;
    EXPECT_EQ(first_difference(received[i], sent[i]), std::string::npos) << "connection " << i;
  }
}

TEST(FaultProxy, HeldBytesBeyondItsQueueLimitAllArriveAfterPass) {
  EchoServer echo;
  FaultProxy proxy("127.0.0.1", echo.port());
  std::mt19937 random(16);
  const std::string sent = random_bytes(12 << 20, random);
  proxy.hold(Direction::to_client);
  std::string received;
  std::thread client([&] { received = echo_through(proxy.port(), sent, 1, no_fault); });
  std::this_thread::sleep_for(300ms);  // the sender fills the queue and the sockets, then waits
  proxy.pass();
  client.join();
  EXPECT_EQ(received.size(), sent.size());
  EXPECT_EQ(first_difference(received, sent), std::string::npos);
}

TEST(FaultProxy, APortAlreadyTakenIsAnErrorNamingIt) {
  FaultProxy first("127.0.0.1", testing::closed_port());
  std::string message =
      error_message<Error>([&] { FaultProxy second("127.0.0.1", testing::closed_port(), first.port()); });
  EXPECT_NE(message.find(std::to_string(first.port())), std::string::npos) << message;
}

TEST(FaultProxy, AClientOfAnUnreachableUpstreamIsCutOff) {
  FaultProxy proxy("127.0.0.1", testing::closed_port());
  Socket client(proxy.port());
  EXPECT_EQ(client.receive_all(), "");
}

// The test's Redis, reached through a proxy, with short command timeouts; and a key of this test.
struct RedisBehindProxy {
  RedisBehindProxy() : proxy(servers().redis.host, servers().redis.port), direct(servers().redis) {
    direct.checked({"DEL", kKey});
  }
  ~RedisBehindProxy() {
    try {
      direct.checked({"DEL", kKey});
    } catch (const std::exception& e) {
      ADD_FAILURE() << "cannot delete " << kKey << ": " << e.what();
    }
  }

  // A connection through the proxy whose commands time out after `patience`.
  RedisConnection connect(std::chrono::milliseconds patience = 300ms) {
    RedisAddress address = servers().redis;
    address.host = "127.0.0.1";
    address.port = proxy.port();
    return RedisConnection(address, RedisTimeouts{2000ms, patience});
  }
  std::string value() { return direct.checked({"GET", kKey}).text(); }

  static constexpr const char* kKey = "rlock:test:fault_proxy";
  FaultProxy proxy;
  RedisConnection direct;
};

TEST(FaultProxy, RedisAnswersThroughItWhenItPasses) {
  RedisBehindProxy redis;
  RedisConnection through = redis.connect();
  EXPECT_EQ(through.checked({"PING"}).text(), "PONG");
  EXPECT_EQ(redis.proxy.accepted(), 1u);
}

TEST(FaultProxy, AHeldCommandTimesOutAndIsAppliedOnceAfterPass) {
  RedisBehindProxy redis;
  RedisConnection through = redis.connect();
  redis.proxy.hold();
  EXPECT_THROW(through.command({"INCR", RedisBehindProxy::kKey}), OutcomeUnknown);
  EXPECT_EQ(redis.value(), "(nil)") << "held, not yet delivered";
  redis.proxy.pass();
  EXPECT_TRUE(wait_for(2s, [&] { return redis.value() == "1"; })) << "delivered after pass: " << redis.value();
  EXPECT_EQ(through.checked({"GET", RedisBehindProxy::kKey}).text(), "1") << "applied once";
}

TEST(FaultProxy, ABlackHoledCommandTimesOutAndIsNeverApplied) {
  RedisBehindProxy redis;
  RedisConnection through = redis.connect();
  redis.proxy.black_hole();
  EXPECT_THROW(through.command({"INCR", RedisBehindProxy::kKey}), OutcomeUnknown);
  redis.proxy.pass();
  EXPECT_EQ(through.checked({"PING"}).text(), "PONG") << "a new connection passes";
  EXPECT_EQ(redis.value(), "(nil)");
}

TEST(FaultProxy, ResetFailsTheNextCommandAndTheOneAfterReconnects) {
  RedisBehindProxy redis;
  RedisConnection through = redis.connect();
  redis.proxy.reset();
  EXPECT_THROW(through.command({"PING"}), OutcomeUnknown);
  EXPECT_EQ(through.checked({"PING"}).text(), "PONG");
  EXPECT_EQ(redis.proxy.accepted(), 2u);
}

TEST(FaultProxy, RefusedConnectionsFailUntilItAcceptsAgain) {
  RedisBehindProxy redis;
  RedisConnection through = redis.connect();
  redis.proxy.refuse(true);
  EXPECT_THROW(through.command({"PING"}), OutcomeUnknown) << "the current connection reset";
  EXPECT_ANY_THROW(through.checked({"PING"})) << "its reconnection refused";
  EXPECT_ANY_THROW(redis.connect()) << "a new connection refused";
  std::uint64_t refused = redis.proxy.accepted();
  EXPECT_GE(refused, 3u);
  redis.proxy.refuse(false);
  EXPECT_EQ(through.checked({"PING"}).text(), "PONG") << "accepted again";
  EXPECT_EQ(redis.proxy.accepted(), refused + 1);
}

TEST(FaultProxy, RedisClosesAConnectionByItsUpstreamAddress) {
  RedisBehindProxy redis;
  RedisConnection through = redis.connect();
  EXPECT_EQ(through.checked({"PING"}).text(), "PONG");
  std::vector<std::string> addresses = redis.proxy.upstream_addresses();
  ASSERT_EQ(addresses.size(), 1u);
  EXPECT_EQ(redis.direct.checked({"CLIENT", "KILL", "ADDR", addresses.front()}).integer(), 1);
  EXPECT_THROW(through.command({"PING"}), OutcomeUnknown) << "the server closed it";
  EXPECT_EQ(through.checked({"PING"}).text(), "PONG") << "and the next command reconnects";
}

// An INCR sent through `redis`'s proxy on a connection made before lose_next_reply(settle): it
// must fail (OutcomeUnknown), and the time until it did.
std::chrono::steady_clock::duration failed_incr_after_lost_reply(RedisBehindProxy& redis, RedisConnection& through,
                                                                 std::chrono::milliseconds settle) {
  EXPECT_EQ(through.checked({"PING"}).text(), "PONG");
  redis.proxy.lose_next_reply(settle);
  auto start = std::chrono::steady_clock::now();
  EXPECT_THROW(through.command({"INCR", RedisBehindProxy::kKey}), OutcomeUnknown);
  return std::chrono::steady_clock::now() - start;
}

TEST(FaultProxy, ALostReplysCommandIsAppliedAndItsClientResetInsteadOfAnswered) {
  RedisBehindProxy redis;
  RedisConnection through = redis.connect(5000ms);
  EXPECT_LT(failed_incr_after_lost_reply(redis, through, 0ms), 2s) << "reset, not timed out";
  EXPECT_EQ(redis.value(), "1") << "the server applied it";
  EXPECT_EQ(redis.proxy.replies_lost(), 1u);
  EXPECT_EQ(through.checked({"INCR", RedisBehindProxy::kKey}).integer(), 2) << "the next command reconnects";
  EXPECT_EQ(redis.proxy.replies_lost(), 1u) << "once";
}

TEST(FaultProxy, ALostReplyWaitsItsSettleAfterTheRequest) {
  RedisBehindProxy redis;
  RedisConnection through = redis.connect(5000ms);
  EXPECT_GE(failed_incr_after_lost_reply(redis, through, 300ms), 300ms);
  EXPECT_EQ(redis.value(), "1");
  EXPECT_EQ(redis.proxy.replies_lost(), 1u);
}

TEST(FaultProxy, PassBeforeTheRequestLosesNoReply) {
  RedisBehindProxy redis;
  RedisConnection through = redis.connect(5000ms);
  redis.proxy.lose_next_reply(0ms);
  redis.proxy.pass();
  EXPECT_EQ(through.checked({"INCR", RedisBehindProxy::kKey}).integer(), 1);
  EXPECT_EQ(redis.proxy.replies_lost(), 0u);
}

TEST(FaultProxy, ALostRequestIsNeverAppliedAndItsClientResetInsteadOfTimedOut) {
  RedisBehindProxy redis;
  RedisConnection through = redis.connect(5000ms);
  EXPECT_EQ(through.checked({"PING"}).text(), "PONG");
  redis.proxy.lose_next_request();
  auto start = std::chrono::steady_clock::now();
  EXPECT_THROW(through.command({"INCR", RedisBehindProxy::kKey}), OutcomeUnknown);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 2s) << "reset, not timed out";
  EXPECT_EQ(redis.proxy.requests_lost(), 1u);
  EXPECT_EQ(redis.value(), "(nil)") << "the server never saw it";
  EXPECT_EQ(through.checked({"INCR", RedisBehindProxy::kKey}).integer(), 1) << "the next command reconnects, once";
  EXPECT_EQ(redis.proxy.requests_lost(), 1u);
}

TEST(FaultProxy, PassBeforeTheRequestLosesNoRequest) {
  RedisBehindProxy redis;
  RedisConnection through = redis.connect(5000ms);
  redis.proxy.lose_next_request();
  redis.proxy.pass();
  EXPECT_EQ(through.checked({"INCR", RedisBehindProxy::kKey}).integer(), 1);
  EXPECT_EQ(redis.proxy.requests_lost(), 0u);
}

// What `command` prints on stdout, run by /bin/sh.
std::string shell_output(const std::string& command) {
  std::string output;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) throw std::runtime_error("popen: " + command);
  char buffer[4096];
  while (std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, n);
  ::pclose(pipe);
  return output;
}

// etcd's gRPC over HTTP/2: a transaction deleting a key, sent on a connection made before the fault
// (etcdctl's interactive txn dials first, then reads the transaction from its stdin).
TEST(FaultProxy, EtcdAppliesADeleteWhoseReplyIsLostAndItsClientFails) {
  std::string etcd = testing::required_env("ETCD_ENDPOINT");
  std::size_t colon = etcd.rfind(':');
  FaultProxy proxy(etcd.substr(0, colon), std::stoi(etcd.substr(colon + 1)));
  const std::string key = "rlock/test/fault_proxy/lost_reply";
  const std::string etcdctl = "ETCDCTL_API=3 etcdctl --dial-timeout=5s --command-timeout=20s --endpoints=";
  ASSERT_EQ(shell_output(etcdctl + etcd + " put " + key + " 1"), "OK\n");
  TempDir dir("rlock_fault_proxy_test");
  std::filesystem::path said = dir.path() / "etcdctl.txt";
  FILE* txn = ::popen(
      (etcdctl + "127.0.0.1:" + std::to_string(proxy.port()) + " txn -i >" + said.string() + " 2>&1").c_str(), "w");
  ASSERT_NE(txn, nullptr);
  EXPECT_TRUE(wait_for(10s, [&] { return proxy.accepted() == 1; }));
  std::this_thread::sleep_for(1s);  // its connection's handshake answered: ready
  proxy.lose_next_reply(250ms);
  std::fputs(("\ndel " + key + "\n\n\n").c_str(), txn);
  int status = ::pclose(txn);
  std::string output = shell_output("cat " + said.string());
  EXPECT_NE(status, 0) << "the client heard no answer: " << output;
  EXPECT_EQ(proxy.replies_lost(), 1u);
  EXPECT_EQ(shell_output(etcdctl + etcd + " get " + key), "") << "the server applied the delete";
}

TEST(FaultProxy, ADelayedPingTakesAtLeastTheDelayEachWay) {
  RedisBehindProxy redis;
  RedisConnection through = redis.connect(5000ms);
  auto timed_ping = [&] {
    auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(through.checked({"PING"}).text(), "PONG");
    return std::chrono::steady_clock::now() - start;
  };
  redis.proxy.delay(50ms, Direction::to_server);
  EXPECT_GE(timed_ping(), 50ms);
  redis.proxy.delay(50ms);
  EXPECT_GE(timed_ping(), 100ms);
}

}  // namespace
}  // namespace rlock::host
