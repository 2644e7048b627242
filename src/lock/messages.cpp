#include "messages.h"

#include <fmt/format.h>

#include "error.h"

namespace rlock {
namespace {

// A field as text, or "?" when a record lacks it (a hand-edited or truncated log stays readable).
std::string field(const Event& event, const char* name) {
  auto it = event.fields.find(name);
  if (it == event.fields.end()) return "?";
  return it->is_string() ? it->get<std::string>() : it->dump();
}

std::string release_result(const Event& event, Lang lang) {
  std::string result = field(event, "result");
  if (result != "-1") return result;
  return lang == Lang::ko ? "알 수 없음" : "unknown";
}

std::string render_en(const Event& e) {
  switch (e.kind) {
    case EventKind::acquired:
      return e.fields.contains("fence")
                 ? fmt::format("lock acquired (TTL {}ms, fencing token {})", field(e, "ttl_ms"), field(e, "fence"))
                 : fmt::format("lock acquired (TTL {}ms)", field(e, "ttl_ms"));
    case EventKind::busy:
      return "lock busy, retrying every 0.1s";
    case EventKind::read:
      return fmt::format("read balance: {}", field(e, "balance"));
    case EventKind::wrote:
      return fmt::format("wrote balance: {} + {} = {}", field(e, "before"), field(e, "amount"), field(e, "after"));
    case EventKind::fenced_write:
      return fmt::format("UPDATE balance={} fence={} -> rowcount {}", field(e, "balance"), field(e, "fence"),
                         field(e, "rowcount"));
    case EventKind::released:
      return fmt::format("release result: {}", release_result(e, Lang::en));
    case EventKind::watchdog_extended:
      return fmt::format("watchdog extended, PTTL {}", field(e, "pttl"));
    case EventKind::watchdog_failed:
      return e.fields.contains("error") ? fmt::format("watchdog extend failed: {}", field(e, "error"))
                                        : fmt::format("watchdog extend failed, PTTL {}", field(e, "pttl"));
    case EventKind::rejected_retry:
      return "write rejected, acquiring the lock again";
    case EventKind::signal:
      return fmt::format("{} to {}", field(e, "signal"), field(e, "target"));
    case EventKind::error:
      return fmt::format("error: {}", field(e, "message"));
  }
  return "?";
}

std::string render_ko(const Event& e) {
  switch (e.kind) {
    case EventKind::acquired:
      return e.fields.contains("fence")
                 ? fmt::format("락 획득 (TTL {}ms, 펜싱 토큰 {})", field(e, "ttl_ms"), field(e, "fence"))
                 : fmt::format("락 획득 (TTL {}ms)", field(e, "ttl_ms"));
    case EventKind::busy:
      return "락 획득 실패, 0.1초마다 다시 시도";
    case EventKind::read:
      return fmt::format("잔액 읽음: {}", field(e, "balance"));
    case EventKind::wrote:
      return fmt::format("잔액 씀: {} + {} = {}", field(e, "before"), field(e, "amount"), field(e, "after"));
    case EventKind::fenced_write:
      return fmt::format("UPDATE balance={} fence={} -> rowcount {}", field(e, "balance"), field(e, "fence"),
                         field(e, "rowcount"));
    case EventKind::released:
      return fmt::format("해제 결과: {}", release_result(e, Lang::ko));
    case EventKind::watchdog_extended:
      return fmt::format("watchdog 연장 성공, PTTL {}", field(e, "pttl"));
    case EventKind::watchdog_failed:
      return e.fields.contains("error") ? fmt::format("watchdog 연장 실패: {}", field(e, "error"))
                                        : fmt::format("watchdog 연장 실패, PTTL {}", field(e, "pttl"));
    case EventKind::rejected_retry:
      return "쓰기가 거절됨, 락부터 다시 잡는다";
    case EventKind::signal:
      return fmt::format("{}에 {}", field(e, "target"), field(e, "signal"));
    case EventKind::error:
      return fmt::format("오류: {}", field(e, "message"));
  }
  return "?";
}

}  // namespace

Lang parse_lang(std::string_view name) {
  if (name == "en") return Lang::en;
  if (name == "ko") return Lang::ko;
  throw UsageError(fmt::format("unknown language '{}': use en or ko", name));
}

std::string render_message(const Event& event, Lang lang) {
  return lang == Lang::ko ? render_ko(event) : render_en(event);
}

std::string format_line(const Event& event, Lang lang) {
  return fmt::format("{:5.2f}s  {}  {}", event.t, event.who, render_message(event, lang));
}

}  // namespace rlock
