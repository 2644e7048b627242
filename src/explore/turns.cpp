#include "explore/turns.h"

#include <algorithm>

#include <fmt/format.h>

#include "rlock/error.h"

namespace rlock::explore {

void Turns::Leave::give() {
  {
    std::lock_guard lock(mutex_);
    left_ = true;
  }
  given_.notify_one();
}

void Turns::Leave::take() {
  std::unique_lock lock(mutex_);
  given_.wait(lock, [&] { return left_; });
  left_ = false;
}

bool Turns::Leave::take_for(std::chrono::milliseconds limit) {
  std::unique_lock lock(mutex_);
  if (!given_.wait_for(lock, limit, [&] { return left_; })) return false;
  left_ = false;
  return true;
}

Turns::Turns(std::vector<std::string> names, int bound, std::function<void(std::size_t)> increment)
    : bound_(bound), increment_(std::move(increment)) {
  for (std::string& name : names) {
    seats_.push_back(std::make_unique<Seat>());
    seats_.back()->name = std::move(name);
  }
  for (std::size_t i = 0; i < seats_.size(); ++i) {
    threads_.emplace_back([this, i] {
      for (;;) {
        seats_[i]->turn.take();
        if (closing_) return;
        increment_(i);
        finished(i);
        if (closing_) return;
      }
    });
  }
}

Turns::~Turns() {
  closing_ = true;
  stopped_ = true;
  for (auto& s : seats_) s->turn.give();
  for (std::thread& t : threads_) t.join();
}

Turns::Seat& Turns::seat(std::string_view worker) {
  auto it = std::find_if(seats_.begin(), seats_.end(), [&](const auto& s) { return s->name == worker; });
  if (it == seats_.end()) throw Error(fmt::format("no worker named {} in the order", worker));
  return **it;
}

void Turns::before(std::string_view worker, lab::Step step) {
  if (stopped_) throw Error("the order was abandoned");
  Seat& s = seat(worker);
  s.waiting = step;
  pass();
  s.turn.take();
  if (stopped_) throw Error("the order was abandoned");
  s.waiting.reset();
}

void Turns::granted(std::string_view worker, const Token& token, std::function<bool()> extend) {
  Seat& s = seat(worker);
  s.token = token;
  s.extend = std::move(extend);
}

void Turns::watchdog_stopped(std::string_view worker) { seat(worker).extend = nullptr; }

void Turns::pass() {
  if (started_ < seats_.size()) {
    running_ = started_;
    seats_[started_++]->turn.give();
    return;
  }
  std::optional<std::size_t> worker;
  try {
    worker = (*next_)();
  } catch (...) {
    return abandon(std::current_exception());
  }
  ++moves_;
  if (!worker) return done_.give();
  running_ = *worker;
  seats_[*worker]->turn.give();
}

void Turns::abandon(std::exception_ptr error) {
  std::vector<Seat*> waiting;
  {
    std::lock_guard lock(mutex_);
    error_ = error;
    stopped_ = true;
    for (auto& s : seats_) {
      if (!s->finished) waiting.push_back(s.get());
    }
    if (waiting.empty()) done_.give();
  }
  for (Seat* s : waiting) s->turn.give();
}

void Turns::finished(std::size_t worker) {
  {
    std::lock_guard lock(mutex_);
    Seat& s = *seats_[worker];
    s.finished = true;
    s.waiting.reset();
    s.extend = nullptr;
    if (stopped_) {
      if (++ended_ == seats_.size()) done_.give();
      return;
    }
    ++ended_;
  }
  pass();
}

void Turns::run_order(const Next& next, std::chrono::milliseconds limit) {
  for (auto& s : seats_) {
    s->finished = false;
    s->waiting.reset();
    s->token.reset();
    s->extend = nullptr;
  }
  next_ = &next;
  started_ = 0;
  ended_ = 0;
  stopped_ = false;
  error_ = nullptr;
  pass();
  for (long long seen = -1; !done_.take_for(limit); seen = moves_) {
    if (moves_ == seen) {
      throw Error(
          fmt::format("worker {} did not reach its next step within {} ms", seats_[running_]->name, limit.count()));
    }
  }
  if (error_) std::rethrow_exception(error_);
}

Turns::View Turns::view(std::size_t worker) const {
  const Seat& s = *seats_[worker];
  return View{s.finished ? std::nullopt : s.waiting, s.token, static_cast<bool>(s.extend)};
}

bool Turns::extend(std::size_t worker) {
  Seat& s = *seats_[worker];
  bool extended = s.extend && s.extend();
  if (!extended) s.extend = nullptr;
  return extended;
}

}  // namespace rlock::explore
