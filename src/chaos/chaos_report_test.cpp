#include "chaos/report.h"

#include <gtest/gtest.h>

namespace rlock {
namespace {

Cell cell(Strategy strategy, Fault fault, long anomalies) {
  Cell c{.row = std::string(to_string(strategy)), .fault = fault, .expected_safe = expected_safe(strategy, fault)};
  c.trials = 10;
  c.anomalies = anomalies;
  return c;
}

TEST(CheckExpectedSafe, AnAnomalyOfAnExpectedSafeCellIsTheCampaignsVerdict) {
  std::vector<Cell> cells{cell(Strategy::ttl, Fault::pause, 10), cell(Strategy::fenced_claim, Fault::pause, 1)};
  try {
    check_expected_safe(cells);
    FAIL() << "no UnexpectedAnomaly";
  } catch (const UnexpectedAnomaly& e) {
    EXPECT_STREQ(e.what(), "anomalies where none were expected: fenced-claim under pause");
  }
}

TEST(CheckExpectedSafe, AnomaliesWhereTheyAreExpectedPass) {
  EXPECT_NO_THROW(check_expected_safe({cell(Strategy::ttl, Fault::pause, 10), cell(Strategy::pg_row_lock, Fault::kill, 0)}));
}

}  // namespace
}  // namespace rlock
