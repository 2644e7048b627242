#!/usr/bin/env bash
# rlock chaos's network and server faults against the servers of scripts/test.sh: under partition
# and delayed-write the plain TTL lock loses money (the watchdog too under partition: cut off, it
# cannot extend) and fenced-claim and pg-row-lock never do; redis-stall and net-delay run and are
# judged; and against a Redis rlock did not start (a bare redis-server of this test's own, started
# without a config file, and one started from a config file without rlock's marker, as a
# distribution's service is), the client-side faults run through the proxies while the faults that
# strike a server are refused in one line, exit 2, with no process left behind.
set -uo pipefail
rlock=$1
source "$(dirname "$0")/checks.sh"
cell() { # cell STRATEGY FAULT FIELD: one number from the JSON table
    S=$1 F=$2 K=$3 perl -MJSON::PP -0777 -ne 'for my $c (@{decode_json($_)->{cells}}) {
        print $c->{$ENV{K}} if $c->{strategy} eq $ENV{S} && $c->{fault} eq $ENV{F} }' "$work/table.json"
}
chaos() { # chaos NAME ARGS...: rlock chaos ARGS with seed 1 and 4 jobs; it must exit 0
    local name=$1 rc; shift
    "$rlock" --dir "$work" chaos --seed 1 --jobs 4 --failover-port 6440 --json "$work/table.json" "$@" \
        >"$work/out.txt" 2>"$work/err.txt"
    rc=$?
    cat "$work/out.txt"
    check "chaos $name exits 0 (got $rc)" test $rc -eq 0
}

# Each ttl trial under partition and delayed-write loses (the holder works 1.5 to 3 TTLs, or its
# write arrives 1 to 2.5 TTLs late): 4 trials make a loss near-certain.
chaos partition --strategies ttl,watchdog,fenced-claim,pg-row-lock --faults partition,delayed-write --trials 4
for s in ttl watchdog; do check "$s under partition lost money" test "$(cell $s partition lost_amount)" -gt 0; done
check "ttl under delayed-write lost money" test "$(cell ttl delayed-write lost_amount)" -gt 0
for s in fenced-claim pg-row-lock; do
    for f in partition delayed-write; do check "$s under $f shows none" test "$(cell $s $f anomalies)" -eq 0; done
done
kept=$(ls -d "$work"/chaos/trials/watchdog-partition-* 2>/dev/null | head -n 1)
check "the partition is in a kept trial's log" bash -c "'$rlock' --dir '$kept' showlog | grep -q 'Redis cut off'"

chaos "stall and delay" --strategies ttl,fenced-claim --faults redis-stall,net-delay --trials 2
for f in redis-stall net-delay; do
    check "ttl under $f ran its trials" test "$(cell ttl $f trials)" -eq 2
    check "fenced-claim under $f shows none" test "$(cell fenced-claim $f anomalies)" -eq 0
done
check "no stalled server is left running" bash -c "! pgrep -f 'redis-server 127.0.0.1:644[0-9]'"

# A Redis rlock did not start (no config file): the client-side faults run, the others are refused.
bare=6447
redis-server --port $bare --save '' --appendonly no --daemonize yes --logfile "$work/bare.log" --dir "$work" >/dev/null
for _ in $(seq 50); do redis-cli -p $bare ping >/dev/null 2>&1 && break; sleep 0.1; done
chaos "on a bare Redis" --redis "redis://127.0.0.1:$bare/0" --strategies ttl --faults partition --trials 2
check "partition ran on the bare Redis" test "$(cell ttl partition trials)" -eq 2
for f in redis-stall failover redis-restart; do
    "$rlock" --dir "$work" --redis "redis://127.0.0.1:$bare/0" chaos --faults "$f" --trials 1 >/dev/null 2>"$work/err.txt"
    rc=$?
    check "$f on the bare Redis exits 2 (got $rc)" test $rc -eq 2
    check "$f's refusal is one line naming the way out" bash -c "test \$(wc -l <'$work/err.txt') -eq 1 && grep -q 'services.sh up' '$work/err.txt'"
done
redis-cli -p $bare shutdown nosave >/dev/null 2>&1
# A Redis of the system's: started from a config file of its own, which rlock did not write.
system=6448
mkdir "$work/system"
printf '%s\n' "bind 127.0.0.1" "port $system" "save \"\"" "appendonly no" "daemonize yes" "dir $work/system" \
    "logfile $work/system/redis.log" >"$work/system/redis.conf"
redis-server "$work/system/redis.conf" >/dev/null
for _ in $(seq 50); do redis-cli -p $system ping >/dev/null 2>&1 && break; sleep 0.1; done
for f in redis-restart redis-stall failover; do
    "$rlock" --dir "$work" --redis "redis://127.0.0.1:$system/0" chaos --faults "$f" --trials 1 >/dev/null 2>"$work/err.txt"
    rc=$?
    check "$f on a Redis of the system's exits 2 (got $rc)" test $rc -eq 2
    check "$f's refusal is one line saying rlock did not start it" \
        bash -c "test \$(wc -l <'$work/err.txt') -eq 1 && grep -q 'not started by rlock' '$work/err.txt'"
done
check "the Redis of the system's still runs" bash -c "redis-cli -p $system ping | grep -q PONG"
redis-cli -p $system shutdown nosave >/dev/null 2>&1
"$rlock" --dir "$work" chaos --faults partition,bogus >/dev/null 2>"$work/err.txt"
rc=$?
check "an unknown fault exits 2 in one line" bash -c "test $rc -eq 2 && test \$(wc -l <'$work/err.txt') -eq 1 && grep -q \"unknown fault 'bogus'\" '$work/err.txt'"
check "no rlock process is left behind" bash -c "! pgrep -f '^$rlock .*chaos' >/dev/null"

finish
