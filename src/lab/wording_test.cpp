#include "lab/wording.h"

#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "rlock/error.h"

namespace rlock::lab {
namespace {

using nlohmann::json;

struct Line {
  Event event;
  std::string en;
  std::string ko;
};

// The article's lines (/work/shared/labs.md), plus the ones rlock adds (unknown release, Redis errors).
const std::vector<Line>& lines() {
  static const std::vector<Line> table{
      {{2.04, "B", EventKind::acquired, {{"ttl_ms", 2000}}},
       " 2.04s  B  lock acquired (TTL 2000ms)",
       " 2.04s  B  락 획득 (TTL 2000ms)"},
      {{0.0, "A", EventKind::acquired, {{"ttl_ms", 2000}, {"fence", 1}}},
       " 0.00s  A  lock acquired (TTL 2000ms, fencing token 1)",
       " 0.00s  A  락 획득 (TTL 2000ms, 펜싱 토큰 1)"},
      {{1.02, "B", EventKind::busy, {{"retry_s", 0.1}}},
       " 1.02s  B  lock busy, retrying every 0.1s",
       " 1.02s  B  락 획득 실패, 0.1초마다 다시 시도"},
      {{0.04, "A", EventKind::read, {{"balance", 100}}}, " 0.04s  A  read balance: 100", " 0.04s  A  잔액 읽음: 100"},
      {{2.11, "B", EventKind::wrote, {{"before", 100}, {"amount", 50}, {"after", 150}}},
       " 2.11s  B  wrote balance: 100 + 50 = 150",
       " 2.11s  B  잔액 씀: 100 + 50 = 150"},
      {{2.12, "B", EventKind::fenced_write, {{"balance", 150}, {"fence", 2}, {"rowcount", 1}}},
       " 2.12s  B  UPDATE balance=150 fence=2 -> rowcount 1",
       " 2.12s  B  UPDATE balance=150 fence=2 -> rowcount 1"},
      {{2.13, "B", EventKind::released, {{"result", 1}}}, " 2.13s  B  release result: 1", " 2.13s  B  해제 결과: 1"},
      {{3.20, "A", EventKind::released, {{"result", 0}}}, " 3.20s  A  release result: 0", " 3.20s  A  해제 결과: 0"},
      {{3.21, "A", EventKind::released, {{"result", -1}}},
       " 3.21s  A  release result: unknown",
       " 3.21s  A  해제 결과: 알 수 없음"},
      {{0.85, "A", EventKind::watchdog_extended, {{"pttl", 1950}}},
       " 0.85s  A  watchdog extended, PTTL 1950",
       " 0.85s  A  watchdog 연장 성공, PTTL 1950"},
      {{6.28, "A", EventKind::watchdog_failed, {{"pttl", -2}}},
       " 6.28s  A  watchdog extend failed, PTTL -2",
       " 6.28s  A  watchdog 연장 실패, PTTL -2"},
      {{6.28, "A", EventKind::watchdog_failed, {{"pttl", 0}, {"error", "Redis at 127.0.0.1:6391 did not answer"}}},
       " 6.28s  A  watchdog extend failed: Redis at 127.0.0.1:6391 did not answer",
       " 6.28s  A  watchdog 연장 실패: Redis at 127.0.0.1:6391 did not answer"},
      {{3.09, "A", EventKind::rejected_retry, json::object()},
       " 3.09s  A  write rejected, acquiring the lock again",
       " 3.09s  A  쓰기가 거절됨, 락부터 다시 잡는다"},
      {{1.33, "host", EventKind::signal, {{"signal", "SIGSTOP"}, {"target", "A"}}},
       " 1.33s  host  SIGSTOP to A",
       " 1.33s  host  A에 SIGSTOP"},
      {{6.27, "host", EventKind::signal, {{"signal", "SIGCONT"}, {"target", "A"}}},
       " 6.27s  host  SIGCONT to A",
       " 6.27s  host  A에 SIGCONT"},
      {{0.05, "A", EventKind::checked, {{"held", true}, {"pttl", 1990}}},
       " 0.05s  A  lock still held (PTTL 1990), writing",
       " 0.05s  A  락 아직 보유 (PTTL 1990), 쓰기 진행"},
      {{0.05, "A", EventKind::checked, {{"held", false}, {"pttl", -2}}},
       " 0.05s  A  lock lost before the write (PTTL -2), acquiring it again",
       " 0.05s  A  쓰기 전에 락을 잃음 (PTTL -2), 락부터 다시 잡는다"},
      {{0.31, "B", EventKind::redis_too_young, {{"uptime_s", 0}, {"min_ms", 31000}, {"retry_s", 0.1}}},
       " 0.31s  B  Redis up 0s, less than 31000ms: no lock yet, retrying every 0.1s",
       " 0.31s  B  Redis 가동 0초, 31000ms 미만: 아직 락을 주지 않음, 0.1초마다 다시 시도"},
      {{0.10, "A", EventKind::under_replicated, {{"acked", 0}, {"wanted", 1}, {"retry_s", 0.1}}},
       " 0.10s  A  WAIT: 0 of 1 replicas acknowledged, lock released, retrying every 0.1s",
       " 0.10s  A  WAIT: 복제본 1개 중 0개 확인, 락 해제 후 0.1초마다 다시 시도"},
      {{0.30, "host", EventKind::redis_killed, {{"server", "127.0.0.1:6393"}, {"pttl", 29700}}},
       " 0.30s  host  Redis 127.0.0.1:6393 killed (SIGKILL), lock PTTL was 29700",
       " 0.30s  host  Redis 127.0.0.1:6393 강제 종료 (SIGKILL), 락 PTTL 29700"},
      {{0.35, "host", EventKind::redis_started, {{"server", "127.0.0.1:6393"}, {"pttl", -2}}},
       " 0.35s  host  Redis 127.0.0.1:6393 started again, lock PTTL -2",
       " 0.35s  host  Redis 127.0.0.1:6393 다시 시작, 락 PTTL -2"},
      {{0.01, "host", EventKind::redis_signal, {{"server", "127.0.0.1:6395"}, {"signal", "SIGSTOP"}}},
       " 0.01s  host  SIGSTOP to Redis 127.0.0.1:6395",
       " 0.01s  host  Redis 127.0.0.1:6395에 SIGSTOP"},
      {{0.40, "host", EventKind::redis_promoted, {{"server", "127.0.0.1:6395"}, {"pttl", -2}}},
       " 0.40s  host  Redis 127.0.0.1:6395 promoted to primary, lock PTTL -2",
       " 0.40s  host  Redis 127.0.0.1:6395 원본으로 승격, 락 PTTL -2"},
      {{2.00, "host", EventKind::lock_expired, {{"key", "lock:account:1"}}},
       " 2.00s  host  lock lock:account:1 expired (its TTL ran out)",
       " 2.00s  host  락 lock:account:1 만료 (TTL 소진)"},
      {{1.00, "host", EventKind::member_signal, {{"member", "e2"}, {"signal", "SIGSTOP"}}},
       " 1.00s  host  SIGSTOP to etcd member e2",
       " 1.00s  host  etcd 멤버 e2에 SIGSTOP"},
      {{1.50, "host", EventKind::member_started, {{"member", "e2"}}},
       " 1.50s  host  etcd member e2 started again",
       " 1.50s  host  etcd 멤버 e2 다시 시작"},
      {{1.00, "host", EventKind::cluster_leader, {{"member", "e2"}}},
       " 1.00s  host  etcd member e2 leads",
       " 1.00s  host  etcd 멤버 e2가 리더"},
      {{0.12, "host", EventKind::network, {{"action", "Redis cut off"}, {"target", "A"}}},
       " 0.12s  host  A's connections: Redis cut off",
       " 0.12s  host  A의 연결: Redis cut off"},
      {{0.02, "A", EventKind::pg_locked, {{"lock", "row"}}},
       " 0.02s  A  PostgreSQL row lock taken",
       " 0.02s  A  PostgreSQL row 락 획득"},
      {{0.03, "A", EventKind::pg_added, {{"amount", 30}, {"after", 130}}},
       " 0.03s  A  UPDATE balance = balance + 30 -> 130",
       " 0.03s  A  UPDATE balance = balance + 30 -> 130"},
      {{2.09, "B", EventKind::read, {{"balance", 100}, {"fence", 2}}},
       " 2.09s  B  read balance: 100 (fencing token 2 claimed)",
       " 2.09s  B  잔액 읽음: 100 (펜싱 토큰 2 등록)"},
      {{3.06, "A", EventKind::claim_rejected, {{"fence", 1}}},
       " 3.06s  A  read refused: a fencing token newer than 1 was claimed",
       " 3.06s  A  읽기 거절됨: 펜싱 토큰 1보다 새 토큰이 이미 등록됨"},
      {{0.40, "B", EventKind::acquire_unanswered, {{"message", "EOF"}}},
       " 0.40s  B  no answer to the acquisition (EOF), asking again for up to 5s",
       " 0.40s  B  락 획득 요청에 응답 없음 (EOF), 5초까지 다시 요청"},
      {{0.50, "B", EventKind::error, {{"message", "boom"}}}, " 0.50s  B  error: boom", " 0.50s  B  오류: boom"},
  };
  return table;
}

TEST(Messages, EnglishLinesAreTheArticles) {
  for (const Line& line : lines()) {
    EXPECT_EQ(format_line(line.event, Lang::en), line.en) << to_string(line.event.kind);
  }
}

TEST(Messages, KoreanLinesAreTheArticles) {
  for (const Line& line : lines()) {
    EXPECT_EQ(format_line(line.event, Lang::ko), line.ko) << to_string(line.event.kind);
  }
}

TEST(Messages, EveryEventKindHasALine) {
  std::set<EventKind> covered;
  for (const Line& line : lines()) covered.insert(line.event.kind);
  // to_string names every kind of the enum and says "unknown" past the last one.
  for (int i = 0; i < 64 && to_string(static_cast<EventKind>(i)) != "unknown"; ++i) {
    EXPECT_TRUE(covered.contains(static_cast<EventKind>(i))) << to_string(static_cast<EventKind>(i));
  }
  EXPECT_EQ(covered.size(), 27u);
}

TEST(Messages, TimesOfTenSecondsAndMoreWidenTheColumn) {
  Event event{12.5, "A", EventKind::busy, {{"retry_s", 0.1}}};
  EXPECT_EQ(format_line(event, Lang::en), "12.50s  A  lock busy, retrying every 0.1s");
}

TEST(Messages, AMissingFieldIsAQuestionMark) {
  Event event{1.0, "A", EventKind::read, json::object()};
  EXPECT_EQ(render_message(event, Lang::en), "read balance: ?");
  EXPECT_EQ(render_message(event, Lang::ko), "잔액 읽음: ?");
}

TEST(Messages, ParseLangKnowsEnAndKo) {
  EXPECT_EQ(parse_lang("en"), Lang::en);
  EXPECT_EQ(parse_lang("ko"), Lang::ko);
}

TEST(Messages, ParseLangRejectsEverythingElse) {
  for (const char* name : {"", "EN", "Ko", "kr", "fr", "en ", "english"}) {
    EXPECT_THROW(parse_lang(name), UsageError) << "'" << name << "'";
  }
}

}  // namespace
}  // namespace rlock::lab
