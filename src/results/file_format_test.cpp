#include "results/file_format.h"

#include <gtest/gtest.h>

#include <fstream>

#include "host/temp_dir.h"
#include "rlock/error.h"

namespace rlock::results {
namespace {

// The Error's text of check_format, or "" when it accepts the value.
std::string refusal(const nlohmann::json& j, int when_absent) {
  try {
    check_format(j, 2, "x.json", when_absent);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(CheckFormat, AFormatUpToTheNewestIsRead) {
  EXPECT_EQ(check_format({{"format", 1}}, 2, "x.json", 0), 1);
  EXPECT_EQ(check_format({{"format", 2}}, 2, "x.json", 0), 2);
}

TEST(CheckFormat, ANewerFormatIsRefusedInOneLine) {
  EXPECT_EQ(refusal({{"format", 3}}, 1), "x.json: format 3 is newer than this rlock reads (2): use a newer rlock");
}

TEST(CheckFormat, AFileFromBeforeTheFieldHasItsOldFormat) { EXPECT_EQ(check_format({{"a", 1}}, 2, "x.json", 1), 1); }

TEST(CheckFormat, ARequiredFormatMustBeThere) {
  EXPECT_EQ(refusal({{"a", 1}}, 0), "x.json: no format number: not written by rlock");
}

TEST(CheckFormat, AFormatIsAPositiveInteger) {
  EXPECT_EQ(refusal({{"format", "1"}}, 1), "x.json: format \"1\" is not a format number");
  EXPECT_NE(refusal({{"format", 1.5}}, 1), "");
  EXPECT_NE(refusal({{"format", 0}}, 1), "");
}

TEST(JsonFile, WrittenThenReadBack) {
  host::TempDir tmp("file_format_test");
  nlohmann::json j{{"format", 1}, {"cells", nlohmann::json::array()}};
  write_json_file(tmp.path() / "a.json", j);
  EXPECT_EQ(read_json_file(tmp.path() / "a.json", 1, 0), j);
  std::ifstream in(tmp.path() / "a.json");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, j.dump(2) + "\n");
}

TEST(JsonFile, AMissingOrBrokenFileIsRefusedNamingIt) {
  host::TempDir tmp("file_format_test");
  EXPECT_THROW(read_json_file(tmp.path() / "missing.json", 1, 1), Error);
  std::ofstream(tmp.path() / "cut.json") << R"({"format": 1, "cells": [)";
  try {
    read_json_file(tmp.path() / "cut.json", 1, 1);
    FAIL() << "a cut file was read";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("cut.json is not a JSON object"), std::string::npos) << e.what();
  }
  EXPECT_THROW(write_json_file(tmp.path() / "no" / "such" / "dir.json", {}), Error);
}

TEST(ParseJson, NestingIsBoundedBeforeAnythingDeeperIsBuilt) {
  std::string deep = std::string(kMaxJsonDepth, '[') + std::string(kMaxJsonDepth, ']');
  EXPECT_TRUE(parse_json(deep).is_array());
  std::string deeper = std::string(400000, '[') + std::string(400000, ']');
  EXPECT_THROW(parse_json(deeper), Error);
  EXPECT_TRUE(parse_json_or_discarded(deeper).is_discarded());
  EXPECT_THROW(parse_json("{\"a\": "), nlohmann::json::parse_error);
  EXPECT_TRUE(parse_json_or_discarded("{\"a\": ").is_discarded());
  EXPECT_EQ(parse_json(R"({"a": [1, {"b": 2}]})")["a"][1]["b"], 2);
}

}  // namespace
}  // namespace rlock::results
