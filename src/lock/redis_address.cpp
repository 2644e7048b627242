#include "rlock/redis_address.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "rlock/error.h"

namespace rlock {
namespace {

int parse_number(std::string_view text, int min, int max, std::string_view what, std::string_view shown) {
  int value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < min || value > max) {
    throw UsageError(
        fmt::format("bad Redis address '{}': {} '{}' is not a number from {} to {}", shown, what, text, min, max));
  }
  return value;
}

// `text` with every %XX replaced by the byte it stands for. A % without two hex digits after it
// stays as it is, as with Python's urllib.parse.unquote, which redis-py applies.
std::string percent_decoded(std::string_view text) {
  std::string decoded;
  for (std::size_t i = 0; i < text.size(); ++i) {
    unsigned char byte = 0;
    const char* digits = text.data() + i + 1;
    if (text[i] == '%' && i + 2 < text.size() && std::from_chars(digits, digits + 2, byte, 16).ptr == digits + 2) {
      decoded.push_back(static_cast<char>(byte));
      i += 2;
    } else {
      decoded.push_back(text[i]);
    }
  }
  return decoded;
}

// `text` with every byte but unreserved ones (RFC 3986: letters, digits, - . _ ~) and `kept` as %XX.
std::string percent_encoded(std::string_view text, std::string_view kept = {}) {
  std::string encoded;
  for (char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_' || c == '~' ||
        kept.find(c) != std::string_view::npos) {
      encoded.push_back(c);
    } else {
      encoded += fmt::format("%{:02X}", static_cast<unsigned char>(c));
    }
  }
  return encoded;
}

// Splits `text` at the first `separator`: {before, after}; {text, ""} when there is none.
std::pair<std::string_view, std::string_view> split(std::string_view text, char separator) {
  auto at = text.find(separator);
  if (at == std::string_view::npos) return {text, {}};
  return {text.substr(0, at), text.substr(at + 1)};
}

// The query's parameters, name and (still encoded) value, in order.
std::vector<std::pair<std::string_view, std::string_view>> parameters(std::string_view query) {
  std::vector<std::pair<std::string_view, std::string_view>> found;
  while (!query.empty()) {
    auto [parameter, rest] = split(query, '&');
    if (!parameter.empty()) found.push_back(split(parameter, '='));
    query = rest;
  }
  return found;
}

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }
bool is_scheme_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '-' || c == '.'; }

// Where the value that starts at `at` ends: past its closing quote, or at a space (or, in a URL's
// query, at & or #).
std::size_t value_end(std::string_view text, std::size_t at, bool in_query) {
  if (at < text.size() && (text[at] == '\'' || text[at] == '"')) {
    std::size_t end = at + 1;
    for (; end < text.size() && text[end] != text[at]; ++end) {
      if (text[end] == '\\') ++end;
    }
    return std::min(end + 1, text.size());
  }
  std::size_t end = at;
  while (end < text.size() && !is_space(text[end]) && !(in_query && (text[end] == '&' || text[end] == '#'))) ++end;
  return end;
}

// `text` with the value of every NAMEpassword= setting blanked.
std::string blank_password_settings(std::string_view text) {
  constexpr std::string_view kName = "password";
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    std::size_t after = i + kName.size();
    bool named =
        after <= text.size() &&
        std::equal(kName.begin(), kName.end(), text.begin() + static_cast<std::ptrdiff_t>(i),
                   [](char a, char b) { return a == std::tolower(static_cast<unsigned char>(b)); }) &&
        (after == text.size() || !(std::isalnum(static_cast<unsigned char>(text[after])) || text[after] == '_'));
    if (named) {
      std::size_t at = after;
      while (at < text.size() && (text[at] == ' ' || text[at] == '\t')) ++at;
      if (at < text.size() && text[at] == '=') {
        ++at;
        while (at < text.size() && (text[at] == ' ' || text[at] == '\t')) ++at;
        std::size_t end = value_end(text, at, i > 0 && (text[i - 1] == '?' || text[i - 1] == '&'));
        if (end > at) {
          out.append(text.substr(i, at - i)).append("***");
          i = end;
          continue;
        }
      }
    }
    out.push_back(text[i++]);
  }
  return out;
}

// `text` with the password in every URL's user information blanked.
std::string blank_userinfo(std::string_view text) {
  std::string out;
  std::size_t copied = 0;
  for (std::size_t mark = text.find("://"); mark != std::string_view::npos;) {
    std::size_t scheme_start = mark;
    while (scheme_start > 0 && is_scheme_char(text[scheme_start - 1])) --scheme_start;
    std::string scheme(text.substr(scheme_start, mark - scheme_start));
    for (char& c : scheme) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    std::size_t start = mark + 3, end = start;
    std::size_t next = std::string_view::npos;
    for (; end < text.size() && !is_space(text[end]); ++end) {
      if (text.substr(end, 3) == "://") {
        next = end;
        while (end > start && is_scheme_char(text[end - 1])) --end;  // the next URL's scheme
        break;
      }
    }
    std::size_t at = text.substr(start, end - start).rfind('@');
    if (at != std::string_view::npos) {
      std::string_view userinfo = text.substr(start, at);
      std::size_t colon = userinfo.find(':');
      bool lone_password = scheme == "redis" || scheme == "rediss" || scheme == "unix";
      if (colon != std::string_view::npos || lone_password) {
        out.append(text.substr(copied, start - copied));
        if (colon != std::string_view::npos) out.append(userinfo.substr(0, colon)).append(":");
        out.append("***");
        copied = start + at;
      }
    }
    mark = next != std::string_view::npos ? next : text.find("://", end);
  }
  out.append(text.substr(copied));
  return out;
}

// host[:port] or [IPv6 literal][:port] into `address`.
void parse_host_port(std::string_view hostport, RedisAddress& address, std::string_view shown) {
  if (hostport.starts_with('[')) {
    auto close = hostport.find(']');
    if (close == std::string_view::npos) {
      throw UsageError(fmt::format("bad Redis URL '{}': an IPv6 address without its closing ]", shown));
    }
    address.host = hostport.substr(1, close - 1);
    hostport = hostport.substr(close + 1);
    if (!hostport.empty() && !hostport.starts_with(':')) {
      throw UsageError(fmt::format("bad Redis URL '{}': '{}' after the IPv6 address", shown, hostport));
    }
    if (!hostport.empty()) address.port = parse_number(hostport.substr(1), 1, 65535, "port", shown);
  } else {
    auto colon = hostport.rfind(':');
    if (colon != hostport.find(':')) {
      throw UsageError(
          fmt::format("bad Redis URL '{}': an IPv6 address goes in brackets, as in redis://[::1]:6379", shown));
    }
    if (colon != std::string_view::npos)
      address.port = parse_number(hostport.substr(colon + 1), 1, 65535, "port", shown);
    address.host = hostport.substr(0, colon);
  }
  if (address.host.empty()) throw UsageError(fmt::format("bad Redis URL '{}': no host", shown));
  // url() brackets only a host with a colon: one with a bracket of its own would not read back.
  if (address.host.find_first_of("[]") != std::string::npos) {
    throw UsageError(fmt::format("bad Redis URL '{}': a [ or ] inside its host", shown));
  }
}

}  // namespace

RedisAddress RedisAddress::parse(std::string_view url) {
  const bool unix_socket = url.starts_with("unix://");
  if (!unix_socket && !url.starts_with("redis://")) {
    throw UsageError("bad Redis URL: it must start with redis:// or unix:// (TLS is not supported)");
  }
  std::string_view scheme = unix_socket ? "unix://" : "redis://";
  RedisAddress address;
  std::string_view rest = url.substr(scheme.size());

  // The user information ends at the last @: a password may hold an unencoded @ or /. Before a
  // socket's path, only the part before the path's first / can hold it.
  std::string_view userinfo;
  auto at = unix_socket ? rest.substr(0, rest.find('/')).rfind('@') : rest.rfind('@');
  if (at != std::string_view::npos) {
    userinfo = rest.substr(0, at);
    rest = rest.substr(at + 1);
    if (auto colon = userinfo.find(':'); colon != std::string_view::npos) {
      address.user = percent_decoded(userinfo.substr(0, colon));
      address.password = percent_decoded(userinfo.substr(colon + 1));
    } else {
      address.password = percent_decoded(userinfo);  // redis://secret@host: the classic form has only a password
    }
  }
  auto [location, query] = split(rest, '?');
  auto given = parameters(query);
  std::string shown = blank_passwords(url);

  if (unix_socket) {
    if (location.size() < 2 || !location.starts_with('/')) {
      throw UsageError(fmt::format("bad Redis URL '{}': no socket path, as in unix:///run/redis.sock", shown));
    }
    address.socket = percent_decoded(location);
  } else {
    auto [hostport, db] = split(location, '/');
    if (!db.empty()) address.db = parse_number(db, 0, 1 << 20, "database", shown);
    parse_host_port(hostport, address, shown);
  }
  // As redis-py: the query's db wins over the path's, the user information over the query's password.
  for (auto [name, value] : given) {
    if (name == "db") {
      address.db = parse_number(percent_decoded(value), 0, 1 << 20, "database", shown);
    } else if (name == "password") {
      if (address.password.empty()) address.password = percent_decoded(value);
    } else if (name == "username") {
      if (address.user.empty()) address.user = percent_decoded(value);
    } else {
      throw UsageError(
          fmt::format("bad Redis URL '{}': unknown parameter '{}' (db, password, username are known)", shown, name));
    }
  }
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

std::string RedisAddress::url() const {
  std::string credentials;
  if (!user.empty() || !password.empty()) {
    credentials = fmt::format("{}:{}@", percent_encoded(user), percent_encoded(password));
  }
  // parse() decodes the path: a ? or % in it must not read as a query or an escape.
  if (!socket.empty()) return fmt::format("unix://{}{}?db={}", credentials, percent_encoded(socket, "/"), db);
  if (host.find(':') != std::string::npos) return fmt::format("redis://{}[{}]:{}/{}", credentials, host, port, db);
  return fmt::format("redis://{}{}:{}/{}", credentials, host, port, db);
}

std::string blank_passwords(std::string_view text) { return blank_userinfo(blank_password_settings(text)); }

std::string RedisAddress::display() const {
  if (!socket.empty()) return socket;
  if (host.find(':') != std::string::npos) return fmt::format("[{}]:{}", host, port);
  return fmt::format("{}:{}", host, port);
}

}  // namespace rlock
