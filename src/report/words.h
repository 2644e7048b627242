// The report page's own words, in English and in Korean: one table, filled with fill_wording
// (lab/wording.h). The words of the runs themselves (log lines, verdicts, timelines) come from the
// lab's tables. Constants; thread-safe.
#pragma once

#include "lab/wording.h"

namespace rlock::report::words {

using lab::Wording;

constexpr Wording kReport{"report", "rlock report", "rlock 보고서"};
constexpr Wording kReportOf{"report_of", "rlock report: {dir}", "rlock 보고서: {dir}"};

// A chaos run
constexpr Wording kChaosRun{"chaos_run", "Chaos run: {dir}", "카오스 실행: {dir}"};
constexpr Wording kSeed{"seed", "seed", "시드"};
constexpr Wording kTtl{"ttl", "lock TTL", "락 TTL"};
constexpr Wording kTrialsACell{"trials_a_cell", "trials a cell", "셀당 시행"};
constexpr Wording kWait{"wait", "refused workers wait by", "거절된 워커의 대기 방식"};
constexpr Wording kMatrix{"matrix",
                          "Anomalies by strategy (rows) and fault (columns): anomalous trials of all trials, the "
                          "rate, and its 95% interval. A cell with kept trials links to them.",
                          "전략(행)과 장애(열)별 이상: 전체 시행 중 이상이 있었던 시행, 그 비율과 95% 구간. "
                          "보관된 시행이 있는 셀은 그 시행으로 연결됩니다."};
constexpr Wording kStrategyFault{"strategy_fault", "strategy \\ fault", "전략 \\ 장애"};
constexpr Wording kNotRun{"not_run", "not run", "실행 안 함"};
constexpr Wording kNotApplicable{"n/a", "n/a", "해당 없음"};
constexpr Wording kLegend{"legend", "anomaly rate:", "이상 비율:"};
constexpr Wording kExpectedSafe{"expected_safe", "† expected to show no anomaly", "† 이상이 없어야 하는 조합"};
constexpr Wording kBroken{"broken", "a framed cell: an anomaly where none was expected",
                          "테두리 셀: 없어야 할 이상이 나타남"};
constexpr Wording kCell{"cell", "{strategy} under {fault}", "{fault} 장애의 {strategy}"};
constexpr Wording kTrials{"trials", "trials", "시행"};
constexpr Wording kAnomalies{"anomalies", "anomalies", "이상"};
constexpr Wording kLostUpdates{"lost_updates", "lost updates", "갱신 손실"};
constexpr Wording kMoneyLost{"money_lost", "money lost", "잃은 금액"};
constexpr Wording kOverlaps{"overlaps", "overlaps", "겹침"};
constexpr Wording kFailed{"failed", "failed", "실패"};
constexpr Wording kDropped{"dropped", "money not added", "더하지 못한 금액"};
constexpr Wording kUnknown{"unknown", "increments of unknown outcome", "결과를 알 수 없는 증가"};
constexpr Wording kUnwritten{"unwritten", "increments done with no write applied", "쓰기 없이 완료된 증가"};
constexpr Wording kCreated{"created", "trials that created money", "돈이 생긴 시행"};
constexpr Wording kMoneyCreated{"money_created", "money created", "생긴 금액"};
constexpr Wording kStuck{"stuck", "increments unfinished at the time limit", "시간 제한까지 끝나지 않은 증가"};
constexpr Wording kStruck{"struck", "trials the fault struck", "장애가 닥친 시행"};
constexpr Wording kTrialsNotRun{"trials_not_run", "trials not run", "실행하지 못한 시행"};
constexpr Wording kRate{"rate", "rate", "비율"};
constexpr Wording kInterval{"interval", "95% interval", "95% 구간"};
constexpr Wording kMedianTrial{"median_trial", "median trial", "시행 시간 중앙값"};
constexpr Wording kKeptTrial{"kept_trial", "trial {trial}", "시행 {trial}"};
constexpr Wording kMoreKept{"more_kept", "{count} more kept in {dir}: {trials}",
                            "{dir}에 {count}개 더 보관됨: {trials}"};
constexpr Wording kShortestLosses{"shortest_losses", "Each row's shortest loss", "각 행의 가장 짧은 손실"};
constexpr Wording kShortestLoss{"shortest_loss", "{row}: its shortest loss, {trial}, {seconds} s",
                                "{row}: 가장 짧은 손실, {trial}, {seconds}초"};
constexpr Wording kNoLoss{"no_loss", "{rows}: no kept trial of a cell that lost money",
                          "{rows}: 돈을 잃은 칸의 보관된 시행 없음"};
constexpr Wording kNotKept{"not_kept", "trial {trial}: no events kept in {dir}",
                           "시행 {trial}: {dir}에 보관된 이벤트 없음"};

// A bench run
constexpr Wording kBenchRun{"bench_run", "Benchmark: {dir}", "벤치마크: {dir}"};
constexpr Wording kBars{"bars",
                        "Each case's median and p99 against its floor (the round trips it needs at the least), "
                        "each case on its own scale.",
                        "각 사례의 중앙값과 p99를 하한(최소한 필요한 왕복)과 비교: 사례마다 척도가 다릅니다."};
constexpr Wording kCase{"case", "case", "사례"};
constexpr Wording kSamples{"samples", "samples", "표본"};
constexpr Wording kMedian{"median", "median", "중앙값"};
constexpr Wording kP99{"p99", "p99", "p99"};
constexpr Wording kFloor{"floor", "floor", "하한"};
constexpr Wording kRatio{"ratio", "ratio", "배율"};
constexpr Wording kDetails{"details", "details", "세부"};
constexpr Wording kPriceOfSafety{"price_of_safety",
                                 "The price of safety: each strategy's increment alone against its floor (one "
                                 "client), then contended by several client processes",
                                 "안전의 대가: 전략마다 증분 한 번을 단독으로(클라이언트 하나) 하한과 비교하고, "
                                 "여러 클라이언트 프로세스가 경합할 때의 처리량"};
constexpr Wording kStrategy{"strategy", "strategy", "전략"};
constexpr Wording kClients{"clients", "clients", "클라이언트"};
constexpr Wording kAccounts{"accounts", "accounts", "계좌"};
constexpr Wording kThroughput{"throughput", "increments/s", "초당 증분"};
constexpr Wording kBalance{"balance", "balance", "잔액"};
constexpr Wording kBalanceOk{"balance_ok", "correct", "정확"};
constexpr Wording kBalanceWrong{"balance_wrong", "WRONG", "틀림"};

// A lab run
constexpr Wording kLabRun{"lab_run", "Lab run: {dir}", "랩 실행: {dir}"};
constexpr Wording kLog{"log", "Log", "로그"};
constexpr Wording kTimeline{"timeline", "Timeline", "타임라인"};

}  // namespace rlock::report::words
