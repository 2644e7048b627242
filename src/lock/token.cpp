#include "rlock/token.h"

#include <sys/random.h>

#include <array>
#include <cerrno>
#include <cstddef>
#include <cstring>

#include <fmt/format.h>

#include "rlock/error.h"

namespace rlock {

Token make_token() {
  std::array<unsigned char, 16> bytes{};
  std::size_t filled = 0;
  while (filled < bytes.size()) {
    ssize_t n = getrandom(bytes.data() + filled, bytes.size() - filled, 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw Error(fmt::format("getrandom failed: {}", std::strerror(errno)));
    }
    filled += static_cast<std::size_t>(n);
  }
  constexpr std::string_view kDigits = "0123456789abcdef";
  std::string hex;
  hex.reserve(2 * bytes.size());
  for (unsigned char b : bytes) {
    hex += kDigits[b >> 4];
    hex += kDigits[b & 0xf];
  }
  return Token{hex};
}

}  // namespace rlock
