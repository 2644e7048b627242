#include "lab/run_log.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "host/temp_dir.h"
#include "lab/append_file.h"
#include "lab/log_dir.h"
#include "rlock/error.h"
#include "testing/test_env.h"

namespace fs = std::filesystem;

namespace rlock::lab {
namespace {

using nlohmann::json;
using testing::error_message;

void write_text(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::trunc);
  out << text;
}

std::vector<std::string> read_lines(const fs::path& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::set<std::string> names_in(const fs::path& dir) {
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.insert(entry.path().filename().string());
  return names;
}

class RunLogTest : public ::testing::Test {
 protected:
  host::TempDir tmp_;
  LogDir dir_{tmp_.path()};
};

// --- Event records ---

TEST(EventRecord, RoundTripsThroughAJsonLine) {
  Event event{2.041, "B", EventKind::acquired, {{"ttl_ms", 2000}, {"fence", 2}}};
  std::string line = event.to_json_line();
  EXPECT_TRUE(line.starts_with(R"({"t":2.041,"who":"B","event":"acquired",)")) << line;
  EXPECT_EQ(line.find('\n'), std::string::npos);

  Event back = Event::from_json_line(line);
  EXPECT_DOUBLE_EQ(back.t, 2.041);
  EXPECT_EQ(back.who, "B");
  EXPECT_EQ(back.kind, EventKind::acquired);
  EXPECT_EQ(back.fields, event.fields);
}

TEST(EventRecord, EveryKindRoundTrips) {
  for (int i = 0; i < 64 && to_string(static_cast<EventKind>(i)) != "unknown"; ++i) {
    Event event{1.5, "A", static_cast<EventKind>(i), json::object()};
    EXPECT_EQ(Event::from_json_line(event.to_json_line()).kind, event.kind) << to_string(event.kind);
  }
}

TEST(EventRecord, GarbageIsNotAnEvent) {
  for (const char* line :
       {"", "garbage", "{", "[1,2]", "{}", "42", R"({"who":"A","event":"busy"})",
        R"({"t":"1","who":"A","event":"busy"})", R"({"t":1,"who":2,"event":"busy"})", R"({"t":1,"who":"A"})"}) {
    EXPECT_THROW(Event::from_json_line(line), Error) << line;
  }
}

TEST(EventRecord, UnknownEventIsNamed) {
  std::string message =
      error_message<Error>([] { Event::from_json_line(R"({"t":1,"who":"A","event":"teleported"})"); });
  EXPECT_NE(message.find("teleported"), std::string::npos) << message;
}

// --- The data directory ---

TEST_F(RunLogTest, StartNewRunClearsThePreviousRunAndKeepsOtherFiles) {
  for (const char* name : {"run.log", "events.jsonl", ".read_A", ".read_B", ".pid_A", ".pid_B", ".start", "notes.txt",
                           "run.log.old", "pid_A"}) {
    write_text(tmp_.path() / name, "old\n");
  }
  dir_.start_new_run(1234.5);
  EXPECT_EQ(names_in(tmp_.path()), (std::set<std::string>{".start", "notes.txt", "run.log.old", "pid_A"}));
  EXPECT_DOUBLE_EQ(dir_.start(), 1234.5);
}

TEST_F(RunLogTest, StartNewRunCreatesAMissingDirectory) {
  LogDir nested(tmp_.path() / "a" / "b");
  nested.start_new_run(7.25);
  EXPECT_DOUBLE_EQ(nested.start(), 7.25);
}

TEST_F(RunLogTest, StartThrowsWhenNoRunWasStarted) {
  EXPECT_THROW(dir_.start(), Error);
  EXPECT_THROW(RunLog(dir_, Lang::en), Error);
}

// --- Recording and reading back ---

TEST_F(RunLogTest, RecordWritesOneRecordAndOneRenderedLine) {
  dir_.start_new_run(wall_seconds());
  RunLog log(dir_, Lang::en);
  Event event = log.record("B", EventKind::acquired, {{"ttl_ms", 2000}});

  std::vector<std::string> records = read_lines(dir_.events());
  ASSERT_EQ(records.size(), 1u);
  Event back = Event::from_json_line(records[0]);
  EXPECT_EQ(back.who, "B");
  EXPECT_EQ(back.kind, EventKind::acquired);
  EXPECT_EQ(back.fields, json({{"ttl_ms", 2000}}));
  EXPECT_NEAR(back.t, event.t, 1e-6);

  std::vector<std::string> lines = read_lines(dir_.run_log());
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0], format_line(event, Lang::en));
}

TEST_F(RunLogTest, RecordRendersInTheLogsLanguage) {
  dir_.start_new_run(wall_seconds());
  Event event = RunLog(dir_, Lang::ko).record("host", EventKind::signal, {{"signal", "SIGSTOP"}, {"target", "A"}});
  std::vector<std::string> lines = read_lines(dir_.run_log());
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0], format_line(event, Lang::ko));
  EXPECT_TRUE(lines[0].ends_with("  host  A에 SIGSTOP")) << lines[0];
}

TEST_F(RunLogTest, ReadEventsReturnsTheRecordsInFileOrder) {
  dir_.start_new_run(wall_seconds());
  RunLog log(dir_, Lang::en);
  log.record("A", EventKind::busy);
  log.record("B", EventKind::read, {{"balance", 100}});
  std::vector<Event> events = read_events(dir_);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].who, "A");
  EXPECT_EQ(events[1].kind, EventKind::read);
  EXPECT_EQ(events[1].fields["balance"], 100);
}

TEST_F(RunLogTest, ReadEventsThrowsForAMissingLog) { EXPECT_THROW(read_events(dir_), Error); }

TEST_F(RunLogTest, ReadEventsThrowsForAnEmptyLog) {
  write_text(dir_.events(), "");
  EXPECT_THROW(read_events(dir_), Error);
}

TEST_F(RunLogTest, ReadEventsNamesTheBadLine) {
  std::string good = Event{0.5, "A", EventKind::busy, json::object()}.to_json_line();
  write_text(dir_.events(), good + "\n" + good + "\nnot a record\n" + good + "\n");
  std::string message = error_message<Error>([&] { read_events(dir_); });
  EXPECT_NE(message.find("line 3"), std::string::npos) << message;
}

TEST(SortByTime, EqualTimesKeepFileOrder) {
  // Enough events that std::sort would use introsort, which is not stable.
  std::vector<Event> events;
  for (int i = 0; i < 200; ++i) {
    events.push_back(Event{static_cast<double>((i * 7) % 3), std::to_string(i), EventKind::busy, json::object()});
  }
  sort_by_time(events);
  for (std::size_t i = 1; i < events.size(); ++i) {
    ASSERT_LE(events[i - 1].t, events[i].t);
    if (events[i - 1].t == events[i].t) {
      EXPECT_LT(std::stoi(events[i - 1].who), std::stoi(events[i].who)) << "at " << i;
    }
  }
}

// --- Concurrent appends ---

constexpr int kWriters = 8;
constexpr int kLinesPerWriter = 500;

// Writer w's line n: a header, then w's own letter up to a length from 20 to 9019 bytes, so many
// lines are longer than a 4096-byte page.
std::string line_for(int writer, int n) {
  std::string line = "w=" + std::to_string(writer) + " n=" + std::to_string(n) + " ";
  auto length = static_cast<std::size_t>(20 + (n * 997 + writer * 131) % 9000);
  line.resize(length, static_cast<char>('a' + writer));
  return line;
}

// Runs in a child: waits for `go` to close, so all writers start together, then appends its lines.
int append_lines(const fs::path& path, int writer, int go) noexcept {
  try {
    AppendFile file(path);
    char byte;
    while (::read(go, &byte, 1) > 0) {
    }
    for (int n = 0; n < kLinesPerWriter; ++n) file.append_line(line_for(writer, n));
    return 0;
  } catch (...) {
    return 1;
  }
}

TEST_F(RunLogTest, EightProcessesAppendingConcurrentlyNeverTearALine) {
  const fs::path path = dir_.run_log();
  int go[2];
  ASSERT_EQ(::pipe(go), 0) << std::strerror(errno);
  std::vector<pid_t> children;
  for (int writer = 0; writer < kWriters; ++writer) {
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0) << std::strerror(errno);
    if (pid == 0) {
      ::close(go[1]);
      ::_exit(append_lines(path, writer, go[0]));  // _exit: no gtest or TempDir teardown in the child
    }
    children.push_back(pid);
  }
  ::close(go[0]);
  ::close(go[1]);  // go: every writer's read() returns 0
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "writer process " << pid << " failed";
  }

  std::vector<std::vector<int>> seen(kWriters, std::vector<int>(kLinesPerWriter, 0));
  std::size_t torn = 0, total = 0;
  for (const std::string& line : read_lines(path)) {
    ++total;
    int writer = -1, n = -1;
    if (std::sscanf(line.c_str(), "w=%d n=%d ", &writer, &n) != 2 || writer < 0 || writer >= kWriters || n < 0 ||
        n >= kLinesPerWriter || line != line_for(writer, n)) {
      ++torn;
      continue;
    }
    ++seen[static_cast<std::size_t>(writer)][static_cast<std::size_t>(n)];
  }
  EXPECT_EQ(torn, 0u);
  EXPECT_EQ(total, std::size_t{kWriters} * kLinesPerWriter);
  for (int writer = 0; writer < kWriters; ++writer) {
    for (int n = 0; n < kLinesPerWriter; ++n) {
      EXPECT_EQ(seen[static_cast<std::size_t>(writer)][static_cast<std::size_t>(n)], 1)
          << "writer " << writer << " line " << n;
    }
  }
}

TEST_F(RunLogTest, AppendFileThrowsForAnUnwritablePath) {
  std::string message = error_message<Error>([&] { AppendFile file(tmp_.path() / "missing" / "run.log"); });
  EXPECT_NE(message.find("missing"), std::string::npos) << message;
}

}  // namespace
}  // namespace rlock::lab
