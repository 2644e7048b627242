#include "timeline/timeline_svg.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "lab/run_log.h"
#include "timeline/xml.h"

namespace rlock::timeline {
namespace {

constexpr lab::Wording kHostLane{"host", "host", "호스트"};
constexpr lab::Wording kHeld{"held", "held the lock", "락 보유"};
constexpr lab::Wording kStale{"stale", "acted as the holder without the lock", "락 없이 보유자처럼 행동"};
constexpr lab::Wording kPaused{"paused", "paused (SIGSTOP to SIGCONT)", "일시 정지 (SIGSTOP부터 SIGCONT까지)"};
constexpr lab::Wording kRejected{"rejected", "rejected or failed", "거절 또는 실패"};
constexpr lab::Wording kAxis{"axis", "seconds since the run's start", "실행 시작부터 지난 초"};

constexpr const char* kStyle =
    ".lane{fill:#f6f7f9}.held{fill:#4a7bd0}.stale{fill:url(#hatch);stroke:#c62828;stroke-width:1}"
    ".paused{fill:#7f7f7f;fill-opacity:.22}.grid{stroke:#d8dbe0;stroke-width:1}.axis{stroke:#333;stroke-width:1}"
    ".leader{stroke:#b0b4ba;stroke-width:1}.neutral{fill:#555}.ok{fill:#2e7d32}"
    ".rejected,.failed{stroke:#c62828;stroke-width:2.5}"
    ".label{fill:#222}.label.rejected,.label.failed{fill:#c62828;stroke:none}"
    ".name{font-weight:bold;font-size:14px}.title{font-weight:bold;font-size:17px}"
    ".lost{fill:#c62828;font-weight:bold}.safe{fill:#2e7d32;font-weight:bold}";

constexpr double kFontSize = 12;
constexpr double kLeft = 72, kRight = 16;
constexpr double kBar = 16, kRow = 15, kLanePad = 8;

// About how wide `text` is at `size` pixels: wide glyphs (Hangul, CJK) a full em, others 0.6.
double text_width(std::string_view text, double size) {
  double em = 0;
  for (std::size_t i = 0; i < text.size();) {
    auto lead = static_cast<unsigned char>(text[i]);
    std::size_t length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
    em += length >= 3 ? 1.0 : 0.6;
    i += length;
  }
  return em * size;
}

std::string_view class_of(MarkResult result) {
  switch (result) {
    case MarkResult::ok: return "ok";
    case MarkResult::rejected: return "rejected";
    case MarkResult::failed: return "failed";
    default: return "neutral";
  }
}

// `text` cut at a character, with an ellipsis, to about `width` pixels at the labels' size.
// One pass: the longest prefix of whole characters that leaves room for the ellipsis.
std::string fit(std::string text, double width) {
  std::size_t cut = 0;
  double used = 0;
  for (std::size_t i = 0; i < text.size();) {
    std::size_t next = i + 1;
    while (next < text.size() && (static_cast<unsigned char>(text[next]) & 0xC0) == 0x80) ++next;  // UTF-8 continuation
    used += text_width(std::string_view(text).substr(i, next - i), kFontSize);
    if (used + kFontSize <= width) cut = next;
    if (used > width) break;
    i = next;
  }
  if (used <= width) return text;
  text.resize(cut);
  return text + "…";
}

// `text` broken at spaces into lines of about `width` pixels at `size` (a longer word stays whole).
std::vector<std::string> wrap(std::string_view text, double width, double size) {
  std::vector<std::string> lines{""};
  while (!text.empty()) {
    std::size_t space = text.find(' ', 1);
    std::string_view word = text.substr(0, space);
    text.remove_prefix(word.size());
    if (!lines.back().empty() && text_width(lines.back() + std::string(word), size) > width) {
      lines.emplace_back();
      if (word.starts_with(' ')) word.remove_prefix(1);
    }
    lines.back() += word;
  }
  return lines;
}

bool is_refusal(MarkResult result) { return result == MarkResult::rejected || result == MarkResult::failed; }

// The mark itself: a dot when it went well or said nothing, a cross when it was refused or failed.
std::string mark_shape(double x, double y, MarkResult result) {
  std::string_view cls = class_of(result);
  if (is_refusal(result)) {
    return fmt::format(R"(<path class="{}" d="M{:.1f} {:.1f}l8 8m0 -8l-8 8"/>)", cls, x - 4, y - 4);
  }
  return fmt::format(R"(<circle class="{}" cx="{:.1f}" cy="{:.1f}" r="3.5"/>)", cls, x, y);
}

// A tick step of 1, 2 or 5 times a power of ten that cuts `span` into at most ten parts.
double tick_step(double span) {
  double step = std::pow(10.0, std::floor(std::log10(std::max(span, 0.1) / 10)));
  for (double factor : {1.0, 2.0, 5.0, 10.0}) {
    if (span / (step * factor) <= 10) return step * factor;
  }
  return step * 10;
}

// Draws in three layers: lane backgrounds and pauses, then the time grid, then what happened.
class Drawing {
 public:
  Drawing(const Timeline& timeline, const SvgOptions& options)
      : timeline_(timeline), options_(options), step_(tick_step(std::max(timeline.end, 0.1))) {
    end_ = std::ceil(std::max(timeline.end, 0.1) / step_ - 1e-9) * step_;
    plot_width_ = std::max(options.width - kLeft - kRight, 1.0);
  }

  std::string svg() {
    double y = header();
    double lanes_top = y;
    for (const Lane& lane : timeline_.workers) y = lane_at(lane, lane.name, y);
    if (!timeline_.host.marks.empty()) y = lane_at(timeline_.host, lab::fill_wording(kHostLane, options_.lang, {}), y);
    double height = axis(lanes_top, y);
    return fmt::format(
        R"(<svg xmlns="http://www.w3.org/2000/svg" width="{0}" height="{1:.0f}" viewBox="0 0 {0} {1:.0f}" )"
        R"(font-family="{2}" font-size="{3:.0f}">)"
        "\n<title>{4}</title>\n<style>{5}</style>\n<defs><pattern id=\"hatch\" width=\"6\" height=\"6\" "
        "patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" "
        "fill=\"#fbe3e3\"/><rect width=\"2.5\" height=\"6\" fill=\"#c62828\"/></pattern></defs>\n"
        "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n{6}{7}{8}</svg>\n",
        options_.width, height, kSvgFonts, kFontSize, xml_escape(options_.title), kStyle, back_, grid_, front_);
  }

 private:
  double x(double t) const { return kLeft + std::clamp(t / end_, 0.0, 1.0) * plot_width_; }

  static void text(std::string& out, double x, double y, std::string_view cls, std::string_view content,
                   std::string_view anchor = "start") {
    out += fmt::format(R"(<text class="{}" x="{:.1f}" y="{:.1f}" text-anchor="{}">{}</text>)", cls, x, y, anchor,
                       xml_escape(content));
    out += '\n';
  }

  static void rect(std::string& out, std::string_view cls, double x, double y, double width, double height) {
    out += fmt::format(R"(<rect class="{}" x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{:.1f}"/>)", cls, x, y,
                       std::max(width, 1.0), height);
    out += '\n';
  }

  static void line(std::string& out, std::string_view cls, double x1, double y1, double x2, double y2) {
    out += fmt::format(R"(<line class="{}" x1="{:.1f}" y1="{:.1f}" x2="{:.1f}" y2="{:.1f}"/>)", cls, x1, y1, x2, y2);
    out += '\n';
  }

  // The title, the verdict and the legend; returns where the lanes begin.
  double header() {
    lab::Lang lang = options_.lang;
    double right = options_.width - kRight;
    text(front_, 12, 24, "title", options_.title);
    double y = 44;
    for (const std::string& line : wrap(timeline_.verdict.line(lang), right - 12, kFontSize * 1.1)) {  // bold
      text(front_, 12, y, timeline_.verdict.lost_update() ? "lost" : "safe", line);
      y += 16;
    }
    double x = 12;
    y -= 2;
    auto legend = [&](std::string_view cls, const lab::Wording& wording) {
      std::string label = lab::fill_wording(wording, lang, {});
      double width = 19 + text_width(label, kFontSize);
      if (x > 12 && x + width > right) x = 12, y += 18;
      if (cls == "rejected") {
        front_ += mark_shape(x + 7, y + 6, MarkResult::rejected) + "\n";
      } else {
        rect(front_, cls, x, y, 14, 12);
      }
      text(front_, x + 19, y + 10, "label", label);
      x += width + 18;
    };
    legend("held", kHeld);
    legend("stale", kStale);
    legend("paused", kPaused);
    legend("rejected", kRejected);
    return y + 24;
  }

  // One lane from `top`: its intervals on a bar, its marks, their labels in as many rows as they
  // need (a label goes to the first row where it overlaps no other). Returns the next lane's top.
  double lane_at(const Lane& lane, const std::string& name, double top) {
    double bar_top = top + kLanePad;
    double bar_middle = bar_top + kBar / 2;
    for (const Interval& i : lane.held) rect(front_, "held", x(i.from), bar_top, x(i.to) - x(i.from), kBar);
    for (const Interval& i : lane.stale) rect(front_, "stale", x(i.from), bar_top, x(i.to) - x(i.from), kBar);

    std::vector<double> row_ends;  // where each label row is free again
    double labels_top = bar_top + kBar + 4;
    std::string marks, crosses;  // crosses last: a refusal is never hidden under a dot
    for (const Mark& mark : lane.marks) {
      double at = x(mark.event.t);
      std::string label = fit(lab::render_message(mark.event, options_.lang), plot_width_ - 8);
      double width = text_width(label, kFontSize);
      // Right of the mark; left of it, ending there, when it would run off the drawing; from the
      // plot's left edge when it would run over the names.
      bool right_of = at + 4 + width <= kLeft + plot_width_;
      bool ends_at_mark = !right_of && at - 4 - width >= kLeft + 4;
      double from = right_of ? at + 4 : ends_at_mark ? at - 4 - width : kLeft + 4;
      std::size_t row = 0;
      while (row < row_ends.size() && row_ends[row] > from) ++row;
      if (row == row_ends.size()) row_ends.push_back(0);
      row_ends[row] = from + width + 10;
      double baseline = labels_top + static_cast<double>(row + 1) * kRow - 3;
      line(front_, "leader", at, bar_middle, at, baseline + 2);
      text(front_, ends_at_mark ? at - 4 : from, baseline, fmt::format("label {}", class_of(mark.result)), label,
           ends_at_mark ? "end" : "start");
      (is_refusal(mark.result) ? crosses : marks) += mark_shape(at, bar_middle, mark.result) + "\n";
    }
    front_ += marks + crosses;  // over the leaders

    double bottom = labels_top + static_cast<double>(row_ends.size()) * kRow + kLanePad;
    rect(back_, "lane", kLeft, top, plot_width_, bottom - top - 2);
    for (const Interval& i : lane.paused) rect(back_, "paused", x(i.from), top, x(i.to) - x(i.from), bottom - top - 2);
    text(front_, 12, bar_middle + 5, "name", name);
    return bottom;
  }

  // The grid over the lanes and the axis under them, with its ticks and caption; returns the
  // drawing's height.
  double axis(double lanes_top, double lanes_bottom) {
    double y = lanes_bottom + 4;
    line(front_, "axis", kLeft, y, kLeft + plot_width_, y);
    int ticks = static_cast<int>(std::lround(end_ / step_));
    int decimals = step_ >= 1 ? 0 : step_ >= 0.1 ? 1 : 2;
    for (int i = 0; i <= ticks; ++i) {
      double t = i * step_;
      line(grid_, "grid", x(t), lanes_top, x(t), y);
      line(front_, "axis", x(t), y, x(t), y + 5);
      text(front_, x(t), y + 18, "label", fmt::format("{:.{}f}s", t, decimals), "middle");
    }
    text(front_, kLeft + plot_width_ / 2, y + 36, "label", lab::fill_wording(kAxis, options_.lang, {}), "middle");
    return y + 46;
  }

  const Timeline& timeline_;
  const SvgOptions& options_;
  double step_;
  double end_ = 1;
  double plot_width_ = 1;
  std::string back_;   // lane backgrounds and pauses
  std::string grid_;   // the time grid, over the backgrounds
  std::string front_;  // everything else
};

}  // namespace

std::string timeline_svg(const Timeline& timeline, const SvgOptions& options) {
  return Drawing(timeline, options).svg();
}

void write_timeline(const lab::LogDir& dir, const std::filesystem::path& out, const SvgOptions& options) {
  dir.write_file(out, timeline_svg(build_timeline(lab::read_events(dir)), options));
}

}  // namespace rlock::timeline
