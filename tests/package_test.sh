#!/usr/bin/env bash
# rlock installed like a tool: CPack builds the Debian package from the build tree, which is
# unpacked into a throwaway root (dpkg -x: no root's package database touched, no container); the
# unpacked rlock answers --version, lists the shipped clients and scenarios, and lab 1, run from the unpacked share/rlock against the
# project's services (REDIS_URL, DATABASE_URL), prints its verdict. Then the root is removed.
# Usage: package_test.sh BUILD_DIR. Lab 1 writes account 1: never beside a lab (CTest's resource lock).
set -euo pipefail
build=$1
: "${REDIS_URL:?REDIS_URL is not set: run the tests through scripts/test.sh}"
: "${DATABASE_URL:?DATABASE_URL is not set: run the tests through scripts/test.sh}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cpack --config "$build/CPackConfig.cmake" -B "$work/pkg" >"$work/cpack.log" 2>&1 || { cat "$work/cpack.log"; exit 1; }
deb=$(ls "$work"/pkg/rlock_*.deb)
echo "package: $(basename "$deb"), $(du -k "$deb" | cut -f1) kB"
dpkg-deb --field "$deb" Package Version Depends
dpkg -x "$deb" "$work/root"

"$work/root/usr/bin/rlock" --version | tee "$work/version"
grep -q '^rlock [0-9.]* (commit ' "$work/version"
grep -q '^redis .* at ' "$work/version"
test -f "$work/root/usr/share/doc/rlock/LICENSE"
# The package carries the adapters' catalogue in share/rlock/clients (an rlock in /usr/bin reads it
# there; this unpacked one is told where).
(cd "$work" && RLOCK_CLIENTS_DIR="$work/root/usr/share/rlock/clients" "$work/root/usr/bin/rlock" clients) >"$work/clients"
grep -q '^redis-py  *redis ' "$work/clients" || { cat "$work/clients"; exit 1; }
# And the scenarios in share/rlock/scenarios, each listed by `rlock scenarios` as the checkout's are.
test -f "$work/root/usr/share/rlock/scenarios/README.md"
here=$(cd "$(dirname "$0")/.." && pwd)
for file in "$here"/scenarios/*.json; do
    [[ -e $file ]] || continue
    cmp "$file" "$work/root/usr/share/rlock/scenarios/$(basename "$file")"
    (cd "$work" && RLOCK_SCENARIOS_DIR="$work/root/usr/share/rlock/scenarios" "$work/root/usr/bin/rlock" --dir "$work/runs" \
        scenarios) | grep -q "^$(basename "$file" .json) " || { echo "rlock scenarios lacks $file"; exit 1; }
done

# The lab as installed: its own scripts, the unpacked binary, the runs in the user's state directory.
env -u RLOCK_BIN -u RLOCK_DIR HOME="$work/home" XDG_STATE_HOME= "$work/root/usr/share/rlock/scripts/lab1.sh" |
    tee "$work/lab1"
grep -q 'verdict: final balance 130, expected 180: LOST UPDATE' "$work/lab1"
test -f "$work/home/.local/state/rlock/lab1/events.jsonl"
echo "package: installed, ran lab 1 and removed"
