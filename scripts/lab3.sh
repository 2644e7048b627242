#!/usr/bin/env bash
# Lab 3: fencing tokens checked by PostgreSQL. The same pause as lab 1, but each acquisition takes
# a fencing token and the UPDATE only applies when the row's fence is smaller. A's late write
# (token 1) is rejected with rowcount 0, A starts again with token 3. Expected: 180, fence 3.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
no_arguments "$@"
lab_begin lab3

rlock reset
start_worker A 30 --ttl 2000 --pause 3 --fenced --retry
start_worker B 50 --ttl 2000 --delay 1 --fenced --retry
wait_workers

rlock showlog
rlock verdict --expect 180
lab_timeline
