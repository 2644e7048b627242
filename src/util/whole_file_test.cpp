// write_whole_file and the logs' opens in a scratch directory: a file written whole, a link at the
// target replaced and never followed, nothing left behind by a write that fails.
#include "util/whole_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <string>

#include <gtest/gtest.h>

#include "host/temp_dir.h"
#include "rlock/error.h"

namespace rlock::util {
namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), {}};
}

int entries(const fs::path& dir) {
  return static_cast<int>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

TEST(WriteWholeFile, WritesTheBytesAndLeavesNoTemporary) {
  host::TempDir dir;
  write_whole_file(dir.path() / "a.json", "{}\n");
  write_whole_file(dir.path() / "a.json", "{\"again\": 1}\n");
  EXPECT_EQ(read(dir.path() / "a.json"), "{\"again\": 1}\n");
  EXPECT_EQ(entries(dir.path()), 1);
}

TEST(WriteWholeFile, ALinkAtTheTargetIsReplacedNeverFollowed) {
  host::TempDir dir;
  fs::path secret = dir.path() / "secret";
  write_whole_file(secret, "root's own\n");
  fs::create_symlink(secret, dir.path() / "report.html");
  write_whole_file(dir.path() / "report.html", "<p>page</p>\n");
  EXPECT_EQ(read(secret), "root's own\n") << "the link was followed";
  EXPECT_FALSE(fs::is_symlink(dir.path() / "report.html"));
  EXPECT_EQ(read(dir.path() / "report.html"), "<p>page</p>\n");
}

TEST(WriteWholeFile, AWriteThatFailsLeavesTheTargetAsItWasAndNoTemporary) {
  host::TempDir dir;
  fs::create_directory(dir.path() / "taken");  // a directory where the file should go: rename fails
  EXPECT_THROW(write_whole_file(dir.path() / "taken", "x"), Error);
  EXPECT_TRUE(fs::is_directory(dir.path() / "taken"));
  EXPECT_EQ(entries(dir.path()), 1);
  EXPECT_THROW(write_whole_file(dir.path() / "missing" / "a.json", "x"), Error);
}

TEST(OpenForAppend, RefusesALinkAndAppendsToAFile) {
  host::TempDir dir;
  fs::path secret = dir.path() / "secret";
  write_whole_file(secret, "kept\n");
  fs::create_symlink(secret, dir.path() / "events.jsonl");
  EXPECT_THROW(open_for_append(dir.path() / "events.jsonl"), Error);
  EXPECT_THROW(open_for_writing(dir.path() / "events.jsonl"), Error);
  EXPECT_EQ(read(secret), "kept\n");
  int fd = open_for_append(dir.path() / "log");
  ASSERT_EQ(::write(fd, "a\n", 2), 2);
  ::close(fd);
  fd = open_for_append(dir.path() / "log");
  ASSERT_EQ(::write(fd, "b\n", 2), 2);
  ::close(fd);
  EXPECT_EQ(read(dir.path() / "log"), "a\nb\n");
  fd = open_for_writing(dir.path() / "log");
  ::close(fd);
  EXPECT_EQ(read(dir.path() / "log"), "");
}

}  // namespace
}  // namespace rlock::util
