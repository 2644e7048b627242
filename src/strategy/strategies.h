// Each strategy's maker, one file each; make_incrementer (registry.cpp) picks among them.
// Their contracts are incrementer.h's.
#pragma once

#include <memory>

#include "strategy/incrementer.h"

namespace rlock::strategy {

std::unique_ptr<Incrementer> make_ttl(const Setting& setting, Parts parts);
std::unique_ptr<Incrementer> make_watchdog(const Setting& setting, Parts parts);
std::unique_ptr<Incrementer> make_check_before_write(const Setting& setting, Parts parts);
// fenced: a rejected write fails the increment; retry: it starts again; claim: it starts again,
// and the fence is claimed at the read.
enum class FencedWrite { once, retry, claim };
std::unique_ptr<Incrementer> make_fenced(const Setting& setting, Parts parts, FencedWrite mode);
std::unique_ptr<Incrementer> make_redlock(const Setting& setting, Parts parts);
std::unique_ptr<Incrementer> make_pg_atomic(const Setting& setting, Parts parts);
// pg-row-lock and pg-advisory: one transaction holding the row's lock or the account's advisory lock.
std::unique_ptr<Incrementer> make_pg_locked(const Setting& setting, Parts parts, bank::AccountStore::TxLock lock);

}  // namespace rlock::strategy
