#!/usr/bin/env bash
# rlock chaos's clock-skew: a worker under faketime runs its clock fast or slow (its pause, by its
# own clock, lasts half or twice as long by the host's), yet stamps its events with the host's time
# (the read-to-write interval in events.jsonl is the true one); and the fault runs, is judged and
# strikes, the TTL lock or Redlock losing money when the target's clock is slow, fenced-claim never,
# and the watchdog's ticks still come (its monotonic clock is not faked: libfaketime would hang it).
set -uo pipefail
rlock=$1
source "$(dirname "$0")/checks.sh"
export RLOCK_DIR=$work/lab
interval() { # the read-to-write seconds of worker A in the lab's events
    perl -MJSON::PP -ne '$e = decode_json($_); next unless $e->{who} eq "A";
        $r = $e->{t} if $e->{event} eq "read"; $w = $e->{t} if $e->{event} eq "wrote";
        END { printf "%.3f", $w - $r }' "$RLOCK_DIR/events.jsonl"
}
for rate in 0.5 2; do
    "$rlock" reset --account 9700 --start-in 0 >/dev/null
    # an rlock built with AddressSanitizer starts under faketime only with this (src/runner/worker_spawn.cpp)
    ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 \
        faketime -f "+0 x$rate" "$rlock" worker A 1 --account 9700 --ttl 30000 --pause 0.4 >/dev/null 2>"$work/err.txt"
    check "the worker at x$rate exits 0" test $? -eq 0
    took=$(interval)
    echo "x$rate: a pause of 0.4 s by the worker's clock took $took s by the host's"
    # the host's interval is 0.4 / rate: 0.8 s or 0.2 s
    check "x$rate changed the worker's clock and its events kept the host's" \
        perl -e "exit !(abs($took * $rate / 0.4 - 1) < 0.25)"
done

"$rlock" --dir "$work" chaos --seed 2 --jobs 2 --trials 8 --strategies ttl,fenced,redlock,fenced-claim --faults clock-skew \
    --failover-port "${CHAOS_FAILOVER_PORT:-6440}" --redlock-port "${CHAOS_REDLOCK_PORT:-6700}" \
    --json "$work/table.json" >"$work/out.txt" 2>"$work/err.txt"
rc=$?
cat "$work/out.txt" "$work/err.txt"
check "chaos clock-skew exits 0 (got $rc)" test $rc -eq 0
# a skewed worker is an exec'd `rlock worker`: its error lines go to its trial, not to the campaign's
check "no skewed worker wrote to the campaign's stderr" test -z "$(grep 'rlock: error: worker' "$work/err.txt")"
for s in ttl redlock fenced-claim; do
    check "$s ran its 8 trials under clock-skew" test "$(chaos_cell $s clock-skew trials)" -eq 8
    check "clock-skew struck $s's trials" test "$(chaos_cell $s clock-skew struck)" -gt 0
done
# a slow clock (in about half the trials) stretches the target's work past the TTL
check "ttl or redlock lost money under clock-skew" \
    test $(($(chaos_cell ttl clock-skew lost_amount) + $(chaos_cell redlock clock-skew lost_amount))) -gt 0
check "fenced-claim under clock-skew shows none" test "$(chaos_cell fenced-claim clock-skew anomalies)" -eq 0

# The watchdog's ticks under faketime, over 30 trials: with its monotonic clock faked, it never
# extended and lost money in about one trial of six (3 of 20 once), so that would show here.
"$rlock" --dir "$work" chaos --seed 3 --jobs 2 --trials 30 --strategies watchdog --faults clock-skew \
    --failover-port "${CHAOS_FAILOVER_PORT:-6440}" --redlock-port "${CHAOS_REDLOCK_PORT:-6700}" \
    --json "$work/table.json" >"$work/out.txt" 2>"$work/err.txt"
rc=$?
cat "$work/out.txt" "$work/err.txt"
check "chaos clock-skew of the watchdog exits 0 (got $rc)" test $rc -eq 0
check "the watchdog ran its 30 trials under clock-skew, struck" test "$(chaos_cell watchdog clock-skew struck)" -eq 30
check "the watchdog, extending every TTL/3, shows none under clock-skew" test "$(chaos_cell watchdog clock-skew anomalies)" -eq 0
finish
