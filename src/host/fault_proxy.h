// A TCP proxy on 127.0.0.1 between clients and one upstream server (Redis, PostgreSQL, etcd or
// ZooKeeper), that a nemesis commands to misbehave like a network: pass, delay, hold, black-hole,
// reset, and lose the reply to the client's next request.
//
// It listens on a port of its own (port()), accepts any number of connections, and opens one
// upstream connection for each. Every byte it delivers is delivered once and in order; faults only
// decide when (delay, hold) or whether (black_hole) bytes go on. A fault applies to all connections,
// current and future, in one direction (to the server, to the client) or both, until the next
// command for that direction. EOF travels in the stream like a byte (held and delayed with the bytes
// before it); a connection that one end resets, or whose upstream cannot be reached, is reset at the
// other end at once.
//
// Owns its listening socket, every connection and one thread that serves them all (a poll loop over
// non-blocking sockets). Commands are thread-safe and synchronous: when one returns, the proxy's
// thread has applied it (reset()'s connections are closed, hold()'s next byte is held). Buffers are
// unbounded but for back-pressure: a direction with 4 MB or more queued on a connection stops reading
// from its source until it drains, so a held or slow direction slows its sender instead of growing
// for ever. At the descriptor limit (accept or the upstream socket fails with EMFILE, ENFILE) it
// stops accepting for 100 ms at a time, leaving new connections in the backlog, instead of spinning.
// Its sockets are close-on-exec, and a child forked while it runs closes them at once
// (pthread_atfork), so a worker holds no copy that would keep a reset connection open or its port
// bound; such a child must not destroy the proxy. A fork waits until every proxy's thread is back
// in its poll, and a proxy is constructed only once its thread runs, so a child is never copied
// while one is inside the allocator or any other lock. Destruction (once no command is under way) stops
// the thread and closes everything, delivering nothing more.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace rlock::host {

enum class Direction { to_server, to_client, both };

class FaultProxy {
 public:
  // Listens on 127.0.0.1:`listen_port` (0: a free port, see port()) and forwards each connection to
  // `upstream_host`:`upstream_port`, which is resolved now and connected to per client. Throws Error
  // naming the port when it cannot listen there (taken by another socket), or naming the upstream
  // when it does not resolve.
  FaultProxy(const std::string& upstream_host, int upstream_port, int listen_port = 0);
  ~FaultProxy();
  FaultProxy(const FaultProxy&) = delete;
  FaultProxy& operator=(const FaultProxy&) = delete;

  // The port it listens on, on 127.0.0.1.
  int port() const { return port_; }
  // How many client connections it has accepted so far.
  std::uint64_t accepted() const { return accepted_.load(); }

  // Delivers at once, including what hold() or delay() kept back.
  void pass(Direction direction = Direction::both);
  // Delivers every byte `ms` after it arrived (bytes kept back longer than that go at once).
  void delay(std::chrono::milliseconds ms, Direction direction = Direction::both);
  // Keeps every byte, delivering nothing until pass() or delay() for that direction.
  void hold(Direction direction = Direction::both);
  // Reads and drops every byte that arrives: they are lost, like packets in a partition. Bytes kept
  // back before stay kept back (delivered after pass()); EOF is not lost.
  void black_hole(Direction direction = Direction::both);
  // Closes every current connection, both ends, with a TCP RST (SO_LINGER 0), dropping what was
  // queued. Faults stay as they were; new connections are accepted as before.
  void reset();
  // refuse(true): closes every current connection as reset() does, and resets each new one as soon
  // as it is accepted, sending nothing upstream, until refuse(false): a server the client cannot
  // reach for a time. Faults stay as they were.
  void refuse(bool refused);
  // Loses the reply to the client's next request: from now on the server's bytes are held; the
  // client's next bytes (on any connection) go to the server, and once the server has sent bytes
  // after them and `settle` has passed since them, every connection is reset, dropping what the
  // server sent, and both directions pass again. `settle` 0: at the server's first bytes (a
  // request-reply protocol's reply, RESP's); longer where one connection multiplexes requests
  // (HTTP/2), for the server to have answered the request among whatever else it sent. Until it
  // strikes, the next command for the client's direction (pass, delay, hold, black_hole) disarms it.
  void lose_next_reply(std::chrono::milliseconds settle);
  // How many times lose_next_reply struck: connections reset with the server's answer dropped.
  std::uint64_t replies_lost() const { return replies_lost_.load(); }
  // Loses the client's next request: from now on the client's bytes are held; once the client sent
  // some (on any connection), every connection is reset, dropping them unsent, and both directions
  // pass again: the server never sees the request. Where one connection multiplexes requests
  // (HTTP/2), the next bytes may be another stream's (a keep-alive), lost in its place. Until it
  // strikes, the next command for the server's direction (pass, delay, hold, black_hole) disarms it.
  void lose_next_request();
  // How many times lose_next_request struck: connections reset with the client's bytes dropped.
  std::uint64_t requests_lost() const { return requests_lost_.load(); }
  // The local address ("IP:PORT", as Redis's CLIENT LIST shows it) of each current connection's
  // upstream end, by which the server can name and close that connection itself.
  std::vector<std::string> upstream_addresses();

 private:
  struct Loop;

  // Runs `change` on the proxy's thread, and returns once it ran.
  void apply(std::function<void(Loop&)> change);
  void run();

  int port_ = 0;
  std::atomic<std::uint64_t> accepted_{0};
  std::atomic<std::uint64_t> replies_lost_{0};
  std::atomic<std::uint64_t> requests_lost_{0};
  std::unique_ptr<Loop> loop_;  // touched only by the proxy's thread once it started
  std::mutex mutex_;
  std::condition_variable applied_cv_;
  std::vector<std::function<void(Loop&)>> pending_;  // guarded by mutex_
  std::uint64_t posted_ = 0;                         // guarded by mutex_
  std::uint64_t applied_ = 0;                        // guarded by mutex_
  bool stopping_ = false;                            // guarded by mutex_
  int wake_fd_ = -1;                                 // an eventfd: a command is pending
  std::thread thread_;
};

}  // namespace rlock::host
