#!/usr/bin/env bash
# rlock chaos --topology cluster: each job's etcd cluster and ZooKeeper ensemble of three members,
# started by rlock on ports of its own and stopped when the campaign ends. One history of etcd's
# Mutex (clients/etcd-mutex) under leader-pause and one of kazoo's Lock (clients/kazoo-lock), both
# installed by scripts/test.sh, under leader-kill are run and judged, their run keeps the topology,
# and nothing they started outlives them, while a foreign etcd on the next ports keeps running. A
# port taken and a member that cannot start are one line each, exit 1, with nothing left running; a
# cell the topology cannot run is n/a. About 25 s.
set -uo pipefail
rlock=$1
root=$(cd "$(dirname "$0")/.." && pwd)
source "$(dirname "$0")/checks.sh"
cd "$root" || exit 1
port=7340 # to 7354: this test's etcd cluster (7340-7345) and ZooKeeper ensemble; 7355, 7356 its foreign etcd

no_listener() { [[ -z "$(ss -Hltn "sport >= :$1 and sport <= :$2" 2>/dev/null)" ]]; }
no_member_left() { # no etcd member of this test's ports, nothing listening on them
    ! pgrep -f -- "--listen-client-urls=http://127\.0\.0\.1:734[0-2]" >/dev/null && no_listener $port $((port + 14))
}

foreign_dir=$work/foreign
etcd --name foreign --data-dir "$foreign_dir" --listen-client-urls http://127.0.0.1:7355 \
    --advertise-client-urls http://127.0.0.1:7355 --listen-peer-urls http://127.0.0.1:7356 \
    --initial-advertise-peer-urls http://127.0.0.1:7356 --initial-cluster foreign=http://127.0.0.1:7356 \
    --logger=zap --log-outputs=stderr 2>"$work/foreign.log" &
foreign=$!
trap 'kill $foreign 2>/dev/null; wait $foreign 2>/dev/null; rm -rf "$work"' EXIT
foreign_healthy() {
    python3 -c 'import json, urllib.request
print(json.load(urllib.request.urlopen("http://127.0.0.1:7355/health", timeout=2))["health"])' 2>/dev/null |
        grep -qx true
}
for _ in $(seq 50); do foreign_healthy && break; sleep 0.1; done
check "the foreign etcd answers before the campaign" foreign_healthy

# One history a cluster: two workers, each keeping its session, for 4 s; the leader struck at 1 s
# and healed 2 s later.
history() { # history CLIENT FAULT
    "$rlock" --dir "$work" chaos --seed 1 --strategies none --client "$1" --topology cluster \
        --cluster-port $port --ttl 1000 --jobs 1 --trials 1 --duration 4 --workers 2 \
        --nemesis "$2 at 1s for 2s" --json "$work/table.json" >"$work/out.txt" 2>"$work/err.txt"
    rc=$?
    cat "$work/out.txt" "$work/err.txt"
    check "$1's history on the cluster under $2 exits 0 (got $rc)" test $rc -eq 0
    check "it ran one history" test "$(chaos_cell "$1" "$2" trials)" -eq 1
    check "the leader was struck" test "$(chaos_cell "$1" "$2" struck)" -eq 1
    check "it was judged" test "$(chaos_cell "$1" "$2" not_run)" -eq 0
    check "no client error" test "$(chaos_cell "$1" "$2" client_error)" -eq 0
    check "no member of $1's outlives the campaign" no_member_left
}
history kazoo-lock leader-kill
check "the foreign etcd on the next ports still answers" foreign_healthy
history etcd-mutex-session leader-pause
run_json=$(ls -d "$work"/chaos/runs/*/run.json | tail -n 1) # the etcd history's, the later
check "run.json keeps the topology" grep -q '"topology": "cluster"' "$run_json"
check "run.json keeps the cluster's first port" grep -q "\"cluster_port\": $port" "$run_json"
check "the foreign etcd on the next ports still answers" foreign_healthy
"$rlock" --dir "$work" analyze "$(dirname "$run_json")" >"$work/analyzed.txt" 2>&1
check "rlock analyze judges it again, the same" grep -q "^etcd-mutex-session *leader-pause *no *1 *1 *0 " \
    "$work/analyzed.txt"

# A port of the cluster's taken by the foreign etcd: one line naming it, exit 1, nothing started.
"$rlock" --dir "$work" chaos --seed 1 --strategies none --client etcd-mutex --topology cluster \
    --cluster-port 7350 --ttl 1000 --jobs 1 --trials 1 --faults none >/dev/null 2>"$work/err.txt"
rc=$?
check "a taken port exits 1 (got $rc)" test $rc -eq 1
check "a taken port is one line naming it: $(cat "$work/err.txt")" \
    test "$(wc -l <"$work/err.txt")" -eq 1 -a -n "$(grep 'port 7355 on 127.0.0.1 is taken' "$work/err.txt")"
check "the foreign etcd still answers after it" foreign_healthy

# A member that cannot start: one line naming it and its log, exit 1, no member left.
mkdir -p "$work/bin"
printf '#!/bin/sh\necho "this etcd cannot start" >&2\nexit 1\n' >"$work/bin/etcd"
chmod +x "$work/bin/etcd"
PATH="$work/bin:$PATH" "$rlock" --dir "$work" chaos --seed 1 --strategies none --client etcd-mutex \
    --topology cluster --cluster-port $port --ttl 1000 --jobs 1 --trials 1 --faults none >/dev/null 2>"$work/err.txt"
rc=$?
check "a member that cannot start exits 1 (got $rc)" test $rc -eq 1
check "it is one line naming the member and its log: $(cat "$work/err.txt")" \
    test "$(wc -l <"$work/err.txt")" -eq 1 -a -n "$(grep 'member e1 on 127.0.0.1:7340 did not form.*this etcd cannot start (its log: .*etcd-e1.log)' "$work/err.txt")"
check "no member is left after it" no_member_left

# What the topology cannot run is n/a, with its reason; nothing is started for it.
"$rlock" --dir "$work" chaos --seed 1 --strategies ttl --client redis-py --topology cluster \
    --cluster-port $port --jobs 1 --trials 1 --faults none --json "$work/table.json" >"$work/out.txt" 2>&1
check "a strategy on a cluster is n/a: one server only" grep -q "^ttl *none *no *n/a: one server only" "$work/out.txt"
check "a Redis client on a cluster is n/a: one server only" \
    grep -q "^redis-py *none *no *n/a: one server only" "$work/out.txt"
"$rlock" --dir "$work" chaos --seed 1 --strategies ttl --jobs 1 --trials 1 --faults leader-pause >"$work/out.txt" 2>&1
check "leader-pause on one server is n/a: no cluster" grep -q "^ttl *leader-pause *no *n/a: no cluster" "$work/out.txt"
chaos_refuses "--topology ring: not a topology (single or cluster)" --topology ring
chaos_refuses "--topology cluster runs its members on this host's loopback: no --netns beside it" \
    --topology cluster --netns
finish
