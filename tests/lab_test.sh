#!/usr/bin/env bash
# lab_test.sh LAB: runs scripts/LAB.sh in a fresh lab directory and compares what it printed, with
# the times taken off, to expected/LAB.txt: the article's events in the article's order, the final
# row and the verdict. Needs RLOCK_BIN, REDIS_URL and DATABASE_URL (scripts/test.sh sets them).
set -euo pipefail
lab=$1
here=$(cd "$(dirname "$0")" && pwd)
: "${RLOCK_BIN:?set RLOCK_BIN to the rlock binary}" "${REDIS_URL:?REDIS_URL is not set: run the tests through scripts/test.sh}" \
  "${DATABASE_URL:?DATABASE_URL is not set: run the tests through scripts/test.sh}"

RLOCK_DIR=$(mktemp -d)
export RLOCK_DIR
trap 'rm -rf "$RLOCK_DIR"' EXIT

"$here/../scripts/$lab.sh" >"$RLOCK_DIR/out.txt"
# ' 2.04s  B  lock acquired' -> 'B  lock acquired'; the reset line names the temporary directory.
sed -E -e '/^reset: /d' -e 's/^ *-?[0-9]+\.[0-9]+s  //' "$RLOCK_DIR/out.txt" >"$RLOCK_DIR/events.txt"
if ! diff -u "$here/expected/$lab.txt" "$RLOCK_DIR/events.txt"; then
    echo "--- $lab printed:"; cat "$RLOCK_DIR/out.txt"
    exit 1
fi
echo "$lab: $(tail -n 1 "$RLOCK_DIR/out.txt")"
