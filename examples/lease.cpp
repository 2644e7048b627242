// lease REDIS_URL RESOURCE: takes the resource's lock (waiting 5 s at most), works inside a
// ScopedLease, and says whether the lock was still held when it was released.
#include <chrono>
#include <iostream>
#include <thread>

#include <rlock/lock.h>

int main(int argc, char** argv) {
  using namespace std::chrono_literals;
  if (argc != 3) {
    std::cerr << "usage: lease REDIS_URL RESOURCE\n";
    return 2;
  }
  try {
    rlock::RedisAddress address = rlock::RedisAddress::parse(argv[1]);
    rlock::RedisConnection redis(address);
    rlock::RedisLock lock(redis, rlock::LockKey::named(argv[2]));
    rlock::Acquirer acquirer(lock, address, {.wait = rlock::WaitMode::notify, .deadline = 5s});
    rlock::Acquisition got = acquirer.acquire(2s);
    if (!got) {
      std::cout << argv[2] << ": still busy after 5 s, not acquired\n";
      return 1;
    }
    rlock::ScopedLease lease(lock, *got.lease);
    std::cout << argv[2] << ": acquired for 2 s\n";
    std::this_thread::sleep_for(100ms);  // the work
    rlock::ReleaseResult released = lease.release();
    std::cout << argv[2]
              << (released == rlock::ReleaseResult::released   ? ": still held at release\n"
                  : released == rlock::ReleaseResult::not_held ? ": lost before release\n"
                                                               : ": release unanswered\n");
    return released == rlock::ReleaseResult::released ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "lease: " << e.what() << '\n';
    return 1;
  }
}
