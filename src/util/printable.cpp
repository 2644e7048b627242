#include "util/printable.h"

#include <fmt/format.h>

namespace rlock::util {
namespace {

// The length of the valid UTF-8 sequence that starts `rest`, or 0 when it is not one (overlong
// forms, surrogates and code points past U+10FFFF are not).
std::size_t utf8_length(std::string_view rest) {
  auto byte = [&](std::size_t i) { return static_cast<unsigned char>(rest[i]); };
  auto continuation = [&](std::size_t i) { return i < rest.size() && (byte(i) & 0xC0) == 0x80; };
  unsigned char lead = byte(0);
  if (lead >= 0xC2 && lead <= 0xDF) return continuation(1) ? 2 : 0;
  if (lead >= 0xE0 && lead <= 0xEF) {
    if (!continuation(1) || !continuation(2)) return 0;
    if (lead == 0xE0 && byte(1) < 0xA0) return 0;   // overlong
    if (lead == 0xED && byte(1) >= 0xA0) return 0;  // a surrogate
    return 3;
  }
  if (lead >= 0xF0 && lead <= 0xF4) {
    if (!continuation(1) || !continuation(2) || !continuation(3)) return 0;
    if (lead == 0xF0 && byte(1) < 0x90) return 0;   // overlong
    if (lead == 0xF4 && byte(1) >= 0x90) return 0;  // past U+10FFFF
    return 4;
  }
  return 0;
}

void escape(std::string& out, std::string_view bytes) {
  for (char c : bytes) out += fmt::format("\\x{:02X}", static_cast<unsigned char>(c));
}

}  // namespace

std::string printable(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  for (std::size_t i = 0; i < bytes.size();) {
    auto c = static_cast<unsigned char>(bytes[i]);
    if (c >= 0x20 && c < 0x7F) {
      out += bytes[i++];
      continue;
    }
    std::size_t length = c < 0x80 ? 0 : utf8_length(bytes.substr(i));
    bool c1_control = length == 2 && c == 0xC2 && static_cast<unsigned char>(bytes[i + 1]) < 0xA0;
    if (length == 0 || c1_control) {
      escape(out, bytes.substr(i, c1_control ? 2 : 1));
      i += c1_control ? 2 : 1;
      continue;
    }
    out += bytes.substr(i, length);
    i += length;
  }
  return out;
}

}  // namespace rlock::util
