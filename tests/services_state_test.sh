#!/usr/bin/env bash
# scripts/services.sh takes a state directory only when it is its own: one made by another user, in
# a directory of another user's, writable by others, a symbolic link, or holding one
# (redis/redis.conf, pg) is refused in one line, exit 2, and nothing is written or chowned through
# the link; one it makes is mode 700, and the server it starts keeps none of the caller's
# descriptors. Its servers would use ports 6487 (Redis) and 5487
# (PostgreSQL); only a Redis starts, for the last case. Needs root (the other user is nobody), and
# the environment of scripts/test.sh. Usage: services_state_test.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
services=$here/../scripts/services.sh
source "$here/checks.sh"
# run STATE ARGS...: services.sh ARGS on STATE and the test's ports, etcd and ZooKeeper taken as given.
run() {
    local state=$1; shift
    env -u REDIS_URL -u DATABASE_URL RLOCK_STATE_DIR="$state" RLOCK_REDIS_PORT=6487 RLOCK_PG_PORT=5487 \
        ETCD_ENDPOINT=127.0.0.1:1 ZOOKEEPER_CONNECT=127.0.0.1:1 timeout 60 "$services" "$@"
}
states=()
trap 'for s in "${states[@]}"; do run "$s" down >/dev/null 2>&1; done; rm -rf "$work"' EXIT
# refused NAME STATE [PATH]: up on STATE exits 2 with one line naming PATH (STATE unless given), and
# starts nothing.
refused() {
    local name=$1 state=$2 path=${3:-$2} rc
    states+=("$state")
    run "$state" up >"$work/out" 2>"$work/err"
    rc=$?
    check "$name: exit 2 (got $rc)" test $rc -eq 2
    check "$name: one line naming $path" test "$(wc -l <"$work/err")" -eq 1 -a -n "$(grep -F "$path" "$work/err")"
    check "$name: no server started" test -z "$(ss -Hltn 'sport = :6487 or sport = :5487')"
}

install -d -o nobody -g nogroup -m 0755 "$work/nobodys" "$work/nobodys/redis"
refused "a directory of nobody's" "$work/nobodys"
check "nothing written in nobody's directory" test -z "$(ls -A "$work/nobodys/redis")"

install -d -o nobody -g nogroup -m 0755 "$work/under-nobodys"
refused "a directory in one of nobody's" "$work/under-nobodys/state" "$work/under-nobodys,"
check "nothing made in nobody's directory" test -z "$(ls -A "$work/under-nobodys")"

mkdir -m 0777 "$work/open"
refused "a directory others can write" "$work/open"

mkdir -m 0700 "$work/real"
ln -s "$work/real" "$work/link"
refused "a symbolic link" "$work/link"

echo precious >"$work/precious"
mkdir -m 0700 "$work/conf-link" "$work/conf-link/redis"
ln -s "$work/precious" "$work/conf-link/redis/redis.conf"
refused "redis/redis.conf a link" "$work/conf-link" "$work/conf-link/redis/redis.conf"
check "the linked file is untouched" test "$(cat "$work/precious")" = precious

mkdir -m 0700 "$work/pg-link" "$work/pg-target"
ln -s "$work/pg-target" "$work/pg-link/pg"
refused "pg a link" "$work/pg-link" "$work/pg-link/pg"
check "the linked directory stays root's" test "$(stat -c %U "$work/pg-target")" = root

states+=("$work/made")
# Descriptor 9 stands for the caller's pipes and locks, which the server must not keep open.
run "$work/made" up redis >/dev/null 2>"$work/err" 9>"$work/held"
check "the Redis it starts holds no descriptor of the caller's" \
    test -z "$(find /proc/"$(cat "$work/made/redis/redis.pid" 2>/dev/null)"/fd -lname "$work/held" 2>/dev/null)"
check "(the Redis runs)" test -d "/proc/$(cat "$work/made/redis/redis.pid" 2>/dev/null)/fd"
check "up makes the state directory mode 700 (got $(stat -c %a "$work/made" 2>&1))" test "$(stat -c %a "$work/made" 2>&1)" = 700
check "and Redis's config mode 600" test "$(stat -c %a "$work/made/redis/redis.conf" 2>&1)" = 600
run "$work/made" down 2>/dev/null
check "down stops that Redis" test -z "$(ss -Hltn 'sport = :6487')"

finish
