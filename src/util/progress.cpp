#include "util/progress.h"

#include <unistd.h>

#include <fmt/format.h>

namespace rlock::util {

using namespace std::chrono;

std::string clock_text(seconds span) {
  long long s = span.count();
  if (s < 60) return fmt::format("{} s", s);
  if (s < 3600) return fmt::format("{}:{:02}", s / 60, s % 60);
  return fmt::format("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
}

Progress::Progress(std::FILE* out, std::string label, std::string unit, std::size_t total)
    : Progress(out, std::move(label), std::move(unit), total, isatty(fileno(out)) == 1, seconds(10),
               [] { return steady_clock::now(); }) {}

Progress::Progress(std::FILE* out, std::string label, std::string unit, std::size_t total, bool terminal,
                   seconds period, Clock clock)
    : out_(out),
      label_(std::move(label)),
      unit_(std::move(unit)),
      total_(total),
      terminal_(terminal),
      period_(period),
      clock_(std::move(clock)),
      start_(clock_()),
      last_printed_(start_) {}

Progress::~Progress() { finish(); }

std::string Progress::line(std::size_t done, std::string_view detail) const {
  auto elapsed = duration_cast<seconds>(clock_() - start_);
  std::string text = fmt::format("{}: {}/{} {}", label_, done, total_, unit_);
  if (!detail.empty()) text += fmt::format(", {}", detail);
  text += fmt::format(", {} elapsed", clock_text(elapsed));
  // The estimate assumes the rest goes at the pace so far; none before the first step is done.
  if (done > 0 && done < total_) {
    auto left = seconds(static_cast<long long>(static_cast<double>(elapsed.count()) *
                                               static_cast<double>(total_ - done) / static_cast<double>(done)));
    text += fmt::format(", about {} left", clock_text(left));
  }
  return text;
}

void Progress::update(std::size_t done, std::string_view detail) {
  auto now = clock_();
  if (terminal_) {
    // \r and erase-to-end-of-line rewrite the line in place.
    fmt::print(out_, "\r{}\x1b[K", line(done, detail));
    drawn_ = true;
  } else {
    bool moved = done != last_done_;
    bool due = !printed_ || (moved && (now - last_printed_ >= period_ || done >= total_));
    if (!due) return;
    fmt::print(out_, "{}\n", line(done, detail));
  }
  std::fflush(out_);
  printed_ = true;
  last_printed_ = now;
  last_done_ = done;
}

void Progress::clear() {
  if (!drawn_) return;
  fmt::print(out_, "\r\x1b[K");
  std::fflush(out_);
  drawn_ = false;
}

void Progress::finish() {
  if (finished_) return;
  finished_ = true;
  if (drawn_) {
    fmt::print(out_, "\n");
    std::fflush(out_);
    drawn_ = false;
  }
}

}  // namespace rlock::util
