#!/usr/bin/env bash
# Redraws the README's pictures from real runs: labs 1, 2 and 3, each run by its script, leave
# docs/LAB.svg (its timeline) and docs/LAB.txt (what it printed: the log, the row, the verdict).
# Needs what the labs need (see scripts/lab1.sh); takes about 20 s.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
no_arguments "$@"
root=$ROOT
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$root/docs"
for lab in lab1 lab2 lab3; do
    RLOCK_DIR=$work/$lab "$root/scripts/$lab.sh" | grep -v -e '^reset: ' -e '/timeline\.svg$' >"$root/docs/$lab.txt"
    cp "$work/$lab/timeline.svg" "$root/docs/$lab.svg"
    echo "docs/$lab.svg"
done
