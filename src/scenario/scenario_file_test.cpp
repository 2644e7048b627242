#include "scenario/scenario_file.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "rlock/error.h"

namespace rlock::scenario {
namespace {

using nlohmann::json;

json valid() {
  return json::parse(R"({
    "format": 1, "name": "etcd-11456",
    "report": {"url": "https://github.com/etcd-io/etcd/issues/11456", "title": "a title", "claims": "two hold it"},
    "client": "etcd-mutex", "versions": ["3.4.3", "3.5.21"], "fault": "pause-waiter",
    "ttl_ms": 2000, "workers": 2, "trials": 20, "loss": ["lost-update", "overlap"],
    "sequence": ["the holder takes the lock", "a waiter is paused past its lease"]})");
}

// The one line read_scenario throws for `j`, or "" when it reads it.
std::string refusal(const json& j) {
  try {
    read_scenario(j.dump());
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(ReadScenario, EveryFieldIsRead) {
  Scenario s = read_scenario(valid().dump());
  EXPECT_EQ(s.name, "etcd-11456");
  EXPECT_EQ(s.report.url, "https://github.com/etcd-io/etcd/issues/11456");
  EXPECT_EQ(s.client, "etcd-mutex");
  EXPECT_EQ(s.versions, (std::vector<std::string>{"3.4.3", "3.5.21"}));
  EXPECT_EQ(to_string(s.fault), "pause-waiter");
  EXPECT_EQ(s.ttl_ms, 2000);
  EXPECT_EQ(s.workers, 2);
  EXPECT_EQ(s.trials, 20);
  EXPECT_EQ(s.loss, (std::vector<checker::Loss>{checker::Loss::lost_update, checker::Loss::overlap}));
  EXPECT_EQ(s.sequence.size(), 2u);
}

TEST(ReadScenario, EachBadFieldIsNamedInOneLine) {
  struct Case {
    const char* pointer;
    json value;
    const char* says;
  };
  for (const Case& c : std::vector<Case>{
           {"/format", 2, "format is 2, not an integer from 1 to 1"},
           {"/name", "no/slash", "name is \"no/slash\""},
           {"/report/url", "http://x", "report.url is \"http://x\", not an https:// address"},
           {"/report/title", "", "report.title is \"\", not a text"},
           {"/client", 7, "client is 7"},
           {"/versions", json::array({"3"}), "versions holds \"3\", not a version"},
           {"/versions", json::array({"3.4.3", "3.4.3"}), "versions names \"3.4.3\" twice"},
           {"/versions", json::array(), "versions is [], not a list of 1 to 16"},
           {"/fault", "gremlins", "fault is \"gremlins\", not one of none, "},
           {"/ttl_ms", 5, "ttl_ms is 5, not an integer from 20 to 60000"},
           {"/ttl_ms", 2000.5, "ttl_ms is 2000.5"},
           {"/workers", 9, "workers is 9, not an integer from 2 to 4"},
           {"/trials", 0, "trials is 0, not an integer from 1 to 1000"},
           {"/loss", json::array({"sadness"}), "loss holds \"sadness\", not one of lost-update, overlap"},
           {"/sequence", json::array({"ok", 3}), "sequence is 3, not a text"},
           {"/sequence", json::array({"a\nb"}), "sequence is \"a\\nb\", not a text of 1 to 1000 printable"},
           {"/extra", true, "extra is no field of a scenario"},
       }) {
    json j = valid();
    j[json::json_pointer(c.pointer)] = c.value;
    EXPECT_NE(refusal(j).find(c.says), std::string::npos) << c.pointer << ": " << refusal(j);
  }
  json missing = valid();
  missing.erase("loss");
  EXPECT_EQ(refusal(missing), "loss is missing");
  EXPECT_EQ(refusal(json::array()), "not a JSON object");
  EXPECT_EQ(refusal(json(std::string(kMaxScenarioFileBytes, ' '))), "over 65536 bytes");
  EXPECT_THROW(read_scenario("{"), Error);
}

TEST(ShowedLoss, EachLossIsItsOwnPartOfTheResult) {
  using checker::Loss;
  checker::TrialResult clean;
  for (checker::CheckResult* check : {&clean.lost, &clean.overlaps, &clean.fences, &clean.balance})
    check->validity = checker::Validity::valid;
  clean.ok_ops = 2;
  clean.judged = true;
  EXPECT_FALSE(showed_loss(clean, checker::all_losses()));
  checker::TrialResult lost = clean;
  lost.lost = {checker::Validity::invalid, "", 30, 1};
  EXPECT_TRUE(showed_loss(lost, {Loss::lost_update}));
  EXPECT_FALSE(showed_loss(lost, {Loss::overlap, Loss::stuck}));
  checker::TrialResult stuck = clean;
  stuck.stuck_ops = 1;
  EXPECT_TRUE(showed_loss(stuck, {Loss::stuck}));
  EXPECT_FALSE(showed_loss(stuck, {Loss::lost_update}));
  checker::TrialResult broken = lost;
  broken.client_error = "it exited";
  EXPECT_TRUE(showed_loss(broken, {Loss::lost_update})) << "a loss served before the client's error stands";
  EXPECT_TRUE(showed_loss(broken, {Loss::client_error}));
  checker::TrialResult unjudged = broken;
  unjudged.judged = false;
  EXPECT_FALSE(showed_loss(unjudged, {Loss::lost_update}));
  EXPECT_TRUE(showed_loss(unjudged, {Loss::client_error}));
  checker::TrialResult skipped = lost;
  skipped.not_run = true;
  skipped.judged = false;
  EXPECT_FALSE(showed_loss(skipped, checker::all_losses()));
}

}  // namespace
}  // namespace rlock::scenario
