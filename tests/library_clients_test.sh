#!/usr/bin/env bash
# The lock libraries services run, judged by their catalogue names (clients/*/client.json, installed
# by scripts/clients.sh): redsync (one server and three, asking ValidContext() or extending before
# the write), bsm/redislock, python-redis-lock, pottery
# Redisson (its RLock and RFencedLock) and Spring Integration's RedisLockRegistry on Redis; etcd's Go concurrency.Mutex and
# Curator's InterProcessMutex, plain and fenced, kazoo's Lock, plain and fenced, go-zookeeper's Lock, and Hazelcast's FencedLock,
# plain and fenced, on the etcd, ZooKeeper and Hazelcast of scripts/services.sh; ShedLock's JDBC provider (with and without
# usingDbTime) on its PostgreSQL, and its Redis provider; rslock (Rust) on one Redis and on three.
# Under clock-offset ShedLock's JDBC provider loses money or waits, and not with usingDbTime().
# Real libraries, real servers, 2 trials a cell (1
# for the JVMs) at a TTL of 1000 ms (etcd's leases and python-redis-lock's expiry are whole seconds). Under no
# fault none loses anything and none errs; under a pause redsync, which never renews, loses money,
# and the fenced ones lose nothing (etcd's, Curator's, kazoo's and Hazelcast's, expected safe by their manifests,
# would fail their campaign with exit 4). Faults of Redis are n/a for the etcd, ZooKeeper and Hazelcast clients,
# with their reason; a ZooKeeper that does not answer stops the campaign as a server the harness lost (exit 5).
# `rlock clients` lists them all; a name not shipped, or not installed, is one line and exit 2.
# etcd-mutex@3.4.3 (the client etcd#11456 was reported against, on v3.4's import path, which
# scripts/test.sh installs beside the default) runs as a row of its own, alike; so does
# redis-semaphore@5.3.0 (npm), before its refresh stopped re-creating an expired key, and
# node-redlock@1.4.0 (@sesamecare-oss/redlock, redlock 5's maintained fork).
set -uo pipefail
rlock=$1
root=$(cd "$(dirname "$0")/.." && pwd)
source "$(dirname "$0")/checks.sh"
: "${ETCD_ENDPOINT:?ETCD_ENDPOINT is not set: run the tests through scripts/test.sh}"
: "${ZOOKEEPER_CONNECT:?ZOOKEEPER_CONNECT is not set: run the tests through scripts/test.sh}"
: "${HAZELCAST_MEMBERS:?HAZELCAST_MEMBERS is not set: run the tests through scripts/test.sh}"
: "${PG_ENDPOINT:?PG_ENDPOINT is not set: run the tests through scripts/test.sh}"
cd "$root" || exit 1
for member in ${HAZELCAST_MEMBERS//,/ }; do
    check "the Hazelcast member on $member listens on 127.0.0.1 alone" \
        test "$(ss -Hltn "sport = :${member##*:}" | awk '{print $4}' | sort -u)" = "127.0.0.1:${member##*:}"
done
go_python=(redsync redsync3 redsync-valid redsync3-extend bsm-redislock python-redis-lock pottery-redlock etcd-mutex
    etcd-mutex-fenced etcd-mutex@3.4.3 kazoo-lock kazoo-lock-fenced go-zookeeper rslock rslock3)
node=(redis-semaphore redis-semaphore@5.3.0 node-redlock@1.4.0)
# Each JVM takes 1 to 4 s of the 2 cores to start: two jobs at a time, not four, lest 16 of them
# starting at once outlast the protocol's silence limit (10 TTLs plus 5 s), and 1 trial a cell (ten
# adapters, a JVM a worker).
java=(redisson-lock redisson-fenced curator-mutex curator-mutex-fenced hazelcast-lock hazelcast-lock-fenced spring-redis-lock
    shedlock-jdbc shedlock-jdbc-db-time shedlock-redis)

# chaos NAME JOBS TRIALS FAULTS CLIENT...: one campaign of CLIENTs alone, TRIALS a cell; must exit 0.
# Its table: $work/table.json.
chaos() {
    local name=$1 jobs=$2 faults=$4 rc args=(); trials=$3; shift 4
    for client in "$@"; do args+=(--client "$client"); done
    "$rlock" --dir "$work" chaos --seed 22 --account 400000 --strategies none --ttl 1000 --jobs "$jobs" --faults "$faults" \
        --trials $trials "${args[@]}" --json "$work/table.json" >"$work/out.txt" 2>"$work/err.txt"
    rc=$?
    grep -v '^chaos: [0-9]*/' "$work/out.txt" "$work/err.txt"
    check "chaos of the $name clients exits 0 (got $rc)" test $rc -eq 0
}
# judged CLIENT...: each ran the last campaign's trials under none and pause without a client error, and lost
# nothing under none.
judged() {
    for client in "$@"; do
        for fault in none pause; do
            check "$client under $fault ran $trials trials" test "$(chaos_cell "$client" $fault trials)" -eq $trials
            check "$client under $fault had no client error" test "$(chaos_cell "$client" $fault client_error)" -eq 0
        done
        check "$client under none shows no anomaly" test "$(chaos_cell "$client" none anomalies)" -eq 0
    done
}

"$rlock" clients >"$work/clients.txt"
for client in redis-py node-redlock node-redlock3 node-redlock-acquire etcd-lock etcd-lock-fenced "${go_python[@]%@*}" "${node[@]%@*}" \
    "${java[@]}"; do
    check "rlock clients lists $client as installed" grep -Eq "^$client +[a-z@3]+ +(yes|no) +yes " "$work/clients.txt"
done
check "rlock clients lists etcd-mutex's versions, 3.4.3 installed" \
    grep -Eq '^  versions: 3\.4\.3, 3\.5\.21 \(default\)' "$work/clients.txt"
check "rlock clients lists redis-semaphore's versions" grep -Eq '^  versions: 5\.3\.0, 5\.8\.0 \(default\)' "$work/clients.txt"

chaos "Go, Python, Node and Rust" 4 2 none,pause "${go_python[@]}" "${node[@]}"
judged "${go_python[@]}" "${node[@]}"
check "redsync under pause lost money" test "$(chaos_cell redsync pause lost_amount)" -gt 0
for client in etcd-mutex-fenced kazoo-lock-fenced; do
    check "$client under pause shows no anomaly" test "$(chaos_cell $client pause anomalies)" -eq 0
done

chaos Java 2 1 none,pause "${java[@]}"
judged "${java[@]}"
for client in redisson-fenced curator-mutex-fenced hazelcast-lock-fenced; do
    check "$client under pause shows no anomaly" test "$(chaos_cell $client pause anomalies)" -eq 0
done

# clock-offset: the first holder's wall clock 3 minutes behind (ShedLock#231). ShedLock's JDBC lease,
# computed from that clock: when that holder locks first, its lock_until is over as soon as written
# and the next node takes the lock too (an anomaly); when it comes second, it reads the others'
# lock_until as 3 minutes away and waits (stuck). With usingDbTime() PostgreSQL's clock times it.
chaos "clock-offset" 2 2 clock-offset shedlock-jdbc shedlock-jdbc-db-time
check "each of shedlock-jdbc's trials under clock-offset lost money or left the holder stuck" \
    test $(($(chaos_cell shedlock-jdbc clock-offset anomalies) + $(chaos_cell shedlock-jdbc clock-offset stuck))) -ge 2
check "shedlock-jdbc-db-time under clock-offset shows nothing" test "$(chaos_cell shedlock-jdbc-db-time clock-offset \
    anomalies)$(chaos_cell shedlock-jdbc-db-time clock-offset stuck)" = 00

# Faults of Redis cannot touch a lock on etcd, ZooKeeper, Hazelcast or PostgreSQL: their cells are n/a, no trial runs.
chaos "etcd, ZooKeeper, Hazelcast and PostgreSQL" 1 1 redis-restart,net-delay etcd-mutex curator-mutex-fenced kazoo-lock \
    go-zookeeper hazelcast-lock shedlock-jdbc
for client in etcd-mutex curator-mutex-fenced kazoo-lock go-zookeeper hazelcast-lock shedlock-jdbc; do
    for fault in redis-restart net-delay; do
        check "$client under $fault is n/a: Redis unused" test "$(chaos_cell $client $fault not_applicable)" = "Redis unused"
    done
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
