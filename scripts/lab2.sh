#!/usr/bin/env bash
# Lab 2: a watchdog does not survive a process pause. A's watchdog extends the lock every TTL/3,
# but SIGSTOP freezes it together with A; the lock expires, B writes 150, and A, continued 4 s
# later, writes 130 over it. Expected: 130, not 180.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
no_arguments "$@"
lab_begin lab2

rlock reset
start_worker A 30 --ttl 2000 --pause 2 --watchdog
start_worker B 50 --ttl 2000 --delay 1 --watchdog
wait_for_file "$RLOCK_DIR/.read_A"
rlock sig STOP A
sleep 4
rlock sig CONT A
wait_workers

rlock showlog
rlock verdict --expect 180
lab_timeline
