#include "protocol/client_spec.h"

namespace rlock::protocol {

std::string_view to_string(ServerKind kind) {
  switch (kind) {
    case ServerKind::redis: return "redis";
    case ServerKind::etcd: return "etcd";
    case ServerKind::zookeeper: return "zookeeper";
  }
  return "redis";
}

std::optional<ServerKind> server_kind_from(std::string_view name) {
  for (ServerKind kind : {ServerKind::redis, ServerKind::etcd, ServerKind::zookeeper}) {
    if (to_string(kind) == name) return kind;
  }
  return std::nullopt;
}

std::string_view address_variable(ServerKind kind) {
  switch (kind) {
    case ServerKind::redis: return "";
    case ServerKind::etcd: return "ETCD_ENDPOINT";
    case ServerKind::zookeeper: return "ZOOKEEPER_CONNECT";
  }
  return "";
}

}  // namespace rlock::protocol
