// The fenced writes of the account store: the article's `fence < $token`, and the claim that
// closes its gap (account_store.h says what each one does).
#include "bank/account_store_impl.h"

namespace rlock::bank {
namespace {

constexpr const char* kFencedWrite = "fenced_write";
constexpr const char* kClaimRead = "claim_read";
constexpr const char* kClaimedWrite = "claimed_write";

}  // namespace

void prepare_fenced_writes(pqxx::connection& pq) {
  // The article's fence: the write applies only where the row's fence is older than the token.
  pq.prepare(kFencedWrite, "UPDATE accounts SET balance = $1, fence = $2 WHERE id = $3 AND fence < $2");
  // The claim: the read takes the fence first, and the write applies only while it is still ours.
  pq.prepare(kClaimRead, "UPDATE accounts SET fence = $2 WHERE id = $1 AND fence < $2 RETURNING balance");
  pq.prepare(kClaimedWrite, "UPDATE accounts SET balance = $1 WHERE id = $3 AND fence = $2");
}

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

}  // namespace rlock::bank
