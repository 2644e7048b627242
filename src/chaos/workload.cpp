#include "chaos/workload.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>

#include <fmt/format.h>

#include "protocol/messages.h"
#include "rlock/error.h"
#include "util/printable.h"

namespace rlock::chaos {
namespace {

constexpr std::size_t kMaxScheduleText = 4096;

// The words of `text` split at blanks.
std::vector<std::string> words_of(std::string_view text) {
  std::istringstream in{std::string(text)};
  std::vector<std::string> words;
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

[[noreturn]] void refuse(std::string_view step, std::string_view what) {
  throw UsageError(fmt::format("--nemesis '{}': {}", util::printable(step), what));
}

ScheduleTime time_of(std::string_view step, const std::string& word) {
  ScheduleTime t;
  std::string_view number = word;
  double scale = 1;
  if (number.ends_with("ttl")) {
    t.ttls = true;
    number.remove_suffix(3);
  } else if (number.ends_with("ms")) {
    scale = 0.001;
    number.remove_suffix(2);
  } else if (number.ends_with("s")) {
    number.remove_suffix(1);
  } else {
    refuse(step, fmt::format("{} is no time: a number of s, ms or ttl (2ttl, 1.5s, 300ms)", util::printable(word)));
  }
  auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), t.value);
  if (error != std::errc() || end != number.data() + number.size() || !std::isfinite(t.value) || t.value < 0 ||
      t.value > kMaxHistorySeconds) {
    refuse(step, fmt::format("{} is no time: a number from 0 to {} of s, ms or ttl", util::printable(word),
                             kMaxHistorySeconds));
  }
  t.value *= scale;
  return t;
}

std::string time_text(const ScheduleTime& t) { return fmt::format("{}{}", t.value, t.ttls ? "ttl" : "s"); }

NemesisStep step_of(std::string_view text, int workers) {
  std::vector<std::string> words = words_of(text);
  if (words.empty()) refuse(text, "an empty step");
  NemesisStep s;
  std::string head = words[0];
  if (std::size_t colon = head.find(':'); colon != std::string::npos) {
    s.worker = head.substr(colon + 1);
    head.resize(colon);
    bool letter = s.worker.size() == 1 && s.worker[0] >= 'A' && s.worker[0] < 'A' + workers;
    if (!letter) {
      refuse(text, fmt::format("worker '{}' is none of the history's {} (A to {})", util::printable(s.worker), workers,
                               static_cast<char>('A' + workers - 1)));
    }
  }
  std::optional<Fault> fault = fault_from(head);
  if (!fault || *fault == Fault()) {
    std::string names;
    for (Fault f : all_faults()) {
      if (f != Fault()) names += (names.empty() ? "" : ", ") + std::string(to_string(f));
    }
    refuse(text, fmt::format("'{}' is no fault ({})", util::printable(head), names));
  }
  s.fault = *fault;
  if (std::string_view why = history_refusal(s.fault); !why.empty()) {
    refuse(text, fmt::format("{} is no history's operation: {}", to_string(s.fault), why));
  }
  for (std::size_t i = 1; i < words.size(); ++i) {
    const std::string& word = words[i];
    auto next = [&]() -> const std::string& {
      if (i + 1 >= words.size()) refuse(text, fmt::format("'{}' wants what follows it", word));
      return words[++i];
    };
    if (word == "at" || word == "every" || word == "on") {
      if (s.trigger != Trigger::once) refuse(text, "at, every and on: one of them a step");
    }
    if (word == "at") {
      s.trigger = Trigger::at;
      s.at = time_of(text, next());
    } else if (word == "every") {
      s.trigger = Trigger::every;
      s.every = time_of(text, next());
      if (s.every.value <= 0) refuse(text, "every wants an interval above 0");
      s.at = s.every;
    } else if (word == "from" && s.trigger == Trigger::every) {
      s.at = time_of(text, next());
    } else if (word == "on") {
      s.trigger = Trigger::on_step;
      std::string on = next();
      std::size_t hash = on.find('#');
      s.step = on.substr(0, hash);
      const std::vector<std::string_view>& steps = schedule_steps();
      if (std::find(steps.begin(), steps.end(), s.step) == steps.end()) {
        refuse(text, fmt::format("'{}' is no step (acquire, acquired, read, write, release, extend)",
                                 util::printable(s.step)));
      }
      if (hash != std::string::npos) {
        std::string_view n = std::string_view(on).substr(hash + 1);
        auto [end, error] = std::from_chars(n.data(), n.data() + n.size(), s.increment);
        if (error != std::errc() || end != n.data() + n.size() || s.increment < 1 ||
            s.increment > kMaxHistoryIncrements) {
          refuse(text,
                 fmt::format("#{} is no increment: a number from 1 to {}", util::printable(n), kMaxHistoryIncrements));
        }
      }
    } else if (word == "for") {
      s.heal_after = time_of(text, next());
    } else {
      refuse(text, fmt::format("'{}' is none of at, every, from, on or for", util::printable(word)));
    }
  }
  if (s.trigger == Trigger::on_step && s.worker.empty() && s.increment > 0) {
    refuse(text, fmt::format("on {}#{} wants a worker: {}:A", s.step, s.increment, to_string(s.fault)));
  }
  return s;
}

}  // namespace

void check_workload(const Workload& w) {
  if (w.workers < kMinHistoryWorkers || w.workers > kMaxHistoryWorkers) {
    throw UsageError(
        fmt::format("--workers {}: a history has {} to {} workers", w.workers, kMinHistoryWorkers, kMaxHistoryWorkers));
  }
  if (w.increments > 0 && w.duration_s > 0) throw UsageError("--increments and --duration: one of them, not both");
  if (w.increments < 0 || w.increments > kMaxHistoryIncrements) {
    throw UsageError(fmt::format("--increments {}: from 1 to {} a worker", w.increments, kMaxHistoryIncrements));
  }
  if (w.duration_s < 0 || w.duration_s > kMaxHistorySeconds || !std::isfinite(w.duration_s)) {
    throw UsageError(fmt::format("--duration {}: from 0 to {} seconds", w.duration_s, kMaxHistorySeconds));
  }
}

std::string history_text(const Workload& workload, const std::optional<NemesisSchedule>& nemesis) {
  if (!workload.history()) return "";
  return fmt::format(", histories of {} workers{}, under {}", workload.workers,
                     workload.increments > 0 ? fmt::format(", {} increments each", workload.increments)
                                             : fmt::format(" for {} s", workload.duration_s),
                     nemesis ? to_string(*nemesis) : "each fault every 2 to 4 TTLs");
}

void check_schedule(const NemesisSchedule& schedule, const Workload& workload) {
  for (const NemesisStep& step : schedule.steps) {
    if (workload.increments > 0 && step.increment > workload.increments) {
      throw UsageError(
          fmt::format("--nemesis: #{} is past each worker's {} increments", step.increment, workload.increments));
    }
  }
}

const std::vector<std::string_view>& schedule_steps() {
  static const std::vector<std::string_view> steps = [] {
    std::vector<std::string_view> all{"read", "write"};
    all.insert(all.end(), std::begin(protocol::kSteps), std::end(protocol::kSteps));
    return all;
  }();
  return steps;
}

NemesisSchedule parse_schedule(std::string_view text, int workers) {
  if (text.size() > kMaxScheduleText) throw UsageError(fmt::format("--nemesis: over {} bytes", kMaxScheduleText));
  NemesisSchedule schedule;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = std::min(text.find(';', start), text.size());
    std::string_view part = text.substr(start, end - start);
    if (!words_of(part).empty()) {
      if (schedule.steps.size() == kMaxScheduleSteps)
        throw UsageError(fmt::format("--nemesis: over {} steps", kMaxScheduleSteps));
      schedule.steps.push_back(step_of(part, workers));
    }
    start = end + 1;
  }
  if (schedule.steps.empty())
    throw UsageError("--nemesis: no step (FAULT[:WORKER] [at T|every T|on STEP[#N]] [for T])");
  return schedule;
}

std::string to_string(const NemesisSchedule& schedule) {
  std::string out;
  for (const NemesisStep& s : schedule.steps) {
    std::string step = std::string(to_string(s.fault)) + (s.worker.empty() ? "" : ":" + s.worker);
    switch (s.trigger) {
      case Trigger::once: break;
      case Trigger::at: step += " at " + time_text(s.at); break;
      case Trigger::every:
        step += " every " + time_text(s.every);
        if (s.at != s.every) step += " from " + time_text(s.at);
        break;
      case Trigger::on_step: step += " on " + s.step + (s.increment > 0 ? fmt::format("#{}", s.increment) : ""); break;
    }
    if (s.heal_after) step += " for " + time_text(*s.heal_after);
    out += (out.empty() ? "" : "; ") + step;
  }
  return out;
}

std::string_view history_refusal(Fault fault) {
  if (fault->runs_own_redis() || fault->splits_by_replica())
    return "its Redis is set up anew for each one-increment trial";
  if (fault->skews_client_clock()) return "its clock is set when a client starts";
  if (fault->one_at_a_time()) return "its trials run one at a time";
  return {};
}

std::vector<Fault> history_faults() {
  std::vector<Fault> faults;
  for (Fault f : all_faults()) {
    if (history_refusal(f).empty()) faults.push_back(f);
  }
  return faults;
}

NemesisSchedule drawn_schedule(Fault fault) {
  NemesisStep step{.fault = fault, .trigger = Trigger::every, .at = {1, true}, .every = {3, true}, .jittered = true};
  return NemesisSchedule{{step}};
}

}  // namespace rlock::chaos
