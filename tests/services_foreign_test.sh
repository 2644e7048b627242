#!/usr/bin/env bash
# scripts/services.sh acts only on the servers it started: a Redis of someone else's on its port
# keeps its unsaved key through `down`, and `up` fails naming the port; so does an etcd of someone
# else's; processes that pid files name (a redis-server, an etcd and a java of someone else's)
# survive `down`; a lab spares that Redis too; a PostgreSQL it did not start is never sent a query
# (a fake one on the port logs every connection's startup packet).
# Ports 6489 (Redis), 5489 (PostgreSQL), 2489 and 2490 (etcd), 2589 (ZooKeeper). Needs root and the
# environment of scripts/test.sh. Usage: services_foreign_test.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
services=$here/../scripts/services.sh
source "$here/checks.sh"
chmod 0755 "$work" # as root, the user postgres reaches the state directory through it
state=""
run() { # run ARGS...: services.sh ARGS on the test's ports and its state directory, $state
    env -u REDIS_URL -u DATABASE_URL -u ETCD_ENDPOINT -u ZOOKEEPER_CONNECT RLOCK_STATE_DIR="$state" \
        RLOCK_REDIS_PORT=6489 RLOCK_PG_PORT=5489 RLOCK_ETCD_PORT=2489 RLOCK_ZOOKEEPER_PORT=2589 timeout 60 "$services" "$@"
}
pids=()
cleanup() {
    redis-cli -p 6489 shutdown nosave >/dev/null 2>&1
    [[ -z $state ]] || run down >/dev/null 2>&1
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
    rm -rf "$work"
}
trap cleanup EXIT

# A fake PostgreSQL: it answers every startup packet with an authentication failure (pg_isready
# takes that for a running server) and logs the packet.
python3 - "$work/startups.log" <<'PY' &
import socket, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", 5489))
s.listen()
while True:
    c, _ = s.accept()
    data = c.recv(8192)
    if data[4:8] == b"\x04\xd2\x16\x2f":  # SSLRequest: no
        c.sendall(b"N")
        data = c.recv(8192)
    with open(sys.argv[1], "a") as log:
        log.write(repr(data) + "\n")
    body = b"SFATAL\0C28P01\0Mpassword authentication failed\0\0"
    c.sendall(b"E" + (len(body) + 4).to_bytes(4, "big") + body)
    c.close()
PY
pids+=($!)
for _ in $(seq 50); do [[ -n "$(ss -Hltn 'sport = :5489')" ]] && break; sleep 0.1; done
state=$work/pg-state
run up >/dev/null 2>"$work/up.txt"
rc=$?
check "up on a foreign PostgreSQL fails, exit 1 (got $rc)" test $rc -eq 1
check "naming its port" grep -q '127.0.0.1:5489' "$work/up.txt"
check "and sends it no query (no psql connected)" bash -c "! grep -q psql '$work/startups.log' 2>/dev/null"

run down >/dev/null 2>&1
kill "${pids[0]}"
wait "${pids[0]}" 2>/dev/null
pids=()

# A Redis of someone else's, with a key it never saved.
redis-server --bind 127.0.0.1 --port 6489 --save '' --appendonly no --daemonize yes --dir "$work" \
    --logfile "$work/foreign-redis.log" >/dev/null
for _ in $(seq 50); do [[ "$(redis-cli -p 6489 ping 2>/dev/null)" == PONG ]] && break; sleep 0.1; done
redis-cli -p 6489 set precious 1 >/dev/null
# Pid files in the state directory naming processes services.sh did not start.
state=$work/state
mkdir -m 0700 "$work/state" "$work/state/redis" "$work/state/etcd" "$work/state/zookeeper" "$work/bin"
for name in redis-server etcd java; do
    cp "$(command -v sleep)" "$work/bin/$name"
    "$work/bin/$name" 300 &
    pids+=($!)
done
echo "${pids[0]}" >"$work/state/redis/redis.pid"
echo "${pids[1]}" >"$work/state/etcd/etcd.pid"
echo "${pids[2]}" >"$work/state/zookeeper/zookeeper.pid"

run down >/dev/null 2>"$work/down.txt"
check "down leaves the foreign Redis its unsaved key" test "$(redis-cli -p 6489 get precious 2>&1)" = 1
check "down says it left 127.0.0.1:6489 alone" grep -q '127.0.0.1:6489.*left alone' "$work/down.txt"
for i in 0 1 2; do
    check "down leaves the process in a pid file alone (${pids[$i]}, $(cat "/proc/${pids[$i]}/comm" 2>/dev/null))" \
        kill -0 "${pids[$i]}"
done
# A record of a process's start time but not its command line is no proof either.
{ echo "${pids[1]}"; awk '{print $22}' "/proc/${pids[1]}/stat"; echo "etcd --name rlock"; } >"$work/state/etcd/etcd.pid"
run down >/dev/null 2>&1
check "down leaves a process whose command line is not the recorded one" kill -0 "${pids[1]}"

# An etcd of someone else's, with a key of its own.
etcd --name foreign --data-dir "$work/foreign-etcd" --listen-client-urls http://127.0.0.1:2489 \
    --advertise-client-urls http://127.0.0.1:2489 --listen-peer-urls http://127.0.0.1:2490 \
    --initial-advertise-peer-urls http://127.0.0.1:2490 --initial-cluster foreign=http://127.0.0.1:2490 \
    >"$work/foreign-etcd.log" 2>&1 &
pids+=($!)
etcdctl_() { ETCDCTL_API=3 timeout 3 etcdctl --endpoints=127.0.0.1:2489 "$@" 2>/dev/null; }
for _ in $(seq 50); do etcdctl_ put precious 1 >/dev/null && break; sleep 0.1; done
run up etcd >/dev/null 2>"$work/up.txt"
rc=$?
check "up on a foreign etcd fails, exit 1 (got $rc)" test $rc -eq 1
check "naming its port" grep -q '127.0.0.1:2489' "$work/up.txt"
run down >/dev/null 2>&1
check "and down leaves it its key" test "$(etcdctl_ get precious --print-value-only)" = 1

run up >/dev/null 2>"$work/up.txt"
rc=$?
check "up on a foreign Redis fails, exit 1 (got $rc)" test $rc -eq 1
check "naming its port" grep -q '127.0.0.1:6489' "$work/up.txt"
check "and the foreign Redis keeps its key" test "$(redis-cli -p 6489 get precious 2>&1)" = 1
# What a lab does to a Redis of its own on its port (scripts/lib.sh), it does not do to this one.
(source "$here/../scripts/lib.sh" && stop_lab_redis 6489)
check "a lab's stop_lab_redis leaves the foreign Redis its key" test "$(redis-cli -p 6489 get precious 2>&1)" = 1
redis-cli -p 6489 shutdown nosave >/dev/null 2>&1

finish
