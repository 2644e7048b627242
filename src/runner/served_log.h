// How a protocol client's trial (client_trial.h) and a history (history_trial.h) record what the
// harness served: each read, claim refused, write (plain or fenced), held and delivered write, and
// error in the run log, with the fields the checkers and the timeline read. One place, so both
// kinds of trial write the same events.
//
// Free functions over a RunLog; as thread-safe as RunLog::record.
#pragma once

#include <string_view>

#include "checker/judge.h"
#include "lab/run_log.h"
#include "protocol/messages.h"
#include "protocol/served_account.h"

namespace rlock::runner {

// A read the harness answered with `reply` (a claim refused, or the balance and any fence).
void log_read(const lab::RunLog& log, std::string_view worker, const protocol::Read& message,
              const protocol::ReadOk& reply);

// A write of `amount` the harness served (applied or, when fenced, refused), sent at `sent_at`.
void log_write(const lab::RunLog& log, std::string_view worker, long long amount, const protocol::Write& message,
               bool applied, double sent_at);

// The network holds the worker's write (delayed-write), or delivers it now.
void log_write_held(const lab::RunLog& log, std::string_view worker);
void log_write_delivered(const lab::RunLog& log, std::string_view worker);

// The client reported its increment of `amount` done with an error; `added`: a write of it was applied.
void log_error(const lab::RunLog& log, std::string_view worker, std::string_view message, long long amount, bool added);

// What the judge reads of a served account.
checker::ServedTally served_tally(const protocol::ServedAccount& account);

}  // namespace rlock::runner
