#!/usr/bin/env bash
# Lab 5: a failover before the lock reached the replica. The replica is frozen (SIGSTOP) until the
# primary gives up on it (repl-timeout 2 s), so the lock A then acquires never reaches it (asynchronous
# replication: the primary acknowledges first); the primary dies (SIGKILL), the replica is promoted,
# and B, pointed at the new primary, gets the lock at once while A still believes it holds it.
# Expected: 130, and A's release fails (its primary is gone).
#   --sentinel  the same failover done by a real Redis Sentinel; every worker finds the primary
#               through it (A's release reaches the new primary). Expected: 130.
#   --wait      each acquisition is followed by WAIT 1 100: with its replica frozen, A is never
#               granted the lock, and gives up when the primary dies; B works alone on the new
#               primary (which has no replica to wait for). Expected: 150, A's 30 not added and
#               A saying so: no update lost, but no progress for A either.
#   --fenced    fencing tokens through the same failover. The fence counter lives in Redis too and
#               goes back: B gets token 1 again. PostgreSQL's strict `fence < $token` rejects A's
#               write with the same token (rowcount 0). Expected: 150, A's 30 not added.
#   --ttl MS (30000), --pause S (3; 10 with --sentinel, which needs a few seconds to fail over)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
lab_options --sentinel --wait --fenced -- "$@"
[[ -n $PAUSE ]] || PAUSE=$([[ $MODE == --sentinel ]] && echo 10 || echo 3)
lab_begin "lab5${MODE:+-${MODE#--}}"

primary=redis://127.0.0.1:6394/0 replica=redis://127.0.0.1:6395/0
lab_replicated_redis lab5 6394 6395
export REDIS_URL=$primary
find=(--redis "$primary") after=(--redis "$replica") options=() ready=(wait_for_file "$RLOCK_DIR/.read_A")
case $MODE in
--sentinel) lab_sentinel lab5 26394 6394
            find=(--sentinel 127.0.0.1:26394 --master lab5) after=("${find[@]}") ;;
--wait) options=(--wait-replicas 1 --wait-timeout 100) ready=(wait_for_event A under_replicated) ;;
--fenced) options=(--fenced --retry) ;;
esac

rlock "${find[@]}" reset --start-in 0
redis-cli -p 6394 WAIT 1 1000 >/dev/null # the reset reached the replica
REDIS_URL=$replica rlock redis stop
wait_replica_dropped 6394
start_worker A 30 --ttl "$TTL" --pause "$PAUSE" "${find[@]}" "${options[@]}"
"${ready[@]}"
rlock redis kill
if [[ $MODE == --wait ]]; then
    wait_worker A || true # A gives up: its primary is gone
    options=()            # the new primary has no replica to WAIT for
fi
REDIS_URL=$replica rlock redis cont
[[ $MODE != --sentinel ]] || wait_until 30 "Sentinel's failover" sentinel_names_master 26394 lab5 6395
REDIS_URL=$replica rlock redis promote
start_worker B 50 --ttl "$TTL" "${after[@]}" "${options[@]}"
wait_workers A

rlock showlog
rlock verdict --expect 180
lab_timeline
