#include "lab/wording.h"

#include <fmt/format.h>

#include "rlock/error.h"

namespace rlock::lab {
namespace {

// Each event's line; {name} stands for the event's field `name`.
constexpr Wording kWordings[] = {
    {"acquired", "lock acquired (TTL {ttl_ms}ms)", "락 획득 (TTL {ttl_ms}ms)"},
    {"acquired_fenced", "lock acquired (TTL {ttl_ms}ms, fencing token {fence})",
     "락 획득 (TTL {ttl_ms}ms, 펜싱 토큰 {fence})"},
    {"busy", "lock busy, retrying every {retry_s}s", "락 획득 실패, {retry_s}초마다 다시 시도"},
    {"acquire_unanswered", "no answer to the acquisition ({message}), asking again for up to 5s",
     "락 획득 요청에 응답 없음 ({message}), 5초까지 다시 요청"},
    {"read", "read balance: {balance}", "잔액 읽음: {balance}"},
    {"read_claimed", "read balance: {balance} (fencing token {fence} claimed)",
     "잔액 읽음: {balance} (펜싱 토큰 {fence} 등록)"},
    {"claim_rejected", "read refused: a fencing token newer than {fence} was claimed",
     "읽기 거절됨: 펜싱 토큰 {fence}보다 새 토큰이 이미 등록됨"},
    {"wrote", "wrote balance: {before} + {amount} = {after}", "잔액 씀: {before} + {amount} = {after}"},
    {"fenced_write", "UPDATE balance={balance} fence={fence} -> rowcount {rowcount}",
     "UPDATE balance={balance} fence={fence} -> rowcount {rowcount}"},
    {"released", "release result: {result}", "해제 결과: {result}"},
    {"released_unknown", "release result: unknown", "해제 결과: 알 수 없음"},
    {"watchdog_extended", "watchdog extended, PTTL {pttl}", "watchdog 연장 성공, PTTL {pttl}"},
    {"watchdog_failed", "watchdog extend failed, PTTL {pttl}", "watchdog 연장 실패, PTTL {pttl}"},
    {"watchdog_error", "watchdog extend failed: {error}", "watchdog 연장 실패: {error}"},
    {"rejected_retry", "write rejected, acquiring the lock again", "쓰기가 거절됨, 락부터 다시 잡는다"},
    {"checked", "lock still held (PTTL {pttl}), writing", "락 아직 보유 (PTTL {pttl}), 쓰기 진행"},
    {"checked_lost", "lock lost before the write (PTTL {pttl}), acquiring it again",
     "쓰기 전에 락을 잃음 (PTTL {pttl}), 락부터 다시 잡는다"},
    {"redis_too_young", "Redis up {uptime_s}s, less than {min_ms}ms: no lock yet, retrying every {retry_s}s",
     "Redis 가동 {uptime_s}초, {min_ms}ms 미만: 아직 락을 주지 않음, {retry_s}초마다 다시 시도"},
    {"under_replicated", "WAIT: {acked} of {wanted} replicas acknowledged, lock released, retrying every {retry_s}s",
     "WAIT: 복제본 {wanted}개 중 {acked}개 확인, 락 해제 후 {retry_s}초마다 다시 시도"},
    {"redis_killed", "Redis {server} killed (SIGKILL), lock PTTL was {pttl}",
     "Redis {server} 강제 종료 (SIGKILL), 락 PTTL {pttl}"},
    {"redis_started", "Redis {server} started again, lock PTTL {pttl}", "Redis {server} 다시 시작, 락 PTTL {pttl}"},
    {"redis_signal", "{signal} to Redis {server}", "Redis {server}에 {signal}"},
    {"redis_promoted", "Redis {server} promoted to primary, lock PTTL {pttl}",
     "Redis {server} 원본으로 승격, 락 PTTL {pttl}"},
    {"lock_expired", "lock {key} expired (its TTL ran out)", "락 {key} 만료 (TTL 소진)"},
    {"member_signal", "{signal} to etcd member {member}", "etcd 멤버 {member}에 {signal}"},
    {"member_started", "etcd member {member} started again", "etcd 멤버 {member} 다시 시작"},
    {"cluster_leader", "etcd member {member} leads", "etcd 멤버 {member}가 리더"},
    {"signal", "{signal} to {target}", "{target}에 {signal}"},
    {"network", "{target}'s connections: {action}", "{target}의 연결: {action}"},
    {"pg_locked", "PostgreSQL {lock} lock taken", "PostgreSQL {lock} 락 획득"},
    {"pg_added", "UPDATE balance = balance + {amount} -> {after}", "UPDATE balance = balance + {amount} -> {after}"},
    {"error", "error: {message}", "오류: {message}"},
};

// A field as text, or "?" when a record lacks it (a hand-edited or truncated log stays readable).
std::string field_text(const nlohmann::json& fields, std::string_view name) {
  auto it = fields.find(std::string(name));
  if (it == fields.end()) return "?";
  return it->is_string() ? it->get<std::string>() : it->dump();
}

// Which wording an event takes: some events read differently depending on their fields.
std::string_view wording_key(const Event& event) {
  switch (event.kind) {
    case EventKind::acquired: return event.fence() ? "acquired_fenced" : "acquired";
    case EventKind::read: return event.fence() ? "read_claimed" : "read";
    case EventKind::released: return event.release_result() == -1 ? "released_unknown" : "released";
    case EventKind::checked: return event.held().value_or(false) ? "checked" : "checked_lost";
    case EventKind::watchdog_failed: return event.error_text() ? "watchdog_error" : "watchdog_failed";
    default: return to_string(event.kind);
  }
}

}  // namespace

std::string fill_wording(const Wording& words, Lang lang, const nlohmann::json& fields) {
  std::string_view wording = lang == Lang::ko ? words.ko : words.en;
  std::string out;
  while (!wording.empty()) {
    auto open = wording.find('{');
    auto close = wording.find('}', open);
    if (open == std::string_view::npos || close == std::string_view::npos) break;
    out.append(wording.substr(0, open));
    out.append(field_text(fields, wording.substr(open + 1, close - open - 1)));
    wording.remove_prefix(close + 1);
  }
  out.append(wording);
  return out;
}

Lang parse_lang(std::string_view name) {
  if (name == "en") return Lang::en;
  if (name == "ko") return Lang::ko;
  throw UsageError(fmt::format("unknown language '{}': use en or ko", name));
}

std::string render_message(const Event& event, Lang lang) {
  std::string_view key = wording_key(event);
  for (const Wording& wording : kWordings) {
    if (wording.key == key) return fill_wording(wording, lang, event.fields);
  }
  return std::string(key);
}

std::string format_line(const Event& event, Lang lang) {
  return fmt::format("{:5.2f}s  {}  {}", event.t, event.who, render_message(event, lang));
}

}  // namespace rlock::lab
