#!/usr/bin/env bash
# Lab 4: a Redis restart without persistence forgets the lock. A holds a long lock (30 s) and
# pauses; Redis crashes (SIGKILL) and starts again empty; B asks right after and gets the lock at
# once. Two holders: B writes 150, A writes 130 over it. Expected: 130.
#   --aof              Redis with appendonly yes + appendfsync always: the lock survives the crash
#                      with its TTL still running, B waits for A. Expected: 180.
#   --delayed-restart  no persistence, but no lock is granted until Redis has been up longer than
#                      the longest TTL (+1 s): B waits out A's lock. Expected: 180. The price: after
#                      every start, the first acquisition waits that long too (A, here).
#   --ttl MS (30000), --pause S (3): A's lock and A's pause (shorter than the TTL: A's lock is
#                      still valid when it writes; only the restart takes it away).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
lab_options --aof --delayed-restart -- "$@"
lab_begin "lab4${MODE:+-${MODE#--}}"

config=() guard=()
case $MODE in
--aof) config=("appendonly yes" "appendfsync always") ;;
--delayed-restart) guard=(--min-redis-uptime $((TTL + 1000))) ;;
esac
lab_redis lab4 6393 "${config[@]}"
export REDIS_URL=redis://127.0.0.1:6393/0

rlock reset
start_worker A 30 --ttl "$TTL" --pause "${PAUSE:-3}" "${guard[@]}"
wait_for_file "$RLOCK_DIR/.read_A" $((TTL / 1000 + 15))
rlock redis restart
start_worker B 50 --ttl "$TTL" "${guard[@]}"
wait_workers

rlock showlog
rlock verdict --expect 180
lab_timeline
