#include "host/fault_proxy.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <deque>
#include <future>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "rlock/error.h"

namespace rlock::host {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::size_t kReadSize = 64 * 1024;
constexpr std::size_t kQueueLimit = 4 * 1024 * 1024;  // bytes queued in one direction before it stops reading
// At the descriptor limit a pending connection keeps the listener readable: it rests this long
// before it tries to accept again, instead of polling at full speed.
constexpr auto kAcceptBackoff = std::chrono::milliseconds(100);

bool out_of_descriptors(int error) { return error == EMFILE || error == ENFILE || error == ENOBUFS || error == ENOMEM; }

// The descriptors of every proxy in this process, and the one gate of their threads' work. A child
// forked while proxies run (a chaos worker) closes them at once: a copy of a connection would keep
// it open after the proxy closed or reset it, and a copy of a listener would keep its port. Each
// descriptor is opened and closed under the mutex that fork takes (pthread_atfork), so none is
// half-registered when a child is made. A proxy's thread works only while it holds the gate shared,
// and lets go of it while it polls; fork takes it exclusive, so that no proxy's thread is inside
// the allocator, or any other lock, when the child is copied (AddressSanitizer's allocator before
// LLVM 15 has no fork handler of its own: a child copied while a thread held it would hang on its
// first allocation). Writers are preferred, so busy proxies cannot keep a fork waiting.
class ProxyDescriptors {
 public:
  static ProxyDescriptors& instance() {
    static ProxyDescriptors* descriptors = [] {
      auto* made = new ProxyDescriptors;  // never destroyed: a proxy may outlive static destruction
      ::pthread_atfork([] { instance().before_fork(); }, [] { instance().after_fork(); },
                       [] { instance().close_all_in_child(); });
      return made;
    }();
    return *descriptors;
  }
  // Runs `open` (socket, accept4, eventfd) and registers the descriptor it returns, unless negative.
  template <typename Open>
  int open(Open&& open) {
    std::lock_guard lock(mutex_);
    int fd = open();
    if (fd >= 0) fds_.push_back(fd);
    return fd;
  }
  void close(int fd) {
    std::lock_guard lock(mutex_);
    std::erase(fds_, fd);
    ::close(fd);
  }
  // A proxy's thread between two polls.
  void start_work() { ::pthread_rwlock_rdlock(&gate_); }
  void stop_work() { ::pthread_rwlock_unlock(&gate_); }

 private:
  ProxyDescriptors() {
    pthread_rwlockattr_t writers_first;
    ::pthread_rwlockattr_init(&writers_first);
    ::pthread_rwlockattr_setkind_np(&writers_first, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
    ::pthread_rwlock_init(&gate_, &writers_first);
    ::pthread_rwlockattr_destroy(&writers_first);
  }
  void before_fork() {
    ::pthread_rwlock_wrlock(&gate_);
    mutex_.lock();
  }
  void after_fork() {
    mutex_.unlock();
    ::pthread_rwlock_unlock(&gate_);
  }
  void close_all_in_child() {
    for (int fd : fds_) ::close(fd);
    fds_.clear();
    after_fork();
  }

  std::mutex mutex_;
  std::vector<int> fds_;
  pthread_rwlock_t gate_;
};

// Holds the gate while a proxy's thread works (ProxyDescriptors).
class Working {
 public:
  Working() { ProxyDescriptors::instance().start_work(); }
  ~Working() { ProxyDescriptors::instance().stop_work(); }
  Working(const Working&) = delete;
  Working& operator=(const Working&) = delete;
};

struct Fault {
  enum class Kind { pass, delay, hold, black_hole };
  Kind kind = Kind::pass;
  std::chrono::milliseconds delay{0};
};

// A socket, closed when its owner goes.
class Fd {
 public:
  Fd() = default;
  // Opens it through `open`, registered (ProxyDescriptors); invalid (get() < 0) when that failed.
  template <typename Open>
  static Fd opened(Open&& open) {
    return Fd(ProxyDescriptors::instance().open(std::forward<Open>(open)));
  }
  Fd(Fd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  Fd& operator=(Fd&& other) noexcept {
    if (this != &other) {
      close();
      fd_ = std::exchange(other.fd_, -1);
    }
    return *this;
  }
  ~Fd() { close(); }
  int get() const { return fd_; }
  void close() {
    if (fd_ >= 0) ProxyDescriptors::instance().close(fd_);
    fd_ = -1;
  }
  // Closes with a TCP RST instead of a FIN.
  void abort() {
    if (fd_ < 0) return;
    linger hard{1, 0};
    ::setsockopt(fd_, SOL_SOCKET, SO_LINGER, &hard, sizeof hard);
    close();
  }

 private:
  explicit Fd(int fd) : fd_(fd) {}

  int fd_ = -1;
};

void set_nodelay(int fd) {
  int on = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
}

bool would_block() { return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR; }

struct Chunk {
  Clock::time_point arrived;
  std::string bytes;
  bool eof = false;
};

bool due(const Chunk& chunk, const Fault& fault, Clock::time_point now) {
  switch (fault.kind) {
    case Fault::Kind::pass: return true;
    case Fault::Kind::delay: return chunk.arrived + fault.delay <= now;
    case Fault::Kind::hold:
    case Fault::Kind::black_hole: return false;
  }
  return false;
}

// One direction of one connection: what was read from its source and not yet written to its
// destination, in order.
struct Flow {
  std::deque<Chunk> queue;
  std::uint64_t received = 0;  // bytes ever read from its source
  std::size_t queued = 0;      // bytes in queue
  std::size_t written = 0;     // bytes of the front chunk already written
  bool source_done = false;    // EOF read
  bool shut = false;           // EOF delivered

  bool wants_to_read() const { return !source_done && queued < kQueueLimit; }
  bool has_due(const Fault& fault, Clock::time_point now) const {
    return !queue.empty() && due(queue.front(), fault, now);
  }
  // When the front chunk falls due under a delay; nothing when it never does or already did.
  std::optional<Clock::time_point> next_due(const Fault& fault) const {
    if (queue.empty() || fault.kind != Fault::Kind::delay) return std::nullopt;
    return queue.front().arrived + fault.delay;
  }

  // Reads once from `from`. False when the source failed (reset).
  bool read(int from, const Fault& fault, Clock::time_point now) {
    if (source_done) return true;
    static thread_local char buffer[kReadSize];
    ssize_t n = ::recv(from, buffer, sizeof buffer, 0);
    if (n < 0) return would_block();
    if (n > 0) received += static_cast<std::uint64_t>(n);
    if (n == 0) {
      source_done = true;
      queue.push_back(Chunk{now, {}, true});
    } else if (fault.kind != Fault::Kind::black_hole) {
      auto size = static_cast<std::size_t>(n);
      queue.push_back(Chunk{now, std::string(buffer, size), false});
      queued += size;
    }
    return true;
  }

  // Writes to `to` what is due, in order, as far as the socket takes it. False when `to` failed.
  bool pump(int to, const Fault& fault, Clock::time_point now) {
    while (has_due(fault, now)) {
      Chunk& front = queue.front();
      if (front.eof) {
        ::shutdown(to, SHUT_WR);
        shut = true;
        queue.pop_front();
        continue;
      }
      ssize_t n = ::send(to, front.bytes.data() + written, front.bytes.size() - written, MSG_NOSIGNAL);
      if (n < 0) return would_block();
      written += static_cast<std::size_t>(n);
      if (written < front.bytes.size()) return true;
      queued -= front.bytes.size();
      written = 0;
      queue.pop_front();
    }
    return true;
  }
};

// One client connection and its own upstream connection.
struct Link {
  Fd client;
  Fd server;
  bool connecting = true;  // the upstream connect() is under way
  bool dead = false;
  Flow up;    // client to server
  Flow down;  // server to client

  void abort() {
    client.abort();
    server.abort();
    dead = true;
  }
};

}  // namespace

// lose_next_reply's state: armed until it struck or the client's direction got another command.
struct LostReply {
  bool armed = false;
  std::chrono::milliseconds settle{0};
  std::optional<Clock::time_point> asked;  // when the client's first bytes since it was armed came
  bool answered = false;                   // the server sent bytes since then
};

// lose_next_request's state: armed until it struck or the server's direction got another command.
struct LostRequest {
  bool armed = false;
  bool asked = false;  // the client sent bytes since it was armed (held, never sent on)
};

struct FaultProxy::Loop {
  Fd listener;
  sockaddr_storage upstream{};
  socklen_t upstream_length = 0;
  Fault up;
  Fault down;
  LostReply lost;
  LostRequest lost_request;
  std::deque<Link> links;
  std::atomic<std::uint64_t>* accepted = nullptr;
  std::atomic<std::uint64_t>* replies_lost = nullptr;
  std::atomic<std::uint64_t>* requests_lost = nullptr;
  bool refusing = false;  // refuse(): each new connection reset once accepted

  void set(Direction direction, Fault fault) {
    if (direction != Direction::to_client) {
      up = fault;
      lost_request = {};
    }
    if (direction != Direction::to_server) {
      down = fault;
      lost = {};
    }
  }

  // Once the client asked and the server answered, and `settle` passed: every connection reset,
  // the answer dropped with it.
  void strike_lost_reply(Clock::time_point now) {
    if (!lost.armed || !lost.asked || !lost.answered || now < *lost.asked + lost.settle) return;
    replies_lost->fetch_add(1);  // counted before the client can see the reset
    reset_all();
    set(Direction::both, Fault{});
  }

  // Once the client sent bytes, held: every connection reset, the bytes dropped with it.
  void strike_lost_request() {
    if (!lost_request.armed || !lost_request.asked) return;
    requests_lost->fetch_add(1);  // counted before the client can see the reset
    reset_all();
    set(Direction::both, Fault{});
  }

  std::optional<Clock::time_point> accept_resumes;  // set at the descriptor limit: accepting rests until then

  void accept_all(Clock::time_point now) {
    while (true) {
      Fd client = Fd::opened([&] { return ::accept4(listener.get(), nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC); });
      if (client.get() < 0) {
        if (out_of_descriptors(errno)) accept_resumes = now + kAcceptBackoff;
        return;
      }
      accepted->fetch_add(1);
      if (refusing) {
        client.abort();  // a reset at once: the server cannot be reached
        continue;
      }
      Link& link = links.emplace_back();
      link.client = std::move(client);
      set_nodelay(link.client.get());
      link.server =
          Fd::opened([&] { return ::socket(upstream.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0); });
      if (link.server.get() < 0 && out_of_descriptors(errno)) {
        link.abort();
        accept_resumes = now + kAcceptBackoff;
        return;
      }
      if (link.server.get() < 0 ||
          (::connect(link.server.get(), reinterpret_cast<const sockaddr*>(&upstream), upstream_length) != 0 &&
           errno != EINPROGRESS)) {
        link.abort();
      }
    }
  }

  bool accepting(Clock::time_point now) {
    if (accept_resumes && *accept_resumes > now) return false;
    accept_resumes.reset();
    return true;
  }

  void reset_all() {
    accept_all(Clock::now());  // a connection waiting in the backlog is a current one too
    for (Link& link : links) link.abort();
    links.clear();
  }

  // The poll entries of one link: client then server.
  void want(const Link& link, Clock::time_point now, pollfd* entries) const {
    short client = 0, server = 0;
    if (link.up.wants_to_read()) client |= POLLIN;
    if (link.down.has_due(down, now)) client |= POLLOUT;
    if (link.connecting) {
      server = POLLOUT;
    } else {
      if (link.down.wants_to_read()) server |= POLLIN;
      if (link.up.has_due(up, now)) server |= POLLOUT;
    }
    // An fd with nothing wanted is left out: poll would report its hang-up over and over.
    entries[0] = pollfd{client != 0 ? link.client.get() : -1, client, 0};
    entries[1] = pollfd{server != 0 ? link.server.get() : -1, server, 0};
  }

  void handle(Link& link, const pollfd* entries, Clock::time_point now) {
    constexpr short kReady = POLLIN | POLLERR | POLLHUP;
    if (link.connecting && entries[1].revents != 0) {
      int error = 0;
      socklen_t length = sizeof error;
      ::getsockopt(link.server.get(), SOL_SOCKET, SO_ERROR, &error, &length);
      if (error != 0) return link.abort();
      link.connecting = false;
      set_nodelay(link.server.get());
    } else if ((entries[1].revents & kReady) != 0) {
      std::uint64_t before = link.down.received;
      if (!link.down.read(link.server.get(), down, now)) return link.abort();
      if (lost.asked && link.down.received > before) lost.answered = true;
    }
    if ((entries[0].revents & kReady) != 0) {
      std::uint64_t before = link.up.received;
      if (!link.up.read(link.client.get(), up, now)) return link.abort();
      if (lost.armed && !lost.asked && link.up.received > before) lost.asked = now;
      if (lost_request.armed && link.up.received > before) lost_request.asked = true;
    }
  }

  void pump(Link& link, Clock::time_point now) {
    if (link.dead) return;
    if (!link.connecting && !link.up.pump(link.server.get(), up, now)) return link.abort();
    if (!link.down.pump(link.client.get(), down, now)) return link.abort();
    if (link.up.shut && link.down.shut) {
      link.client.close();
      link.server.close();
      link.dead = true;
    }
  }

  // How long poll may sleep: until the first delayed byte falls due, accepting resumes or a lost
  // reply's connections are due to be reset, or for ever.
  int timeout(Clock::time_point now) const {
    std::optional<Clock::time_point> first = accept_resumes;
    if (lost.armed && lost.asked && lost.answered && (!first || *lost.asked + lost.settle < *first)) {
      first = *lost.asked + lost.settle;
    }
    for (const Link& link : links) {
      for (auto next : {link.connecting ? std::nullopt : link.up.next_due(up), link.down.next_due(down)}) {
        // A byte already due waits for POLLOUT, not for the clock.
        if (next && *next > now && (!first || *next < *first)) first = next;
      }
    }
    if (!first) return -1;
    auto wait = std::chrono::ceil<std::chrono::milliseconds>(*first - now).count();
    return static_cast<int>(std::max<decltype(wait)>(wait, 0));
  }
};

FaultProxy::FaultProxy(const std::string& upstream_host, int upstream_port, int listen_port)
    : loop_(std::make_unique<Loop>()) {
  loop_->accepted = &accepted_;
  loop_->replies_lost = &replies_lost_;
  loop_->requests_lost = &requests_lost_;
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  int status = ::getaddrinfo(upstream_host.c_str(), std::to_string(upstream_port).c_str(), &hints, &found);
  if (status != 0 || found == nullptr) {
    throw Error(fmt::format("fault proxy: cannot resolve upstream {}:{}: {}", upstream_host, upstream_port,
                            ::gai_strerror(status)));
  }
  std::memcpy(&loop_->upstream, found->ai_addr, found->ai_addrlen);
  loop_->upstream_length = found->ai_addrlen;
  ::freeaddrinfo(found);

  loop_->listener = Fd::opened([] { return ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0); });
  int on = 1;
  ::setsockopt(loop_->listener.get(), SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(listen_port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  if (loop_->listener.get() < 0 ||
      ::bind(loop_->listener.get(), reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      ::listen(loop_->listener.get(), SOMAXCONN) != 0 ||
      ::getsockname(loop_->listener.get(), reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    throw Error(fmt::format("fault proxy cannot listen on 127.0.0.1:{}: {}", listen_port, std::strerror(errno)));
  }
  port_ = ntohs(address.sin_port);
  wake_fd_ = ProxyDescriptors::instance().open([] { return ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); });
  if (wake_fd_ < 0) throw Error(fmt::format("fault proxy: eventfd: {}", std::strerror(errno)));
  // Returns once the thread runs: a thread still starting is outside the fork gate, and the
  // runtime's start-up may allocate.
  std::promise<void> running;
  std::future<void> started = running.get_future();
  thread_ = std::thread([this, &running] {
    running.set_value();
    run();
  });
  started.wait();
}

FaultProxy::~FaultProxy() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  std::uint64_t one = 1;
  [[maybe_unused]] ssize_t ignored = ::write(wake_fd_, &one, sizeof one);
  thread_.join();
  ProxyDescriptors::instance().close(wake_fd_);
}

void FaultProxy::pass(Direction direction) {
  apply([direction](Loop& loop) { loop.set(direction, Fault{}); });
}

void FaultProxy::delay(std::chrono::milliseconds ms, Direction direction) {
  apply([direction, ms](Loop& loop) { loop.set(direction, Fault{Fault::Kind::delay, ms}); });
}

void FaultProxy::hold(Direction direction) {
  apply([direction](Loop& loop) { loop.set(direction, Fault{Fault::Kind::hold, {}}); });
}

void FaultProxy::black_hole(Direction direction) {
  apply([direction](Loop& loop) { loop.set(direction, Fault{Fault::Kind::black_hole, {}}); });
}

void FaultProxy::reset() {
  apply([](Loop& loop) { loop.reset_all(); });
}

void FaultProxy::refuse(bool refused) {
  apply([refused](Loop& loop) {
    if (refused) loop.reset_all();
    loop.refusing = refused;
  });
}

void FaultProxy::lose_next_reply(std::chrono::milliseconds settle) {
  apply([settle](Loop& loop) {
    loop.set(Direction::to_client, Fault{Fault::Kind::hold, {}});
    loop.lost = LostReply{true, settle, std::nullopt, false};
  });
}

void FaultProxy::lose_next_request() {
  apply([](Loop& loop) {
    loop.set(Direction::to_server, Fault{Fault::Kind::hold, {}});
    loop.lost_request = LostRequest{true, false};
  });
}

std::vector<std::string> FaultProxy::upstream_addresses() {
  std::vector<std::string> addresses;
  apply([&addresses](Loop& loop) {
    loop.accept_all(Clock::now());  // a connection waiting in the backlog is a current one too
    for (const Link& link : loop.links) {
      sockaddr_storage local{};
      socklen_t length = sizeof local;
      if (link.dead || ::getsockname(link.server.get(), reinterpret_cast<sockaddr*>(&local), &length) != 0) continue;
      char host[INET6_ADDRSTRLEN] = {};
      int port = 0;
      if (local.ss_family == AF_INET) {
        const auto& v4 = reinterpret_cast<const sockaddr_in&>(local);
        ::inet_ntop(AF_INET, &v4.sin_addr, host, sizeof host);
        port = ntohs(v4.sin_port);
      } else {
        const auto& v6 = reinterpret_cast<const sockaddr_in6&>(local);
        ::inet_ntop(AF_INET6, &v6.sin6_addr, host, sizeof host);
        port = ntohs(v6.sin6_port);
      }
      addresses.push_back(fmt::format("{}:{}", host, port));
    }
  });
  return addresses;
}

void FaultProxy::apply(std::function<void(Loop&)> change) {
  std::unique_lock lock(mutex_);
  pending_.push_back(std::move(change));
  std::uint64_t mine = ++posted_;
  std::uint64_t one = 1;
  [[maybe_unused]] ssize_t ignored = ::write(wake_fd_, &one, sizeof one);
  applied_cv_.wait(lock, [&] { return applied_ >= mine; });
}

void FaultProxy::run() {
  Loop& loop = *loop_;
  std::vector<pollfd> entries;
  int timeout = -1;
  while (true) {
    {
      Working working;
      Clock::time_point now = Clock::now();
      entries.assign(2 + 2 * loop.links.size(), pollfd{});
      entries[0] = pollfd{wake_fd_, POLLIN, 0};
      entries[1] = pollfd{loop.accepting(now) ? loop.listener.get() : -1, POLLIN, 0};
      for (std::size_t i = 0; i < loop.links.size(); ++i) loop.want(loop.links[i], now, &entries[2 + 2 * i]);
    }
    ::poll(entries.data(), entries.size(), timeout);

    Working working;
    Clock::time_point now = Clock::now();
    for (std::size_t i = 0; i < loop.links.size(); ++i) loop.handle(loop.links[i], &entries[2 + 2 * i], now);
    if ((entries[1].revents & POLLIN) != 0) loop.accept_all(now);

    std::uint64_t drained = 0;  // before taking the commands: one posted after them wakes the next poll
    [[maybe_unused]] ssize_t ignored = ::read(wake_fd_, &drained, sizeof drained);
    std::vector<std::function<void(Loop&)>> changes;
    {
      std::lock_guard lock(mutex_);
      if (stopping_) return;
      changes.swap(pending_);
    }
    for (auto& change : changes) change(loop);

    now = Clock::now();
    for (Link& link : loop.links) loop.pump(link, now);
    loop.strike_lost_reply(now);
    loop.strike_lost_request();
    std::erase_if(loop.links, [](const Link& link) { return link.dead; });
    timeout = loop.timeout(now);
    if (!changes.empty()) {
      std::lock_guard lock(mutex_);
      applied_ += changes.size();
      applied_cv_.notify_all();
    }
  }
}

}  // namespace rlock::host
