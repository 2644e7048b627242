#!/usr/bin/env bash
# The faults of the lock libraries' bug trackers, against the servers of scripts/test.sh, for
# built-in strategies (4 trials a cell) and catalogue clients (2) alike: `pause-waiter` (a waiter
# stopped past its own lease or session while the first holder releases) and `conn-drop` (the
# server closes the holder's connections mid-hold: CLIENT KILL on Redis, a reset through the proxy
# for etcd); `session-expiry` (the holder's etcd connection held past its lease, then let through)
# and `starved-renewal` (the holder's Redis traffic held 1.5 to 3 TTLs, its renewals late). Each
# strikes, fenced-claim and etcd-mutex-fenced (expected safe) lose nothing, and the cells a fault
# cannot touch are n/a with their reason.
set -uo pipefail
rlock=$1
root=$(cd "$(dirname "$0")/.." && pwd)
source "$(dirname "$0")/checks.sh"
: "${ETCD_ENDPOINT:?ETCD_ENDPOINT is not set: run the tests through scripts/test.sh}"
cd "$root" || exit 1
faults=pause-waiter,conn-drop trials=2
chaos() { # chaos NAME ARGS...: rlock chaos ARGS, $trials trials a cell, seed 22; it must exit 0
    local name=$1 rc; shift
    "$rlock" --dir "$work" chaos --seed 22 --jobs 4 --faults $faults --trials $trials --json "$work/table.json" "$@" \
        >"$work/out.txt" 2>"$work/err.txt"
    rc=$?
    grep -v '^chaos: [0-9]*/' "$work/out.txt" "$work/err.txt"
    check "chaos of $name exits 0 (got $rc)" test $rc -eq 0
}
# A trial whose first to start is not the first holder may have nobody waiting once it holds: a
# pause-waiter that found no waiter strikes nothing, so one struck trial of the cell's is enough.
struck_all() { # struck_all ROW...: each row's cells under both faults ran and struck
    for row in "$@"; do
        for fault in ${faults//,/ }; do
            check "$row under $fault ran $trials trials" test "$(chaos_cell "$row" $fault trials)" -eq $trials
            check "$row under $fault struck" test "$(chaos_cell "$row" $fault struck)" -ge 1
        done
    done
}

# 4 trials a cell: on a loaded machine both of 2 found no waiter (ttl, seed 22).
trials=4
chaos "the built-in strategies" --ttl 500 --strategies ttl,watchdog,fenced-claim,pg-row-lock
struck_all ttl watchdog fenced-claim
trials=2
for fault in ${faults//,/ }; do
    check "fenced-claim under $fault shows no anomaly" test "$(chaos_cell fenced-claim $fault anomalies)" -eq 0
done
check "pg-row-lock under conn-drop is n/a: Redis unused" test "$(chaos_cell pg-row-lock conn-drop not_applicable)" = "Redis unused"
check "pg-row-lock under pause-waiter struck" test "$(chaos_cell pg-row-lock pause-waiter struck)" -ge 1

# etcd's leases are whole seconds: a TTL of 1000 ms.
clients=(python-redis-lock etcd-mutex etcd-mutex-fenced)
chaos "the catalogue clients" --ttl 1000 --strategies none "${clients[@]/#/--client=}"
struck_all "${clients[@]}"
for client in "${clients[@]}"; do
    for fault in ${faults//,/ }; do
        check "$client under $fault had no client error" test "$(chaos_cell "$client" $fault client_error)" -eq 0
    done
done
for fault in ${faults//,/ }; do
    check "etcd-mutex-fenced under $fault shows no anomaly" test "$(chaos_cell etcd-mutex-fenced $fault anomalies)" -eq 0
done

# session-expiry on etcd's clients, starved-renewal on the locks that renew on Redis.
faults=session-expiry,starved-renewal
chaos "the lease faults" --ttl 1000 --strategies ttl,watchdog,pg-row-lock --client=python-redis-lock \
    --client=etcd-mutex --client=etcd-mutex-fenced
check "watchdog under starved-renewal struck both" test "$(chaos_cell watchdog starved-renewal struck)" -eq 2
for client in python-redis-lock etcd-mutex etcd-mutex-fenced; do
    fault=$([[ $client == etcd-* ]] && echo session-expiry || echo starved-renewal)
    check "$client under $fault ran 2 trials" test "$(chaos_cell $client $fault trials)" -eq 2
    check "$client under $fault struck both" test "$(chaos_cell $client $fault struck)" -eq 2
    check "$client under $fault had no client error" test "$(chaos_cell $client $fault client_error)" -eq 0
done
check "etcd-mutex-fenced under session-expiry shows no anomaly" \
    test "$(chaos_cell etcd-mutex-fenced session-expiry anomalies)" -eq 0
check "ttl under starved-renewal is n/a: no renewal" test "$(chaos_cell ttl starved-renewal not_applicable)" = "no renewal"
check "watchdog under session-expiry is n/a: no session" \
    test "$(chaos_cell watchdog session-expiry not_applicable)" = "no session"
check "python-redis-lock under session-expiry is n/a: no session" \
    test "$(chaos_cell python-redis-lock session-expiry not_applicable)" = "no session"
check "etcd-mutex under starved-renewal is n/a: Redis unused" \
    test "$(chaos_cell etcd-mutex starved-renewal not_applicable)" = "Redis unused"
check "pg-row-lock under starved-renewal is n/a: Redis unused" \
    test "$(chaos_cell pg-row-lock starved-renewal not_applicable)" = "Redis unused"
finish
