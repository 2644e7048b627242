#include "rlock/redis_address.h"

#include <charconv>

#include <fmt/format.h>

#include "rlock/error.h"

namespace rlock {
namespace {

int parse_number(std::string_view text, int min, int max, std::string_view what, std::string_view shown) {
  int value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < min || value > max) {
    throw UsageError(fmt::format("bad Redis address '{}': {} '{}' is not a number from {} to {}", shown, what,
                                 text, min, max));
  }
  return value;
}

}  // namespace

RedisAddress RedisAddress::parse(std::string_view url) {
  constexpr std::string_view scheme = "redis://";
  if (!url.starts_with(scheme)) {
    throw UsageError(fmt::format("bad Redis URL: it must start with redis:// (TLS is not supported)"));
  }
  RedisAddress address;
  std::string_view rest = url.substr(scheme.size());

  if (auto at = rest.rfind('@'); at != std::string_view::npos) {
    std::string_view userinfo = rest.substr(0, at);
    rest = rest.substr(at + 1);
    if (auto colon = userinfo.find(':'); colon != std::string_view::npos) {
      address.user = userinfo.substr(0, colon);
      address.password = userinfo.substr(colon + 1);
    } else {
      address.password = userinfo;  // redis://secret@host: the classic form has only a password
    }
  }
  std::string shown = fmt::format("redis://{}{}", address.password.empty() ? "" : "***@", rest);

  std::string_view hostport = rest;
  if (auto slash = rest.find('/'); slash != std::string_view::npos) {
    hostport = rest.substr(0, slash);
    std::string_view db = rest.substr(slash + 1);
    if (!db.empty()) address.db = parse_number(db, 0, 1 << 20, "database", shown);
  }
  if (auto colon = hostport.rfind(':'); colon != std::string_view::npos) {
    address.port = parse_number(hostport.substr(colon + 1), 1, 65535, "port", shown);
    hostport = hostport.substr(0, colon);
  }
  if (hostport.empty()) throw UsageError(fmt::format("bad Redis URL '{}': no host", shown));
  address.host = hostport;
  return address;
}

void RedisAddress::use_sentinel(std::string_view host_port, std::string master) {
  auto colon = host_port.rfind(':');
  if (colon == std::string_view::npos || colon == 0) {
    throw UsageError(fmt::format("bad Sentinel address '{}': use HOST:PORT", host_port));
  }
  sentinel = SentinelTarget{std::string(host_port.substr(0, colon)),
                            parse_number(host_port.substr(colon + 1), 1, 65535, "port", host_port), std::move(master)};
}

std::string RedisAddress::display() const { return fmt::format("{}:{}", host, port); }

}  // namespace rlock
