// read_plain_file and copy_plain_tree on what a hostile user can leave in a run: a link, a FIFO
// (read without blocking), a file too large, a link loop; and a tree of files and directories,
// copied byte for byte or linked.
#include "util/plain_files.h"

#include <sys/stat.h>

#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "host/temp_dir.h"
#include "rlock/error.h"

namespace rlock::util {
namespace {

namespace fs = std::filesystem;

// The message of the Error that `f` throws; "" when it throws none.
template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

void write(const fs::path& path, const std::string& text) { std::ofstream(path) << text; }

TEST(PlainFiles, AFileIsReadALinkOrAFifoRefusedWithoutBlocking) {
  host::TempDir dir("plain_files_test");
  write(dir.path() / "run.json", "{}");
  EXPECT_EQ(read_plain_file(dir.path() / "run.json", 100), "{}");
  fs::create_symlink(dir.path() / "run.json", dir.path() / "link.json");
  EXPECT_NE(error_of([&] { read_plain_file(dir.path() / "link.json", 100); }).find("is a symbolic link"),
            std::string::npos);
  ASSERT_EQ(::mkfifo((dir.path() / "fifo.json").c_str(), 0600), 0);
  EXPECT_NE(error_of([&] { read_plain_file(dir.path() / "fifo.json", 100); }).find("is a FIFO, not a regular file"),
            std::string::npos);
  EXPECT_NE(error_of([&] { read_plain_file(dir.path() / "run.json", 1); }).find("larger than 1 bytes"),
            std::string::npos);
  EXPECT_NE(error_of([&] { read_plain_file("/dev/zero", 100); }).find("a character device"), std::string::npos);
}

TEST(PlainFiles, ATreeIsCopiedByteForByteOrLinked) {
  host::TempDir dir("plain_files_test");
  fs::create_directories(dir.path() / "from" / "sub");
  write(dir.path() / "from" / "history.jsonl", "line\n");
  write(dir.path() / "from" / "sub" / ".pid_a", "7");
  copy_plain_tree(dir.path() / "from", dir.path() / "copied", FileCopy::bytes, 100);
  copy_plain_tree(dir.path() / "from", dir.path() / "linked", FileCopy::hard_link, 100);
  EXPECT_EQ(read_plain_file(dir.path() / "copied" / "sub" / ".pid_a", 100), "7");
  EXPECT_FALSE(fs::equivalent(dir.path() / "copied" / "history.jsonl", dir.path() / "from" / "history.jsonl"));
  EXPECT_TRUE(fs::equivalent(dir.path() / "linked" / "history.jsonl", dir.path() / "from" / "history.jsonl"));
}

TEST(PlainFiles, ALinkAnywhereInATreeIsRefused) {
  host::TempDir dir("plain_files_test");
  fs::create_directories(dir.path() / "secret");
  write(dir.path() / "secret" / "token", "s3cret");
  fs::create_directories(dir.path() / "from" / "sub");
  fs::create_directory_symlink(dir.path() / "secret", dir.path() / "from" / "sub" / "planted");
  std::string error = error_of([&] { copy_plain_tree(dir.path() / "from", dir.path() / "to", FileCopy::bytes, 100); });
  EXPECT_NE(error.find("sub/planted is a symbolic link"), std::string::npos) << error;
  EXPECT_FALSE(fs::exists(dir.path() / "to" / "sub" / "planted" / "token"));

  fs::create_directory_symlink("loop", dir.path() / "loop");
  error = error_of([&] { copy_plain_tree(dir.path() / "loop", dir.path() / "to2", FileCopy::bytes, 100); });
  EXPECT_NE(error.find("is a symbolic link, not a directory"), std::string::npos) << error;
  EXPECT_NE(error_of([&] {
              copy_plain_tree(dir.path() / "from", dir.path() / "to", FileCopy::bytes, 100);
            }).find("cannot create"),
            std::string::npos)
      << "an existing destination is refused";
}

}  // namespace
}  // namespace rlock::util
