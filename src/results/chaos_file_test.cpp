#include "results/chaos_file.h"

#include <gtest/gtest.h>

namespace rlock::results {
namespace {

// A cell as the first chaos.json files wrote it: without client, client_error, not_run, unknown,
// stuck, struck, not_applicable and replica.
const nlohmann::json kFirstCell = nlohmann::json::parse(
    R"({"strategy":"ttl","fault":"pause","expected_safe":false,"trials":4,"anomalies":3,"lost_updates":3,)"
    R"("lost_amount":90,"overlaps":3,"failed":0,"dropped_amount":0,"rate":0.75,"ci_low":0.3,"ci_high":0.95,)"
    R"("median_trial_ms":812,"kept_trials":["1","3"]})");

TEST(ChaosFile, RoundTripsThroughJson) {
  ChaosFileCell cell = chaos_file_from({{"seed", 1},
                                        {"ttl_ms", 200},
                                        {"trials_per_cell", 4},
                                        {"wait", "poll"},
                                        {"cells", nlohmann::json::array({kFirstCell})}})
                           .cells[0];
  cell.client = true;
  cell.client_error = 1;
  cell.replica = "lagging";
  ChaosFile file{9, 300, 4, "queue", {cell}};
  nlohmann::json j = to_json(file);
  EXPECT_EQ(j.at("format"), kChaosFileFormat);
  EXPECT_EQ(to_json(chaos_file_from(j)), j);
}

TEST(ChaosFile, AFileFromBeforeTheNewerFieldsReads) {
  ChaosFile file = chaos_file_from({{"seed", 42},
                                    {"ttl_ms", 200},
                                    {"trials_per_cell", 4},
                                    {"wait", "poll"},
                                    {"cells", nlohmann::json::array({kFirstCell})}});
  ASSERT_EQ(file.cells.size(), 1u);
  EXPECT_EQ(file.cells[0].anomalies, 3);
  EXPECT_EQ(file.cells[0].kept_trials, (std::vector<std::string>{"1", "3"}));
  EXPECT_FALSE(file.cells[0].client);
  EXPECT_EQ(file.cells[0].struck, 0);
  EXPECT_TRUE(file.cells[0].replica.empty());
}

TEST(ChaosFile, AMissingFieldThrows) {
  nlohmann::json cell = kFirstCell;
  cell.erase("rate");
  EXPECT_THROW(chaos_file_from({{"seed", 1},
                                {"ttl_ms", 200},
                                {"trials_per_cell", 4},
                                {"wait", "poll"},
                                {"cells", nlohmann::json::array({cell})}}),
               nlohmann::json::exception);
}

// Found by fuzz/chaos_file.cpp: a count given as a float out of the integer's range was converted
// anyway, which is undefined (UBSan: 2.00922e+21 is outside the range of 'long').
TEST(ChaosFile, ACountThatIsNotAnIntegerInRangeThrows) {
  nlohmann::json file{
      {"seed", 1}, {"ttl_ms", 200}, {"trials_per_cell", 4}, {"wait", "poll"}, {"cells", nlohmann::json::array()}};
  for (nlohmann::json bad : {nlohmann::json(2.00922e21), nlohmann::json(1.5), nlohmann::json(-1e300),
                             nlohmann::json(18446744073709551615ULL)}) {
    nlohmann::json j = file;
    j["ttl_ms"] = bad;
    EXPECT_THROW(chaos_file_from(j), nlohmann::json::exception) << bad;
    nlohmann::json cell = kFirstCell;
    cell["stuck"] = bad;
    j = file;
    j["cells"].push_back(cell);
    EXPECT_THROW(chaos_file_from(j), nlohmann::json::exception) << bad;
  }
  file["seed"] = -1;
  EXPECT_THROW(chaos_file_from(file), nlohmann::json::exception);
}

// The ranges of docs/schemas/chaos.schema.json hold in the reader too: no negative count, no rate
// outside [0, 1], no TTL or cell size of 0.
TEST(ChaosFile, AFieldOutOfItsSchemasRangeThrows) {
  nlohmann::json file{
      {"seed", 1}, {"ttl_ms", 200}, {"trials_per_cell", 4}, {"wait", "poll"}, {"cells", nlohmann::json::array()}};
  for (const char* field : {"ttl_ms", "trials_per_cell"}) {
    nlohmann::json j = file;
    j[field] = 0;
    EXPECT_THROW(chaos_file_from(j), nlohmann::json::exception) << field;
  }
  for (auto [field, bad] : std::initializer_list<std::pair<const char*, nlohmann::json>>{
           {"anomalies", -1}, {"lost_amount", -90}, {"rate", 1.5}, {"ci_low", -0.1}, {"median_trial_ms", -3.0}}) {
    nlohmann::json cell = kFirstCell;
    cell[field] = bad;
    nlohmann::json j = file;
    j["cells"].push_back(cell);
    EXPECT_THROW(chaos_file_from(j), nlohmann::json::exception) << field;
  }
}

}  // namespace
}  // namespace rlock::results
