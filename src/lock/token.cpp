#include "rlock/token.h"

#include <array>
#include <string_view>

#include "lock/random_bytes.h"

namespace rlock {

Token make_token() {
  std::array<unsigned char, 16> bytes{};
  fill_random(bytes.data(), bytes.size());
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
