#include "rlock/release_waiter.h"

#include <algorithm>
#include <thread>

#include "rlock/error.h"
#include "rlock/token.h"
#include "util/enum_names.h"

namespace rlock {
namespace {

// A Pub/Sub message is ["message", channel, payload]; SUBSCRIBE confirmations and the like are not.
bool announces_other_release(const Reply& reply, std::string_view own) {
  return reply.size() == 3 && reply.element(0).text() == "message" && reply.element(2).text() != own;
}

constexpr util::NameTable<WaitMode, 3> kWaitModes{
    {{WaitMode::poll, "poll"}, {WaitMode::notify, "notify"}, {WaitMode::queue, "queue"}}};
constexpr int kTicketRetries = 5;  // a queue ticket's TTL, in retry intervals

}  // namespace

std::string_view wait_mode_name(WaitMode mode) { return util::name_in(kWaitModes, mode); }

std::map<std::string, WaitMode> wait_modes_by_name() {
  std::map<std::string, WaitMode> modes;
  for (auto [mode, name] : kWaitModes) modes.emplace(name, mode);
  return modes;
}

ReleaseWaiter::ReleaseWaiter(WaitMode mode, const RedisAddress& address, const LockKey& key,
                             std::chrono::milliseconds retry)
    : mode_(mode), address_(address), channel_(key.released_channel), retry_(retry) {
  if (mode_ == WaitMode::queue) {
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

void ReleaseWaiter::wait(std::string_view own, std::chrono::steady_clock::time_point latest) {
  auto deadline = std::min(std::chrono::steady_clock::now() + retry_, latest);
  if (mode_ == WaitMode::poll || (!subscription_ && !subscribe())) {
    std::this_thread::sleep_until(deadline);
    return;
  }
  try {
    for (;;) {
      auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) return;
      std::optional<Reply> reply = subscription_->receive(left);
      if (reply && announces_other_release(*reply, own)) return;
    }
  } catch (const std::exception&) {
    subscription_.reset();  // subscribed again at the next wait; this one sleeps out its interval
    std::this_thread::sleep_until(deadline);
  }
}

}  // namespace rlock
