// The balance an account starts with (AccountStore::reset), for those who judge a run by it without
// a connection to PostgreSQL (the timeline): a constant in a header of its own, nothing to link.
#pragma once

namespace rlock::bank {

inline constexpr long long kInitialBalance = 100;

}  // namespace rlock::bank
