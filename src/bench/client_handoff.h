// A protocol client's own hand-off in rlock bench (`rlock bench --handoff-client NAME`): Redisson's RLock, say,
// which publishes on release and lets its waiters try again, measured as the built-in wait modes' hand-off cases
// are (bench.h, handoff_sections.h) and printed beside them.
//
// setup.clients processes of the client (client_rows.h's start_client_processes: their start-up comes before the clock)
// each loop over increments of one account. The bench holds the answer to each read back for a work time of 0 to
// kMaxWork, as the built-in clients work, answers the write at once, and sends a client that wrote its next increment
// once another client's section began: it then asks as a refused client would, as the built-in clients wait after a
// release, never ahead of the waiters that it would otherwise race, already running, as they wake. The bench sees the
// section begin when the client's read arrives (it reads once it holds the lock) and its release begin when the write's
// answer leaves (the client releases next). A sample, from that answer to the next client's read, therefore also
// carries two pipe messages and the wake-ups of the processes that read them, which the built-in cases, stamped inside
// their clients, do not. Functions of the calling thread; the clients are processes of their own, ended with the case.
#pragma once

#include "bench/bench.h"
#include "protocol/client_spec.h"

namespace rlock::bench {

// The case handoff-NAME, for setup.seconds and until it has kMinHandoffs hand-offs (kOvertime past setup.seconds at
// the most); floor 2 Redis RTT, and the median's ratios to both `sleepers` floors, as measure_handoff gives. extra also
// has `failed`, the increments the clients gave up (done with an error). The clients' stderr goes to
// handoff-NAME-I.stderr in setup.dir. Throws ClientError (one line naming the client) when a client fails to start
// or breaks the protocol.
BenchCase measure_client_handoff(const BenchSetup& setup, const protocol::ClientSpec& client, double redis_rtt_us,
                                 const SleeperFloors& sleepers);

}  // namespace rlock::bench
