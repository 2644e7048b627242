#include "scenario/scenario_run.h"

#include <gtest/gtest.h>

#include <fstream>
#include <functional>

#include "host/temp_dir.h"
#include "rlock/error.h"
#include "scenario/scenario_set.h"
#include "store/run_record.h"

namespace rlock::scenario {
namespace {

namespace fs = std::filesystem;

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

std::string scenario_text(const std::string& name, const std::string& client = "lib",
                          const std::string& fault = "pause") {
  return R"({"format": 1, "name": ")" + name +
         R"(", "report": {"url": "https://example.com/1", "title": "t", "claims": "c"}, "client": ")" + client +
         R"(", "versions": ["1.0", "2.0"], "fault": ")" + fault +
         R"(", "ttl_ms": 500, "workers": 2, "trials": 5, "loss": ["lost-update"], "sequence": ["s"]})";
}

checker::TrialResult trial(int number, bool lost, bool not_run = false) {
  checker::TrialResult r;
  r.spec = chaos::TrialSpec{lab::Strategy::ttl, chaos::Fault(), number, std::nullopt};
  r.lost = {lost ? checker::Validity::invalid : checker::Validity::valid, "", lost ? 30 : 0, 0};
  r.overlaps.validity = checker::Validity::valid;
  r.fences.validity = checker::Validity::valid;
  r.ok_ops = 2;
  r.not_run = not_run;
  r.judged = !not_run;
  return r;
}

TEST(Tally, CountsTrialsJudgedAndThoseThatShowedTheLoss) {
  VersionTally t = tally("3.4.3", {trial(0, false), trial(1, true), trial(2, true), trial(3, false, true)},
                         {checker::Loss::lost_update});
  EXPECT_EQ(t.trials, 3);
  EXPECT_EQ(t.showed, 2);
  EXPECT_EQ(t.not_run, 1);
  EXPECT_EQ(t.first_trial, "ttl-none-1");
  EXPECT_GT(t.interval.first, 0.2);
  EXPECT_LT(t.interval.second, 1.0);
}

VersionTally tallied(const std::string& version, long trials, long showed, std::pair<double, double> interval) {
  VersionTally t;
  t.version = version;
  t.trials = trials;
  t.showed = showed;
  t.interval = interval;
  return t;
}

TEST(VerdictLine, NamesTheVersionsItReproducesInAndTheOthers) {
  VersionTally old = tallied("3.4.3", 20, 7, {0.181, 0.567}), now = tallied("3.5.21", 20, 0, {0, 0.161});
  EXPECT_EQ(verdict_line({old, now}), "reproduces in 3.4.3 (7/20, 95% 18-57%), not in 3.5.21 (0/20, 0-16%)");
  EXPECT_EQ(verdict_line({now}), "does not reproduce in any version judged: 3.5.21 (0/20, 0-16%)");
  EXPECT_EQ(verdict_line({old}), "reproduces in 3.4.3 (7/20, 95% 18-57%)");
  EXPECT_EQ(verdict_line({tallied("1.0", 0, 0, {0, 0})}), "no trial judged");
}

TEST(ScenarioSet, EachFileIsReadAndABrokenOneNamedWithItsField) {
  host::TempDir dir("scenarios");
  write(dir.path() / "b-1.json", scenario_text("b-1"));
  write(dir.path() / "a-2.json", scenario_text("a-2", "other"));
  write(dir.path() / "wrong.json", scenario_text("right"));
  write(dir.path() / "bad.json", scenario_text("bad", "lib", "gremlins"));
  write(dir.path() / "notes.txt", "not a scenario");
  ScenarioSet set = read_scenario_set(dir.path());
  ASSERT_EQ(set.scenarios.size(), 2u);
  EXPECT_EQ(set.scenarios[0].name, "a-2");
  ASSERT_EQ(set.skipped.size(), 2u);
  EXPECT_NE(set.skipped[0].find("bad.json: fault is \"gremlins\""), std::string::npos) << set.skipped[0];
  EXPECT_NE(set.skipped[1].find("wrong.json: name is \"right\", not the file's name"), std::string::npos);
  EXPECT_EQ(scenarios_for_client(set, "lib@1.0").size(), 1u);
  EXPECT_EQ(scenario_named(set, "b-1").client, "lib");
  try {
    scenario_named(set, "c-3");
    FAIL() << "an unknown scenario was found";
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "unknown scenario 'c-3' (known: a-2, b-1)");
  }
}

TEST(ScenarioSet, AFolderOthersCanWriteIsRefused) {
  host::TempDir dir("scenarios");
  write(dir.path() / "b-1.json", scenario_text("b-1"));
  fs::permissions(dir.path(), fs::perms::others_write, fs::perm_options::add);
  EXPECT_THROW(read_scenario_set(dir.path()), UsageError);
}

// A catalogue of `lib`, an etcd client, whose default version is 1.0 and whose 2.0 is not installed.
protocol::Catalogue catalogue_in(const fs::path& dir) {
  write(
      dir / "lib" / "client.json",
      R"j({"library": "lib v1.0 (Go)", "version": "1.0", "versions": {"2.0": {"library": "lib v2.0 (Go)"}}, "installed": "{build}/x", "clients": [
          {"name": "lib", "command": "{build}/x", "server": "etcd", "safe": false, "models": "m"}]})j");
  write(dir / "lib" / "x", "");
  return protocol::read_catalogue(dir);
}

std::string usage_error(const std::function<void()>& f) {
  try {
    f();
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(PlanScenario, ResolvesEachVersionAndRefusesOneNotNamedOrNotInstalled) {
  host::TempDir dir("catalogue");
  protocol::Catalogue catalogue = catalogue_in(dir.path());
  Scenario s = read_scenario(scenario_text("lib-1"));
  ScenarioPlan plan = plan_scenario(s, catalogue, {3, {"1.0"}});
  ASSERT_EQ(plan.versions.size(), 1u);
  EXPECT_EQ(plan.versions[0].client.name, "lib@1.0");
  EXPECT_EQ(plan.trials, 3);
  EXPECT_EQ(usage_error([&] {
              plan_scenario(s, catalogue, {0, {"9.9"}});
            }),
            "--versions 9.9: lib-1 has no version 9.9 (its versions: 1.0, 2.0)");
  EXPECT_NE(usage_error([&] { plan_scenario(s, catalogue, {}); }).find("lib@2.0"), std::string::npos);
  std::string not_applicable = usage_error([&] {
    plan_scenario(read_scenario(scenario_text("r", "lib", "redis-restart")), catalogue, {0, {"1.0"}});
  });
  EXPECT_TRUE(not_applicable.starts_with("r: the fault redis-restart does not apply to lib: ")) << not_applicable;
}

}  // namespace
}  // namespace rlock::scenario
