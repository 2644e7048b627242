// Progress lines on a terminal and in a log, with a clock the test moves.
#include "util/progress.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace rlock::util {
namespace {

using namespace std::chrono;

// The text written to a temporary file.
std::string text_of(std::FILE* file) {
  std::fflush(file);
  std::rewind(file);
  std::string text;
  for (int c; (c = std::fgetc(file)) != EOF;) text += static_cast<char>(c);
  return text;
}

struct FakeClock {
  steady_clock::time_point now{};
  Progress::Clock clock() {
    return [this] { return now; };
  }
};

TEST(ClockText, SecondsMinutesHours) {
  EXPECT_EQ(clock_text(seconds(42)), "42 s");
  EXPECT_EQ(clock_text(seconds(185)), "3:05");
  EXPECT_EQ(clock_text(seconds(3727)), "1:02:07");
}

TEST(Progress, LogGetsAPlainLineAtMostEveryPeriodAndTheLastStep) {
  std::FILE* file = std::tmpfile();
  FakeClock time;
  {
    Progress progress(file, "chaos", "trials", 100, false, seconds(10), time.clock());
    progress.update(0);
    time.now += seconds(5);
    progress.update(10, "0 with an anomaly");  // within the period: not printed
    time.now += seconds(5);
    progress.update(20, "1 with an anomaly");
    time.now += seconds(10);
    progress.update(20, "1 with an anomaly");  // no step since: not printed
    time.now += seconds(1);
    progress.update(100, "2 with an anomaly");  // the last step, whatever the period
  }
  EXPECT_EQ(text_of(file),
            "chaos: 0/100 trials, 0 s elapsed\n"
            "chaos: 20/100 trials, 1 with an anomaly, 10 s elapsed, about 40 s left\n"
            "chaos: 100/100 trials, 2 with an anomaly, 21 s elapsed\n");
  std::fclose(file);
}

TEST(Progress, TerminalRewritesOneLineAndEndsIt) {
  std::FILE* file = std::tmpfile();
  FakeClock time;
  {
    Progress progress(file, "bench", "cases", 4, true, seconds(10), time.clock());
    time.now += seconds(30);
    progress.update(1, "ttl");
    time.now += seconds(30);
    progress.update(2, "watchdog");
  }
  EXPECT_EQ(text_of(file),
            "\rbench: 1/4 cases, ttl, 30 s elapsed, about 1:30 left\x1b[K"
            "\rbench: 2/4 cases, watchdog, 1:00 elapsed, about 1:00 left\x1b[K\n");
  std::fclose(file);
}

TEST(Progress, ClearErasesTheLineOnlyOnATerminal) {
  std::FILE* terminal = std::tmpfile();
  std::FILE* log = std::tmpfile();
  FakeClock time;
  {
    Progress on_terminal(terminal, "bench", "steps", 2, true, seconds(10), time.clock());
    Progress in_log(log, "bench", "steps", 2, false, seconds(10), time.clock());
    on_terminal.clear();  // nothing drawn yet: nothing to erase
    on_terminal.update(1);
    in_log.update(1);
    on_terminal.clear();
    in_log.clear();
  }
  EXPECT_EQ(text_of(terminal), "\rbench: 1/2 steps, 0 s elapsed, about 0 s left\x1b[K\r\x1b[K");
  EXPECT_EQ(text_of(log), "bench: 1/2 steps, 0 s elapsed, about 0 s left\n");
  std::fclose(terminal);
  std::fclose(log);
}

TEST(Progress, NothingPrintedNothingEnded) {
  std::FILE* file = std::tmpfile();
  FakeClock time;
  { Progress progress(file, "bench", "cases", 4, true, seconds(10), time.clock()); }
  EXPECT_EQ(text_of(file), "");
  std::fclose(file);
}

}  // namespace
}  // namespace rlock::util
