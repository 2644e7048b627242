#include "protocol/served_account.h"

#include <algorithm>

#include <fmt/format.h>

namespace rlock::protocol {

ServedAccount::ReadResult ServedAccount::read(long long id, long long amount, std::optional<long long> token,
                                              bool claim) {
  Increment& increment = increments_[id];
  increment.amount = amount;
  increment.read = balance_;
  increment.read_after = applied_.size();
  increment.claimed.reset();
  ReadResult result{balance_, std::nullopt};
  if (token && claim) {
    result.claimed = fence_ < *token;
    if (*result.claimed) {
      fence_ = *token;
      increment.claimed = *token;
    }
  }
  return result;
}

ServedAccount::WriteResult ServedAccount::write(long long id, long long balance, std::optional<long long> token) {
  WriteResult result{false, balance_, std::nullopt};
  auto it = increments_.find(id);
  if (it == increments_.end() || !it->second.read) {
    result.protocol_error = fmt::format("increment {} wrote without reading first", id);
    return result;
  }
  Increment& increment = it->second;
  if (balance != *increment.read + increment.amount) {
    result.protocol_error = fmt::format("increment {} wrote {}, not its read {} plus its amount {}", id, balance,
                                        *increment.read, increment.amount);
    return result;
  }
  if (token && increment.claimed == token) {
    result.applied = fence_ == *token;
  } else if (token) {
    result.applied = fence_ < *token;
    if (result.applied) fence_ = *token;
  } else {
    result.applied = true;
  }
  if (!result.applied) return result;
  if (*increment.read != balance_) {
    ++stale_writes_;
    lost_money_ += balance_ - *increment.read;
    for (std::size_t i = increment.read_after; i < applied_.size(); ++i) increments_[applied_[i]].lost = true;
  }
  applied_.push_back(id);
  balance_ = balance;
  ++increment.applied_writes;
  increment.read.reset();  // a second write needs a read of its own
  return result;
}

void ServedAccount::done(long long id, bool error) { increments_[id].done_without_error = !error; }

long long ServedAccount::expected_balance() const {
  long long expected = initial_;
  for (const auto& [id, increment] : increments_) {
    if (increment.applied_writes > 0) expected += increment.amount;
  }
  return expected;
}

int ServedAccount::repeated_writes() const {
  int repeated = 0;
  for (const auto& [id, increment] : increments_) repeated += std::max(increment.applied_writes - 1, 0);
  return repeated;
}

int ServedAccount::lost_increments() const {
  return static_cast<int>(
      std::count_if(increments_.begin(), increments_.end(), [](const auto& entry) { return entry.second.lost; }));
}

int ServedAccount::unwritten() const {
  return static_cast<int>(std::count_if(increments_.begin(), increments_.end(), [](const auto& entry) {
    return entry.second.done_without_error && entry.second.applied_writes == 0;
  }));
}

}  // namespace rlock::protocol
