#!/usr/bin/env bash
# rlock chaos --client with etcd's lock through python-etcd3 (clients/etcd-lock; scripts/test.sh
# installs etcd and python3-etcd3, scripts/services.sh runs etcd): under no fault neither loses
# anything; under a pause the plain lock loses money, and the one fenced by the lock key's revision,
# declared safe, loses nothing. Leases are whole seconds, hence a TTL of 1000 ms.
set -uo pipefail
rlock=$1
root=$(cd "$(dirname "$0")/.." && pwd)
source "$(dirname "$0")/checks.sh"
: "${ETCD_ENDPOINT:?ETCD_ENDPOINT is not set: run the tests through scripts/test.sh}"
cd "$root" || exit 1
etcd_lock="etcd-lock=/usr/bin/python3 clients/etcd-lock/client.py --endpoint $ETCD_ENDPOINT"
etcd_fenced="etcd-lock-fenced=/usr/bin/python3 clients/etcd-lock/client.py --endpoint $ETCD_ENDPOINT --fenced"
chaos() { # chaos FAULT TRIALS: both clients, etcd-lock-fenced declared safe; must exit 0
    local rc
    "$rlock" --dir "$work" chaos --seed 1 --strategies none --ttl 1000 --jobs 4 --faults "$1" --trials "$2" \
        --client "$etcd_lock" --client "$etcd_fenced" --client-safe etcd-lock-fenced --json "$work/table.json" \
        >"$work/out.txt" 2>"$work/err.txt"
    rc=$?
    cat "$work/out.txt" "$work/err.txt"
    check "chaos under $1 exits 0 (got $rc)" test $rc -eq 0
}

chaos none 20
for client in etcd-lock etcd-lock-fenced; do
    check "$client under none ran 20 trials" test "$(chaos_cell $client none trials)" -eq 20
    check "$client under none shows no anomaly" test "$(chaos_cell $client none anomalies)" -eq 0
    check "$client under none had no client error" test "$(chaos_cell $client none client_error)" -eq 0
    # a waiter that missed a release (its watch started after it) waited out its 10 TTLs: stuck
    check "$client under none left no increment stuck" test "$(chaos_cell $client none stuck)" -eq 0
done

# A pause of the holder outlasts its lease: the next holder's increment is lost under the plain
# lock in most trials; the fenced one's stale write is refused.
chaos pause 10
check "etcd-lock under pause lost money" test "$(chaos_cell etcd-lock pause lost_amount)" -gt 0
check "etcd-lock-fenced under pause shows no anomaly" test "$(chaos_cell etcd-lock-fenced pause anomalies)" -eq 0
check "etcd-lock-fenced under pause had no client error" test "$(chaos_cell etcd-lock-fenced pause client_error)" -eq 0
finish
