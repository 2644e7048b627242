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
           {"/format", 3, "format is 3, not an integer from 1 to 2"},
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

// A scenario of format 2 whose trials are histories: no fault, a history instead.
json history() {
  json j = valid();
  j["format"] = 2;
  j.erase("fault");
  j["workers"] = 5;
  j["history"] =
      json::parse(R"({"duration_s": 4, "nemesis": "lost-reply:A on release#1 for 400ms; slow:E on read#4"})");
  j["fidelity"] = "replays";
  return j;
}

TEST(ReadScenario, AHistoryIsReadWithItsSchedule) {
  Scenario s = read_scenario(history().dump());
  ASSERT_TRUE(s.history);
  EXPECT_EQ(s.history->workload, (chaos::Workload{5, 0, 4}));
  EXPECT_EQ(chaos::to_string(s.history->nemesis), "lost-reply:A on release#1 for 0.4s; slow:E on read#4");
  EXPECT_EQ(to_string(s.fault), "lost-reply") << "the schedule's first, the row's";
  EXPECT_EQ(strikes_text(s), "lost-reply+slow");
  EXPECT_EQ(s.fidelity, Fidelity::replays);
  EXPECT_EQ(read_scenario(valid().dump()).fidelity, Fidelity::unstated) << "format 1";
  EXPECT_EQ(strikes_text(read_scenario(valid().dump())), "pause-waiter");
  EXPECT_FALSE(read_scenario(valid().dump()).history);
  json counted = history();
  counted["history"] = json::parse(R"({"increments": 6, "nemesis": "pause:B on read#6; pause:A on read#2"})");
  s = read_scenario(counted.dump());
  EXPECT_EQ(s.history->workload, (chaos::Workload{5, 6, 0}));
  EXPECT_EQ(strikes_text(s), "pause");
}

TEST(ReadScenario, EachBadHistoryIsNamedInOneLine) {
  struct Case {
    const char* pointer;
    json value;
    const char* says;
  };
  for (const Case& c : std::vector<Case>{
           {"/format", 1, "history is a field of format 2, not of format 1"},
           {"/fault", "pause", "fault or history: one of them, not both or neither"},
           {"/workers", 9, "workers is 9, not an integer from 2 to 8"},
           {"/history", 3, "history is not an object of increments or duration_s, and nemesis"},
           {"/history/increments", 3, "history wants one of increments and duration_s"},
           {"/history/duration_s", 0, "history.duration_s is 0, not a number of seconds above 0"},
           {"/history/duration_s", "4", "history.duration_s is \"4\""},
           {"/history/nemesis", "pause:Q", "history.nemesis is refused: 'pause:Q': worker 'Q' is none"},
           {"/history/nemesis", "redis-restart at 1s", "is no history's operation"},
           {"/history/nemesis", 7, "history.nemesis is 7, not a text"},
           {"/history/other", 1, "history.other is no field of a scenario"},
           {"/fidelity", "mostly", "fidelity is \"mostly\", not one of replays, partly, not replayed"},
           {"/differs", "a thing", "differs is for a scenario that does not replay its report wholly"},
           {"/topology", "ring", "topology is \"ring\", not one of single or cluster"},
           {"/topology", 3, "topology is 3"},
       }) {
    json j = history();
    j[json::json_pointer(c.pointer)] = c.value;
    EXPECT_NE(refusal(j).find(c.says), std::string::npos) << c.pointer << ": " << refusal(j);
  }
  json past = history();
  past["history"] = json::parse(R"({"increments": 2, "nemesis": "pause:A on read#3"})");
  EXPECT_EQ(refusal(past), "history.nemesis is refused: #3 is past each worker's 2 increments");
  json neither = history();
  neither.erase("history");
  EXPECT_EQ(refusal(neither), "fault or history: one of them, not both or neither");
  json partly = history();
  partly["fidelity"] = "partly";
  EXPECT_EQ(refusal(partly), "differs is missing");
  partly["differs"] = "one restart, not two";
  EXPECT_EQ(read_scenario(partly.dump()).differs, "one restart, not two");
  json old_format = valid();
  old_format["fidelity"] = "replays";
  EXPECT_EQ(refusal(old_format), "fidelity is a field of format 2, not of format 1");
  json old_topology = valid();
  old_topology["topology"] = "cluster";
  EXPECT_EQ(refusal(old_topology), "topology is a field of format 2, not of format 1");
  json clustered = history();
  clustered["topology"] = "cluster";
  EXPECT_EQ(read_scenario(clustered.dump()).topology, chaos::Topology::cluster);
  EXPECT_EQ(read_scenario(history().dump()).topology, chaos::Topology::single) << "one server by default";
  json no_schedule = history();
  no_schedule["history"].erase("nemesis");
  EXPECT_EQ(refusal(no_schedule), "nemesis is missing");
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
