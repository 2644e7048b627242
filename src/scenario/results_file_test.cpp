#include "scenario/results_file.h"

#include <gtest/gtest.h>

#include <fstream>

#include "host/temp_dir.h"

namespace rlock::scenario {
namespace {

TEST(ResultsFile, HoldsItsFormatTheSeedAndEachVersionsTally) {
  VersionTally t;
  t.version = "3.5.21";
  t.trials = 2;
  t.showed = 1;
  t.interval = {0.09, 0.91};
  t.run_dir = "/runs/a";
  nlohmann::json j = results_json(7, {{"etcd-11456", "etcd-mutex", "reproduces in 3.5.21", {t}}});
  EXPECT_EQ(j.at("format"), kResultsFileFormat);
  EXPECT_EQ(j.at("seed"), 7);
  const nlohmann::json& s = j.at("scenarios").at(0);
  EXPECT_EQ(s.at("name"), "etcd-11456");
  EXPECT_EQ(s.at("client"), "etcd-mutex");
  EXPECT_EQ(s.at("verdict"), "reproduces in 3.5.21");
  EXPECT_EQ(s.at("versions").at(0).at("version"), "3.5.21");
  EXPECT_EQ(s.at("versions").at(0).at("showed"), 1);
  EXPECT_EQ(s.at("versions").at(0).at("run"), "/runs/a");
}

TEST(ResultsFile, IsWrittenWhole) {
  host::TempDir dir{"rlock_results_file_test"};
  write_results_file(dir.path() / "s.json", 3, {});
  nlohmann::json j = nlohmann::json::parse(std::ifstream(dir.path() / "s.json"));
  EXPECT_EQ(j, results_json(3, {}));
}

}  // namespace
}  // namespace rlock::scenario
