#include "explore/turns.h"

#include <algorithm>

#include <fmt/format.h>

#include "rlock/error.h"

namespace rlock::explore {

Turns::Turns(std::vector<std::string> names, int bound) : bound_(bound) {
  for (std::string& name : names) seats_.push_back(Seat{std::move(name), true, false, false, {}, {}, {}});
}

Turns::Seat& Turns::seat(std::string_view worker) {
  auto it = std::find_if(seats_.begin(), seats_.end(), [&](const Seat& s) { return s.name == worker; });
  if (it == seats_.end()) throw Error(fmt::format("no worker named {} in the order", worker));
  return *it;
}

void Turns::before(std::string_view worker, lab::Step step) {
  std::unique_lock lock(mutex_);
  Seat& s = seat(worker);
  s.running = false;
  s.allowed = false;
  s.waiting = step;
  changed_.notify_all();
  changed_.wait(lock, [&] { return s.allowed || stopped_; });
  if (stopped_) throw Error("the order was abandoned");
  s.waiting.reset();
}

void Turns::granted(std::string_view worker, const Token& token, std::function<bool()> extend) {
  std::lock_guard lock(mutex_);
  Seat& s = seat(worker);
  s.token = token;
  s.extend = std::move(extend);
}

void Turns::watchdog_stopped(std::string_view worker) {
  std::lock_guard lock(mutex_);
  seat(worker).extend = nullptr;
}

void Turns::reset() {
  std::lock_guard lock(mutex_);
  for (Seat& s : seats_) s = Seat{std::move(s.name), true, false, false, {}, {}, {}};
  stopped_ = false;
}

void Turns::finished(std::size_t worker) {
  std::lock_guard lock(mutex_);
  seats_[worker].running = false;
  seats_[worker].finished = true;
  seats_[worker].extend = nullptr;
  changed_.notify_all();
}

void Turns::settle(std::chrono::milliseconds limit) {
  std::unique_lock lock(mutex_);
  bool settled = changed_.wait_for(
      lock, limit, [&] { return std::none_of(seats_.begin(), seats_.end(), [](const Seat& s) { return s.running; }); });
  if (settled) return;
  for (const Seat& s : seats_) {
    if (s.running)
      throw Error(fmt::format("worker {} did not reach its next step within {} ms", s.name, limit.count()));
  }
}

Turns::View Turns::view(std::size_t worker) const {
  std::lock_guard lock(mutex_);
  const Seat& s = seats_[worker];
  return View{s.finished ? std::nullopt : s.waiting, s.token, static_cast<bool>(s.extend)};
}

void Turns::go(std::size_t worker) {
  {
    std::lock_guard lock(mutex_);
    Seat& s = seats_[worker];
    s.allowed = true;
    s.running = true;
    changed_.notify_all();
  }
  settle();
}

bool Turns::extend(std::size_t worker) {
  std::function<bool()> extend;
  {
    std::lock_guard lock(mutex_);
    extend = seats_[worker].extend;
  }
  bool extended = extend && extend();
  if (!extended) watchdog_stopped(seats_[worker].name);
  return extended;
}

void Turns::stop() {
  std::lock_guard lock(mutex_);
  stopped_ = true;
  changed_.notify_all();
}

}  // namespace rlock::explore
