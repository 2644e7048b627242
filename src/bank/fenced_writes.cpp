// The fenced writes of the account store: the article's `fence < $token`, and the claim that
// closes its gap (account_store.h says what each one does).
#include "bank/account_connection.h"

namespace rlock {

long long AccountStore::fenced_write(long account, long long balance, Fence fence) {
  auto rows = run<pqxx::nontransaction>("the fenced write", true, [&](pqxx::nontransaction& t) {
    return t.exec_prepared(kFencedWrite, balance, fence.value, account).affected_rows();
  });
  return static_cast<long long>(rows);
}

std::optional<long long> AccountStore::claim_read(long account, Fence fence) {
  return run<pqxx::nontransaction>("the claiming read", true, [&](pqxx::nontransaction& t) -> std::optional<long long> {
    pqxx::result rows = t.exec_prepared(kClaimRead, account, fence.value);
    if (rows.empty()) return std::nullopt;
    return rows[0][0].as<long long>();
  });
}

long long AccountStore::claimed_write(long account, long long balance, Fence fence) {
  auto rows = run<pqxx::nontransaction>("the claimed write", true, [&](pqxx::nontransaction& t) {
    return t.exec_prepared(kClaimedWrite, balance, fence.value, account).affected_rows();
  });
  return static_cast<long long>(rows);
}

}  // namespace rlock
