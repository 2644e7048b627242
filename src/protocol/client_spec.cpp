#include "protocol/client_spec.h"

#include <algorithm>

#include "rlock/redis_address.h"

namespace rlock::protocol {
namespace {

constexpr std::string_view kBlanks = " \t\n";

// Where the word at `at` ends: at the next blank, or for a word that opens a quote, at the next
// blank after its closing quote (a quoted password may hold blanks).
std::size_t word_end(std::string_view text, std::size_t at) {
  if (at < text.size() && (text[at] == '\'' || text[at] == '"')) {
    std::size_t close = text.find(text[at], at + 1);
    if (close == std::string_view::npos) return text.size();
    at = close + 1;
  }
  return std::min(text.size(), text.find_first_of(kBlanks, at));
}

// The flags whose next word is a secret (redis-cli's -a, --pass and --askpass's kin, redis-server's
// --requirepass and --masterauth, a client's --password or --auth), and those written FLAG=SECRET.
constexpr std::string_view kSecretFlags[] = {"--password", "--pass", "-a", "--auth", "--requirepass", "--masterauth"};
constexpr std::string_view kSecretSettings[] = {"--pass=", "--auth=", "--requirepass=", "--masterauth="};

// Whether `word` is NAME=VALUE for a variable that holds a secret: REDISCLI_AUTH, or any name
// with PASSWORD, PASSWD, SECRET or TOKEN in it (PGPASSWORD, PG_PASSWORD_FILE's kin, API_TOKEN).
// Its length: where its value starts; 0 when it is not one.
std::size_t secret_variable(std::string_view word) {
  std::size_t equals = word.find('=');
  if (equals == std::string_view::npos || equals == 0) return 0;
  std::string_view name = word.substr(0, equals);
  bool identifier = std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
  if (!identifier) return 0;
  std::string upper(name);
  std::transform(upper.begin(), upper.end(), upper.begin(), [](char c) { return c >= 'a' && c <= 'z' ? c - 32 : c; });
  bool secret = upper == "REDISCLI_AUTH" || upper.find("PASSWORD") != std::string::npos ||
                upper.find("PASSWD") != std::string::npos || upper.find("SECRET") != std::string::npos ||
                upper.find("TOKEN") != std::string::npos;
  return secret ? equals + 1 : 0;
}

}  // namespace

std::string blank_command_secrets(std::string_view command) {
  const std::string text = blank_passwords(command);
  const std::string_view all(text);
  std::string out;
  bool password_next = false;
  for (std::size_t at = 0; at < all.size();) {
    if (kBlanks.find(all[at]) != std::string_view::npos) {
      out.push_back(all[at++]);
      continue;
    }
    // A flag's word is split at blanks alone, so that one inside a quoted command (sh -c '... -a X') is found.
    std::size_t end = password_next ? word_end(all, at) : std::min(all.size(), all.find_first_of(kBlanks, at));
    std::string_view word = all.substr(at, end - at);
    auto setting = std::find_if(std::begin(kSecretSettings), std::end(kSecretSettings),
                                [&](std::string_view flag) { return word.starts_with(flag); });
    std::size_t prefix = setting != std::end(kSecretSettings) ? setting->size() : secret_variable(word);
    if (password_next) {
      out += "***";
    } else if (prefix > 0) {
      std::size_t value = at + prefix;
      end = word_end(all, value);
      out.append(word.substr(0, prefix)).append(end > value ? "***" : "");
    } else {
      out += word;
    }
    password_next =
        !password_next && std::find(std::begin(kSecretFlags), std::end(kSecretFlags), word) != std::end(kSecretFlags);
    at = end;
  }
  return out;
}

std::string_view to_string(ServerKind kind) {
  switch (kind) {
    case ServerKind::redis: return "redis";
    case ServerKind::etcd: return "etcd";
    case ServerKind::zookeeper: return "zookeeper";
    case ServerKind::hazelcast: return "hazelcast";
    case ServerKind::postgres: return "postgres";
  }
  return "redis";
}

std::optional<ServerKind> server_kind_from(std::string_view name) {
  for (ServerKind kind :
       {ServerKind::redis, ServerKind::etcd, ServerKind::zookeeper, ServerKind::hazelcast, ServerKind::postgres}) {
    if (to_string(kind) == name) return kind;
  }
  return std::nullopt;
}

bool set_server_from(std::string_view kind, ClientSpec& spec) {
  std::optional<ServerKind> server = server_kind_from(kind);
  if (!server && kind != "3" && kind != "redis3") return false;
  spec.server = server.value_or(ServerKind::redis);
  spec.servers = server ? 1 : 3;
  return true;
}

std::string_view address_variable(ServerKind kind) {
  switch (kind) {
    case ServerKind::redis: return "";
    case ServerKind::etcd: return "ETCD_ENDPOINT";
    case ServerKind::zookeeper: return "ZOOKEEPER_CONNECT";
    case ServerKind::hazelcast: return "HAZELCAST_MEMBERS";
    case ServerKind::postgres: return "PG_ENDPOINT";
  }
  return "";
}

bool is_client_name(std::string_view name) {
  return !name.empty() && name.size() <= 32 &&
         name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") ==
             std::string::npos;
}

bool is_version_number(std::string_view text) {
  return !text.empty() && text.size() <= 24 && text.find('.') != std::string_view::npos &&
         text.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") ==
             std::string_view::npos;
}

bool is_client_row_name(std::string_view name) {
  std::size_t at = name.find('@');
  return is_client_name(name.substr(0, at)) && (at == std::string_view::npos || is_version_number(name.substr(at + 1)));
}

}  // namespace rlock::protocol
