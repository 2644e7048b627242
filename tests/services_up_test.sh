#!/usr/bin/env bash
# `scripts/services.sh up` on servers that already run changes no data: a lab's final row survives
# a second `up`, and etcd and ZooKeeper are found running. Usage: services_up_test.sh RLOCK_BINARY, with the
# servers of scripts/test.sh.
set -euo pipefail
rlock=$1
here=$(cd "$(dirname "$0")" && pwd)
source "$here/checks.sh"
export RLOCK_DIR=$work
trap '"$rlock" reset >/dev/null 2>&1; rm -rf "$work"' EXIT
port_of() { [[ $1 =~ :([0-9]+)/ ]] && echo "${BASH_REMATCH[1]}"; }

psql -X -q -d "$DATABASE_URL" -c "UPDATE accounts SET balance = 4321, fence = 7 WHERE id = 1"
# Without the exports, services.sh would take the servers for external ones and leave them alone.
env -u REDIS_URL -u DATABASE_URL -u ETCD_ENDPOINT -u ZOOKEEPER_CONNECT RLOCK_REDIS_PORT="$(port_of "$REDIS_URL")" \
    RLOCK_PG_PORT="$(port_of "$DATABASE_URL")" RLOCK_ETCD_PORT="${ETCD_ENDPOINT##*:}" \
    RLOCK_ZOOKEEPER_PORT="${ZOOKEEPER_CONNECT##*:}" "$here/../scripts/services.sh" up >"$work/up.txt" 2>&1
check "the second up found the servers running" test "$(grep -c 'already running' "$work/up.txt")" -eq 4
check "the second up exports the same etcd" grep -qx "export ETCD_ENDPOINT=$ETCD_ENDPOINT" "$work/up.txt"
check "the second up exports the same zookeeper" grep -qx "export ZOOKEEPER_CONNECT=$ZOOKEEPER_CONNECT" "$work/up.txt"
row=$(psql -X -At -d "$DATABASE_URL" -c "SELECT balance || ' ' || fence FROM accounts WHERE id = 1")
check "a second services.sh up leaves account 1 as it was (got '$row')" test "$row" = "4321 7"
finish
