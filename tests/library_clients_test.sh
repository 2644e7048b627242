#!/usr/bin/env bash
# The lock libraries services run, judged by their catalogue names (clients/*/client.json, installed
# by scripts/clients.sh): redsync (one server and three), bsm/redislock, python-redis-lock, pottery
# and Redisson (its RLock and RFencedLock) on Redis; etcd's Go concurrency.Mutex and Curator's InterProcessMutex, plain and fenced, on
# the etcd and ZooKeeper of scripts/services.sh. Real libraries, real servers, a few trials a cell
# at a TTL of 1000 ms (etcd's leases and python-redis-lock's expiry are whole seconds). Under no
# fault none loses anything and none errs; under a pause redsync, which never renews, loses money,
# and the fenced ones lose nothing (etcd's and Curator's, expected safe by their manifests, would
# fail their campaign with exit 4). Faults of Redis are n/a for the etcd and ZooKeeper clients, with their
# reason; a ZooKeeper that does not answer stops the campaign as a server the harness lost (exit 5).
# `rlock clients` lists them all; a name not shipped, or not installed, is one line and exit 2.
set -uo pipefail
rlock=$1
root=$(cd "$(dirname "$0")/.." && pwd)
source "$(dirname "$0")/checks.sh"
: "${ETCD_ENDPOINT:?ETCD_ENDPOINT is not set: run the tests through scripts/test.sh}"
: "${ZOOKEEPER_CONNECT:?ZOOKEEPER_CONNECT is not set: run the tests through scripts/test.sh}"
cd "$root" || exit 1
trials=3
redis_clients=(redsync redsync3 bsm-redislock python-redis-lock pottery-redlock redisson-lock redisson-fenced)
coordination_clients=(etcd-mutex etcd-mutex-fenced curator-mutex curator-mutex-fenced)

# chaos NAME FAULTS CLIENT...: one campaign of CLIENTs alone; must exit 0. Its table: $work/table.json.
chaos() {
    local name=$1 faults=$2 rc args=(); shift 2
    for client in "$@"; do args+=(--client "$client"); done
    "$rlock" --dir "$work" chaos --seed 22 --strategies none --ttl 1000 --jobs 4 --faults "$faults" \
        --trials $trials "${args[@]}" --json "$work/table.json" >"$work/out.txt" 2>"$work/err.txt"
    rc=$?
    grep -v '^chaos: [0-9]*/' "$work/out.txt" "$work/err.txt"
    check "chaos of the $name clients exits 0 (got $rc)" test $rc -eq 0
}
ran_cleanly() { # ran_cleanly CLIENT FAULT
    check "$1 under $2 ran $trials trials" test "$(chaos_cell "$1" "$2" trials)" -eq $trials
    check "$1 under $2 had no client error" test "$(chaos_cell "$1" "$2" client_error)" -eq 0
}

"$rlock" clients >"$work/clients.txt"
for client in redis-py node-redlock node-redlock3 etcd-lock etcd-lock-fenced "${redis_clients[@]}" "${coordination_clients[@]}"; do
    check "rlock clients lists $client as installed" grep -Eq "^$client +[a-z@3]+ +(yes|no) +yes " "$work/clients.txt"
done

chaos Redis none,pause "${redis_clients[@]}"
for client in "${redis_clients[@]}"; do
    ran_cleanly "$client" none
    ran_cleanly "$client" pause
    check "$client under none shows no anomaly" test "$(chaos_cell "$client" none anomalies)" -eq 0
done
check "redsync under pause lost money" test "$(chaos_cell redsync pause lost_amount)" -gt 0
check "redisson-fenced under pause shows no anomaly" test "$(chaos_cell redisson-fenced pause anomalies)" -eq 0

chaos "etcd and ZooKeeper" none,pause,redis-restart "${coordination_clients[@]}"
for client in "${coordination_clients[@]}"; do
    ran_cleanly "$client" none
    ran_cleanly "$client" pause
    check "$client under none shows no anomaly" test "$(chaos_cell "$client" none anomalies)" -eq 0
    check "$client under redis-restart is n/a: Redis unused" test "$(chaos_cell "$client" redis-restart not_applicable)" = "Redis unused"
done
for client in etcd-mutex-fenced curator-mutex-fenced; do
    check "$client under pause shows no anomaly" test "$(chaos_cell $client pause anomalies)" -eq 0
done

ZOOKEEPER_CONNECT=127.0.0.1:1 "$rlock" --dir "$work" chaos --strategies none --faults none --trials 1 \
    --client curator-mutex >/dev/null 2>"$work/err.txt"
rc=$?
check "a ZooKeeper that does not answer stops the campaign with exit 5 (got $rc)" test $rc -eq 5
check "it says so in one line naming ZooKeeper" test "$(grep -c 'ZooKeeper at 127.0.0.1:1' "$work/err.txt")" -eq 1

chaos_refuses "no shipped client of that name (shipped: bsm-redislock, curator-mutex," --client notshipped
mkdir -p "$work/catalogue/fake"
printf '%s\n' '{"library": "none 0", "installed": "bin/fake", "clients": [' \
    '{"name": "fake", "command": "{dir}/bin/fake", "server": "redis", "safe": false, "models": "nothing"}]}' \
    >"$work/catalogue/fake/client.json"
RLOCK_CLIENTS_DIR=$work/catalogue chaos_refuses 'fake: not installed; install it with `scripts/clients.sh install fake`' --client fake
finish
