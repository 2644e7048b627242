#!/usr/bin/env bash
# Lab 1: work longer than the TTL. A reads, then pauses 3 s while holding a 2 s lock; the lock
# expires, B takes it and writes 150; A wakes up and writes 130 over it. Expected: 130, not 180.
#
# scripts/lab1.sh --check-before-write (lab 1b): each worker checks that it still holds the lock
# right before its write. A's check passes; the pause falls between the check and the write, and
# the update is lost all the same. Expected: 130.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
check=()
(($# <= 1)) || usage_error "one argument at most (usage: lab1.sh [--check-before-write] [--help])"
case ${1:-} in
"") ;;
--check-before-write) check=(--check-before-write) ;;
-h | --help) script_help; exit 0 ;;
*) usage_error "unknown argument '$1' (usage: lab1.sh [--check-before-write] [--help])" ;;
esac
lab_begin "lab1${check:+b}"

rlock reset
start_worker A 30 --ttl 2000 --pause 3 "${check[@]}"
start_worker B 50 --ttl 2000 --delay 1 "${check[@]}"
wait_workers

rlock showlog
rlock verdict --expect 180
lab_timeline
