#include "rlock/release_waiter.h"

#include <algorithm>
#include <array>
#include <thread>
#include <utility>

#include "rlock/error.h"
#include "rlock/token.h"

namespace rlock {
namespace {

// A Pub/Sub message is ["message", channel, payload]; SUBSCRIBE confirmations and the like are not.
bool announces_other_release(const Reply& reply, std::string_view own) {
  return reply.size() == 3 && reply.element(0).text() == "message" && reply.element(2).text() != own;
}

// A hand-over's message is "TOKEN FENCE": the token the lock now holds, the fence minted for it (0: none).
std::optional<long long> fence_handed_to(const Reply& reply, const Token& token) {
  if (reply.size() != 3 || reply.element(0).text() != "message") return std::nullopt;
  std::string text = reply.element(2).text();
  auto space = text.find(' ');
  if (space == std::string::npos || std::string_view(text).substr(0, space) != token.hex) return std::nullopt;
  return std::stoll(text.substr(space + 1));
}

constexpr std::array<std::pair<WaitMode, std::string_view>, 4> kWaitModes{{{WaitMode::poll, "poll"},
                                                                           {WaitMode::notify, "notify"},
                                                                           {WaitMode::queue, "queue"},
                                                                           {WaitMode::handoff, "handoff"}}};
constexpr int kTicketRetries = 5;  // a queue ticket's TTL, in retry intervals

}  // namespace

std::string_view wait_mode_name(WaitMode mode) {
  for (auto [m, name] : kWaitModes) {
    if (m == mode) return name;
  }
  return "unknown";
}

std::map<std::string, WaitMode> wait_modes_by_name() {
  std::map<std::string, WaitMode> modes;
  for (auto [mode, name] : kWaitModes) modes.emplace(name, mode);
  return modes;
}

ReleaseWaiter::ReleaseWaiter(WaitMode mode, const RedisAddress& address, const LockKey& key,
                             std::chrono::milliseconds retry)
    : mode_(mode), address_(address), channel_(key.released_channel), retry_(retry) {
  if (mode_ == WaitMode::queue || mode_ == WaitMode::handoff) {
    ticket_ = QueueTicket{make_token().hex, kTicketRetries * retry};
    channel_ = key.wake_channel_prefix + ticket_.id;
  }
  if (mode_ != WaitMode::poll) subscribe();
}

bool ReleaseWaiter::subscribe() noexcept {
  try {
    if (!subscription_) subscription_.emplace(address_);
    subscription_->checked({"SUBSCRIBE", channel_});
    return true;
  } catch (const std::exception&) {
    subscription_.reset();
    return false;
  }
}

bool ReleaseWaiter::ready() noexcept { return mode_ == WaitMode::poll || subscription_.has_value() || subscribe(); }

template <typename Woken>
void ReleaseWaiter::receive_until(std::chrono::steady_clock::time_point deadline, Woken&& woken) {
  if (mode_ == WaitMode::poll || (!subscription_ && !subscribe())) {
    std::this_thread::sleep_until(deadline);
    return;
  }
  try {
    for (;;) {
      auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) return;
      std::optional<Reply> reply = subscription_->receive(left);
      if (reply && woken(*reply)) return;
    }
  } catch (const std::exception&) {
    subscription_.reset();  // subscribed again before the next attempt; this wait sleeps out its interval
    std::this_thread::sleep_until(deadline);
  }
}

void ReleaseWaiter::wait(std::string_view own, std::chrono::steady_clock::time_point latest) {
  receive_until(std::min(std::chrono::steady_clock::now() + retry_, latest),
                [&](const Reply& reply) { return announces_other_release(reply, own); });
}

std::optional<long long> ReleaseWaiter::wait_for_handover(const Token& token,
                                                          std::chrono::steady_clock::time_point latest) {
  std::optional<long long> fence;
  receive_until(std::min(std::chrono::steady_clock::now() + retry_, latest), [&](const Reply& reply) {
    fence = fence_handed_to(reply, token);
    return fence.has_value();
  });
  return fence;
}

}  // namespace rlock
