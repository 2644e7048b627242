// One event of a run: who did what, when, with which values.
//
// Events are what a run records (one JSON object per line in events.jsonl) and what every reader
// works from: showlog renders them in either language, later tools draw or check them without
// parsing prose. Each line carries the file's format (kEventFormat; schema:
// docs/schemas/event.schema.json). A plain value type; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace rlock::lab {

// 1: {t, who, event, fields}. A line without the field is format 1 too (written before it was).
inline constexpr int kEventFormat = 1;

enum class EventKind {
  acquired,            // ttl_ms, fence (fenced only)
  busy,                // retry_s
  acquire_unanswered,  // message: Redis did not answer an acquisition; asking again (for up to 5 s)
  read,                // balance, fence (when the read claimed it)
  wrote,               // before, amount, after, sent_at (when the write left)
  fenced_write,        // balance, fence, rowcount, sent_at
  claim_rejected,      // fence: a claiming read found a newer fence
  released,            // result: 1, 0, or -1 when unknown
  watchdog_extended,   // pttl
  watchdog_failed,     // pttl, error (when Redis failed)
  rejected_retry,      // (none)
  checked,             // held (bool), pttl: the check before the write
  redis_too_young,     // uptime_s, min_ms, retry_s: the restart guard refused the lock
  under_replicated,    // acked, wanted, retry_s: WAIT saw too few replicas, the lock was released
  redis_killed,        // server, pttl (host)
  redis_started,       // server, pttl (host)
  redis_signal,        // server, signal (host)
  redis_promoted,      // server, pttl (host)
  lock_expired,        // key: the lock's TTL made to run out now (host, `rlock explore`)
  member_signal,       // member, signal: to a member of an etcd cluster of rlock's own (host)
  member_started,      // member: started again on its data after a kill (host)
  cluster_leader,      // member: the one that leads the etcd cluster now, "" when none answers (host)
  signal,              // signal ("SIGSTOP"), target
  network,             // action, target: the nemesis on a worker's connections (held, healed, delayed)
  pg_locked,           // lock: "row" or "advisory", taken in PostgreSQL
  pg_added,            // amount, after: UPDATE ... SET balance = balance + amount
  error,               // message, amount, added, in_doubt (bools): the worker failed
};

std::string_view to_string(EventKind kind);
std::optional<EventKind> event_kind_from(std::string_view name);

struct Event {
  double t = 0;  // seconds since the run's start
  std::string who;
  EventKind kind = EventKind::error;
  nlohmann::json fields = nlohmann::json::object();  // what writers record; readers use the accessors

  // The fields by name (which event carries which: see EventKind), typed: empty when the record
  // lacks the field, rlock::Error when it holds another type. A misspelt field does not compile.
  std::optional<long long> ttl_ms() const;
  std::optional<long long> fence() const;
  std::optional<long long> balance() const;
  std::optional<long long> amount() const;
  std::optional<long long> after() const;
  std::optional<double> sent_at() const;
  std::optional<long long> rowcount() const;
  std::optional<int> release_result() const;  // "result": 1 released, 0 not held, -1 unknown
  std::optional<long long> pttl() const;
  std::optional<bool> held() const;
  std::optional<bool> added() const;
  std::optional<bool> in_doubt() const;
  std::optional<std::string> signal() const;
  std::optional<std::string> target() const;
  std::optional<std::string> error_text() const;  // "error": why the watchdog's Redis failed

  // {"t":2.041,"who":"B","event":"acquired","format":1,"ttl_ms":2000,...} on one line, no newline.
  std::string to_json_line() const;
  // Throws rlock::Error when the line is not an event record, or one of a newer format.
  static Event from_json_line(std::string_view line);
};

}  // namespace rlock::lab
