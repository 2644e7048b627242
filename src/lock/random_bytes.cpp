#include "lock/random_bytes.h"

#include <sys/random.h>

#include <array>
#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "rlock/error.h"

namespace rlock {

void fill_random(unsigned char* data, std::size_t size) {
  std::size_t filled = 0;
  while (filled < size) {
    ssize_t n = getrandom(data + filled, size - filled, 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw Error(fmt::format("getrandom failed: {}", std::strerror(errno)));
    }
    filled += static_cast<std::size_t>(n);
  }
}

std::uint64_t random_u64() {
  std::array<unsigned char, 8> bytes{};
  fill_random(bytes.data(), bytes.size());
  std::uint64_t x = 0;
  for (unsigned char b : bytes) x = (x << 8) | b;
  return x;
}

}  // namespace rlock
