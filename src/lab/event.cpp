#include "lab/event.h"

#include <array>
#include <cmath>
#include <concepts>
#include <utility>

#include <fmt/format.h>

#include "results/file_format.h"
#include "rlock/error.h"
#include "util/enum_names.h"

namespace rlock::lab {
namespace {

constexpr util::NameTable<EventKind, 27> kNames{{
    {EventKind::acquired, "acquired"},
    {EventKind::busy, "busy"},
    {EventKind::acquire_unanswered, "acquire_unanswered"},
    {EventKind::read, "read"},
    {EventKind::wrote, "wrote"},
    {EventKind::fenced_write, "fenced_write"},
    {EventKind::claim_rejected, "claim_rejected"},
    {EventKind::released, "released"},
    {EventKind::watchdog_extended, "watchdog_extended"},
    {EventKind::watchdog_failed, "watchdog_failed"},
    {EventKind::rejected_retry, "rejected_retry"},
    {EventKind::checked, "checked"},
    {EventKind::redis_too_young, "redis_too_young"},
    {EventKind::under_replicated, "under_replicated"},
    {EventKind::redis_killed, "redis_killed"},
    {EventKind::redis_started, "redis_started"},
    {EventKind::redis_signal, "redis_signal"},
    {EventKind::redis_promoted, "redis_promoted"},
    {EventKind::lock_expired, "lock_expired"},
    {EventKind::member_signal, "member_signal"},
    {EventKind::member_started, "member_started"},
    {EventKind::cluster_leader, "cluster_leader"},
    {EventKind::signal, "signal"},
    {EventKind::network, "network"},
    {EventKind::pg_locked, "pg_locked"},
    {EventKind::pg_added, "pg_added"},
    {EventKind::error, "error"},
}};

template <typename T>
std::optional<T> field(const nlohmann::json& fields, const char* name) {
  auto it = fields.find(name);
  if (it == fields.end()) return std::nullopt;
  try {
    // A float where an integer belongs is refused: .get<long long>() of 1e22 is undefined.
    if constexpr (std::integral<T> && !std::same_as<T, bool>) return results::integer_at<T>(fields, name);
    return it->get<T>();
  } catch (const nlohmann::json::exception& e) {
    throw Error(fmt::format("event field '{}': {}", name, e.what()));
  }
}

}  // namespace

std::optional<long long> Event::ttl_ms() const { return field<long long>(fields, "ttl_ms"); }
std::optional<long long> Event::fence() const { return field<long long>(fields, "fence"); }
std::optional<long long> Event::balance() const { return field<long long>(fields, "balance"); }
std::optional<long long> Event::amount() const { return field<long long>(fields, "amount"); }
std::optional<long long> Event::after() const { return field<long long>(fields, "after"); }
std::optional<double> Event::sent_at() const { return field<double>(fields, "sent_at"); }
std::optional<long long> Event::rowcount() const { return field<long long>(fields, "rowcount"); }
std::optional<int> Event::release_result() const { return field<int>(fields, "result"); }
std::optional<long long> Event::pttl() const { return field<long long>(fields, "pttl"); }
std::optional<bool> Event::held() const { return field<bool>(fields, "held"); }
std::optional<bool> Event::added() const { return field<bool>(fields, "added"); }
std::optional<bool> Event::in_doubt() const { return field<bool>(fields, "in_doubt"); }
std::optional<std::string> Event::signal() const { return field<std::string>(fields, "signal"); }
std::optional<std::string> Event::target() const { return field<std::string>(fields, "target"); }
std::optional<std::string> Event::error_text() const { return field<std::string>(fields, "error"); }

std::string_view to_string(EventKind kind) { return util::name_in(kNames, kind); }

std::optional<EventKind> event_kind_from(std::string_view name) { return util::value_in(kNames, name); }

std::string Event::to_json_line() const {
  nlohmann::ordered_json record;
  record["t"] = std::round(t * 1e6) / 1e6;  // microseconds are plenty, and lines stay short
  record["who"] = who;
  record["event"] = to_string(kind);
  record["format"] = kEventFormat;
  for (const auto& [name, value] : fields.items()) {
    if (!record.contains(name)) record[name] = value;  // a field never overrides t, who, event or format
  }
  return record.dump();
}

Event Event::from_json_line(std::string_view line) {
  nlohmann::json record = results::parse_json_or_discarded(line);
  if (!record.is_object() || !record.contains("t") || !record["t"].is_number() || !record.contains("who") ||
      !record["who"].is_string() || !record.contains("event") || !record["event"].is_string()) {
    throw Error("not an event record");
  }
  results::check_format(record, kEventFormat, "event record", 1);
  auto kind = event_kind_from(record["event"].get<std::string>());
  if (!kind) throw Error(fmt::format("unknown event '{}'", record["event"].get<std::string>()));
  Event event{record["t"].get<double>(), record["who"].get<std::string>(), *kind, nlohmann::json::object()};
  for (const auto& [name, value] : record.items()) {
    if (name != "t" && name != "who" && name != "event" && name != "format") event.fields[name] = value;
  }
  return event;
}

}  // namespace rlock::lab
