#include "store/gzip_file.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "host/temp_dir.h"
#include "rlock/error.h"
#include "store/run_record.h"

namespace rlock::store {
namespace {

namespace fs = std::filesystem;

void write(const fs::path& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// Lines of increasing length, the longest over `longest` bytes, and random bytes in between.
std::string lines(int count, std::size_t longest) {
  std::mt19937 random(2026);
  std::string text;
  for (int i = 0; i < count; ++i) {
    std::size_t length = longest * static_cast<std::size_t>(i) / static_cast<std::size_t>(count);
    for (std::size_t k = 0; k < length; ++k) text += static_cast<char>('a' + random() % 26);
    text += '\n';
  }
  return text;
}

std::vector<std::string> read_lines(const fs::path& path, std::size_t chunk, std::size_t max_line = 1 << 20,
                                    std::uint64_t max_total = 1 << 30) {
  std::vector<std::string> out;
  for_each_gzip_line(
      path, max_line, max_total, [&](std::string_view line) { out.emplace_back(line); }, chunk);
  return out;
}

TEST(GzipFile, ChunksSmallerThanALineRoundTrip) {
  host::TempDir dir("gzip-test");
  std::string text = lines(200, 3000);
  write(dir.path() / "plain", text);
  gzip_file(dir.path() / "plain", dir.path() / "plain.gz", 7);
  EXPECT_EQ(read(dir.path() / "plain"), text) << "the original is left as it is";
  std::vector<std::string> back = read_lines(dir.path() / "plain.gz", 5);
  ASSERT_EQ(back.size(), 200u);
  std::string joined;
  for (const std::string& line : back) joined += line + "\n";
  EXPECT_EQ(joined, text);
  EXPECT_EQ(read_lines(dir.path() / "plain.gz", kGzipChunk), back);
}

TEST(GzipFile, AnEmptyFileRoundTrips) {
  host::TempDir dir("gzip-test");
  write(dir.path() / "plain", "");
  gzip_file(dir.path() / "plain", dir.path() / "plain.gz");
  EXPECT_TRUE(read_lines(dir.path() / "plain.gz", 3).empty());
}

TEST(GzipFile, EveryCutOfTheStreamIsRefused) {
  host::TempDir dir("gzip-test");
  write(dir.path() / "plain", lines(50, 200));
  gzip_file(dir.path() / "plain", dir.path() / "plain.gz");
  std::string whole = read(dir.path() / "plain.gz");
  for (std::size_t cut = 0; cut < whole.size(); ++cut) {
    write(dir.path() / "cut.gz", whole.substr(0, cut));
    EXPECT_THROW(read_lines(dir.path() / "cut.gz", 16), Error) << "cut after " << cut << " bytes";
  }
}

TEST(GzipFile, ADamagedCrcOrBytesAfterTheStreamAreRefused) {
  host::TempDir dir("gzip-test");
  write(dir.path() / "plain", lines(50, 200));
  gzip_file(dir.path() / "plain", dir.path() / "plain.gz");
  std::string whole = read(dir.path() / "plain.gz");
  std::string crc = whole;
  crc[crc.size() - 8] ^= 1;
  write(dir.path() / "crc.gz", crc);
  EXPECT_THROW(read_lines(dir.path() / "crc.gz", 64), Error);
  write(dir.path() / "after.gz", whole + "x");
  EXPECT_THROW(read_lines(dir.path() / "after.gz", 64), Error);
  write(dir.path() / "plain-text.gz", "{\"format\":1}\n");
  EXPECT_THROW(read_lines(dir.path() / "plain-text.gz", 64), Error) << "not gzip";
}

TEST(GzipFile, ALineOrATotalOverItsBoundIsRefused) {
  host::TempDir dir("gzip-test");
  write(dir.path() / "plain", std::string(5000, 'x') + "\nshort\n");
  gzip_file(dir.path() / "plain", dir.path() / "plain.gz", 64);
  EXPECT_THROW(read_lines(dir.path() / "plain.gz", 64, 4999), Error);
  EXPECT_EQ(read_lines(dir.path() / "plain.gz", 64, 5000).size(), 2u);
  EXPECT_THROW(read_lines(dir.path() / "plain.gz", 64, 5000, 5000), Error);
}

// seal_run in a child process whose files may not grow past 64 KiB: the write fails half way.
TEST(GzipFile, SealingThatCannotWriteKeepsTheOriginal) {
  host::TempDir dir("gzip-test");
  std::mt19937 random(7);
  std::string noise(1 << 20, '\0');
  for (char& c : noise) c = static_cast<char>('a' + random() % 26);
  write(dir.path() / "trials.jsonl", noise + "\n");
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    signal(SIGXFSZ, SIG_IGN);
    rlimit limit{64 << 10, 64 << 10};
    setrlimit(RLIMIT_FSIZE, &limit);
    try {
      seal_run(dir.path());
    } catch (const Error&) {
      _exit(0);
    }
    _exit(1);
  }
  int status = 0;
  waitpid(child, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "seal_run must throw Error";
  EXPECT_EQ(read(dir.path() / "trials.jsonl"), noise + "\n");
  EXPECT_FALSE(fs::exists(dir.path() / "trials.jsonl.gz"));
  EXPECT_FALSE(fs::exists(dir.path() / "sealed.json"));
  for (const fs::directory_entry& entry : fs::directory_iterator(dir.path())) {
    EXPECT_EQ(entry.path().filename(), "trials.jsonl") << "nothing half-written is left";
  }
}

}  // namespace
}  // namespace rlock::store
