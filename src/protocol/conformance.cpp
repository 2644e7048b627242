#include "protocol/conformance.h"

#include <climits>
#include <optional>
#include <variant>

#include <fmt/format.h>

#include "protocol/client_driver.h"
#include "protocol/served_account.h"

namespace rlock::protocol {
namespace {

using std::chrono::milliseconds;

constexpr std::string_view kFlushRule = "flushes its stdout after each line";
constexpr std::string_view kSilenceRule = "silence for 10 TTLs plus 5 s while the client owes an answer";
constexpr std::string_view kGarbageRule =
    "Everything else a client writes to stdout is a protocol error; write diagnostics to stderr.";
constexpr std::string_view kMessageRule = "bad JSON, a message of unknown type, a wrong id, an early exit";
constexpr std::string_view kWriteRule =
    "A write whose balance is not its read plus its amount is the client's protocol error";
constexpr std::string_view kLockRule = "takes its lock on `key`, waiting as its library waits";
constexpr std::string_view kDoneRule = "the client should have said `done` with an error.";

constexpr long long kInitialBalance = 100;
constexpr int kIncrements = 3;
constexpr std::string_view kKey = "lock:account:check";

// The rule a client error of the driver broke, from its text (client_driver.h, protocol_client.h).
std::string_view rule_of(const ClientError& e) {
  std::string_view what = e.what();
  if (what.find("said nothing") != std::string_view::npos) return kSilenceRule;
  if (what.find("not a protocol message") != std::string_view::npos) return kGarbageRule;
  return kMessageRule;
}

std::string line(std::string_view step, std::string_view what, std::string_view rule) {
  return fmt::format("{}: {}; docs/clients.md: \"{}\"", step, what, rule);
}

struct IncrementOutcome {
  std::optional<std::string> error;  // its done's
  bool written = false;              // a write of it was applied
  bool fenced = false;               // it sent a token
};

// One increment driven to its done, its reads and writes served from `account`.
IncrementOutcome drive(ClientDriver& driver, ServedAccount& account, const Increment& increment, milliseconds ttl) {
  IncrementOutcome outcome;
  driver.send_increment(increment);
  while (driver.under_way()) {
    wait_for_any({&driver}, milliseconds(50));
    while (std::optional<ClientMessage> message = driver.receive()) {
      if (const Read* read = std::get_if<Read>(&*message)) {
        outcome.fenced = outcome.fenced || read->token.has_value();
        driver.send(driver.serve_read(account, *read, increment.amount));
      } else if (const Write* write = std::get_if<Write>(&*message)) {
        outcome.fenced = outcome.fenced || write->token.has_value();
        WriteOk ok = driver.serve_write(account, *write);
        outcome.written = outcome.written || ok.applied;
        driver.send(ok);
      } else if (const Step* step = std::get_if<Step>(&*message)) {
        driver.answer(*step);
      } else if (const Done* done = std::get_if<Done>(&*message)) {
        outcome.error = done->error;
        account.done(increment.id, done->error.has_value());
      }
    }
    if (driver.under_way()) driver.check_silence(silence_limit(ttl));
  }
  return outcome;
}

// The increments with nothing else holding the lock: each must write once and end without an error.
bool check_increments(ClientDriver& driver, milliseconds ttl, Conformance& result) {
  ServedAccount account(kInitialBalance);
  bool fenced = false;
  for (long long id = 1; id <= kIncrements; ++id) {
    IncrementOutcome outcome = drive(driver, account, Increment{id, std::string(kKey), 10 * id}, ttl);
    fenced = fenced || outcome.fenced;
    std::string step = fmt::format("increment {}", id);
    if (outcome.error) {
      result.broken.push_back(
          line(step, fmt::format("gave up with nothing else holding its lock: {:.200}", *outcome.error), kLockRule));
    } else if (!outcome.written) {
      result.broken.push_back(line(step, "said done with no error and no write applied", kDoneRule));
    }
  }
  if (result.broken.empty()) {
    result.passed.push_back(fmt::format("{} increments: each read, written once and done", kIncrements));
  }
  return fenced;
}

// A newer holder's claim already made: the client's claim or fenced write is refused, and its done
// must say so.
void check_refused_claim(ClientDriver& driver, milliseconds ttl, Conformance& result) {
  ServedAccount account(kInitialBalance);
  constexpr long long kNewer = 0;
  account.read(kNewer, 0, LLONG_MAX, true);
  IncrementOutcome outcome = drive(driver, account, Increment{kIncrements + 1, std::string(kKey), 5}, ttl);
  if (!outcome.error) {
    result.broken.push_back(line(fmt::format("increment {}", kIncrements + 1),
                                 "a newer holder's claim refused its token, and it said done with no error",
                                 kDoneRule));
  } else {
    result.passed.push_back("a refused claim: done with an error");
  }
}

}  // namespace

std::vector<std::string_view> conformance_rules() {
  return {kFlushRule, kSilenceRule, kGarbageRule, kMessageRule, kWriteRule, kLockRule, kDoneRule};
}

Conformance check_conformance(const ConformanceSetup& setup) {
  Conformance result;
  ClientDriver driver("A", setup.command, setup.stderr_file);
  try {
    driver.send_init(Init{kVersion, "A", setup.redis, setup.ttl.count(), std::nullopt, std::nullopt});
    driver.await_init_ok(setup.start_limit);
    result.passed.push_back("init: init_ok");
  } catch (const ClientError& e) {
    if (rule_of(e) == kSilenceRule && driver.answers_once_stdin_ends(milliseconds(2000))) {
      result.broken.push_back(
          line("init",
               fmt::format("no answer within {} ms, then one once its stdin closed: it does not flush its stdout",
                           setup.start_limit.count()),
               kFlushRule));
    } else {
      result.broken.push_back(line("init", e.what(), rule_of(e)));
    }
    return result;
  }
  try {
    bool fenced = check_increments(driver, setup.ttl, result);
    if (!result.broken.empty()) return result;
    if (fenced) {
      check_refused_claim(driver, setup.ttl, result);
    } else {
      result.passed.push_back("a refused claim: not checked, the client sent no token (it does not fence)");
    }
  } catch (const ClientError& e) {
    std::string_view what = e.what();
    bool write = what.find("plus its amount") != std::string_view::npos ||
                 what.find("without reading") != std::string_view::npos;
    result.broken.push_back(line("increments", what, write ? kWriteRule : rule_of(e)));
  }
  return result;
}

}  // namespace rlock::protocol
