// A lock client of any language, given on the command line and driven over rlock's line protocol
// (docs/clients.md): `--client NAME=COMMAND`, or `NAME@3=COMMAND` for a client given three
// independent Redis servers (the job's Redlock servers), or a shipped adapter's catalogue name
// (protocol/client_catalogue.h), which also says which kind of server its lock lives on. It is a row
// of its own, like a strategy. Its command holds what the user typed, passwords too: what is shown
// or stored of it goes through blank_command_secrets. A plain value; the functions are pure and
// thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rlock::protocol {

// Where the client's lock lives. Only a Redis lock can feel a fault that strikes Redis; the others
// reach their server (etcd, ZooKeeper, Hazelcast's CP members, PostgreSQL) by an endpoint of their
// own, not through the harness.
enum class ServerKind { redis, etcd, zookeeper, hazelcast, postgres };

std::string_view to_string(ServerKind kind);
std::optional<ServerKind> server_kind_from(std::string_view name);
// The variable the adapters read their etcd, ZooKeeper or PostgreSQL's HOST:PORT from (Hazelcast's
// members: HOST:PORT,HOST:PORT,...); "" for Redis, whose servers come in the init message.
std::string_view address_variable(ServerKind kind);

// `command` (a shell command, or any text holding one) as rlock shows and stores it: every password
// blank_passwords finds (URLs' user information, `password=` settings, `--password=X`), the word
// after `--password`, `--pass`, `-a` (redis-cli's), `--auth`, `--requirepass` or `--masterauth`, the
// value of those flags written FLAG=X, and the value of a variable NAME=X whose name is
// REDISCLI_AUTH or holds PASSWORD, PASSWD, SECRET or TOKEN, written ***. A quoted word is blanked to
// its closing quote. A word after -a that is no password is blanked too.
std::string blank_command_secrets(std::string_view command);

struct ClientSpec {
  std::string name;
  std::string command;
  int servers = 1;
  bool expected_safe = false;  // --client-safe NAME, or the catalogue's word
  ServerKind server = ServerKind::redis;
  long ttl_step_ms = 1;  // its library rounds a TTL up to a multiple of this (the catalogue's word)
  // libfaketime reaches its runtime's clock (the catalogue's word: the JVM and Node adapters; not a
  // static Go binary, which runs true, nor CPython, whose waits hang under it).
  bool skewable_clock = false;
  // The steps of its library it announces when asked (protocol/messages.h kSteps), the catalogue's
  // word; empty for a command of one's own, whose steps are not known before it runs.
  std::vector<std::string> steps{};
  // Its adapter takes the three members of an etcd cluster in its server's variable, comma-separated
  // (the catalogue's "topologies" lists "cluster"); a command of one's own takes one server.
  bool cluster = false;
};

// Where a client's lock lives, as the KIND of `--client NAME@KIND=COMMAND` names it: a ServerKind,
// or `redis3` (or `3`) for three Redis servers; sets `spec`'s server and servers, false for an
// unknown KIND. kServerKinds lists them for an error.
bool set_server_from(std::string_view kind, ClientSpec& spec);
inline constexpr std::string_view kServerKinds =
    "redis, redis3 (or 3: three Redis servers), etcd, zookeeper, hazelcast or postgres";

// 1 to 32 letters, digits, _ or -: a client's name, also a part of its trials' directory names.
bool is_client_name(std::string_view name);
// 1 to 24 letters, digits, ., _ or -, a dot among them: a library's version as a catalogue names
// it (3.4.3, v4.18.1).
bool is_version_number(std::string_view text);

// A client's name as a run or a table carries it: a client name, or one with a version (NAME@V).
bool is_client_row_name(std::string_view name);

}  // namespace rlock::protocol
