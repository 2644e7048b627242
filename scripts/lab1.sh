#!/usr/bin/env bash
# Lab 1: work longer than the TTL. A reads, then pauses 3 s while holding a 2 s lock; the lock
# expires, B takes it and writes 150; A wakes up and writes 130 over it. Expected: 130, not 180.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
lab_begin lab1

rlock reset
start_worker A 30 --ttl 2000 --pause 3
start_worker B 50 --ttl 2000 --delay 1
wait_workers

rlock showlog
rlock verdict --expect 180
