#!/usr/bin/env bash
# Every script a user runs (scripts/*.sh but the sourced lib.sh) answers --help with its help on
# stdout (exit 0) and refuses an unknown argument in one stderr line (exit 2), doing nothing else:
# no build, no package, no server, no lab; clients.sh's install refuses a version its manifest does
# not name, or --versions with one, likewise. Each call is bounded by 10 s. Usage: scripts_args_test.sh
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }

# Where a lab would have written, had it run: nothing may appear there.
export RLOCK_DIR=$work/lab RLOCK_STATE_DIR=$work/state
for script in "$root"/scripts/*.sh; do
    name=$(basename "$script")
    [[ $name == lib.sh ]] && continue
    timeout 10 bash "$script" --help >"$work/out" 2>"$work/err"; rc=$?
    if [[ $rc -eq 0 && -s $work/out && ! -s $work/err ]]; then passed=$((passed + 1)); else
        fail "$name --help -> exit $rc (want 0, help on stdout, nothing on stderr)"; sed 's/^/    /' "$work/err"; fi
    for bad in --no-such-option extra-word; do
        timeout 10 bash "$script" "$bad" >"$work/out" 2>"$work/err"; rc=$?
        if [[ $rc -eq 2 && $(wc -l <"$work/err") -eq 1 && ! -s $work/out ]] && grep -q -- "$bad" "$work/err"; then
            passed=$((passed + 1))
        else
            fail "$name $bad -> exit $rc (want 2 and one stderr line naming it)"; sed 's/^/    /' "$work/err" "$work/out"
        fi
    done
done
for args in "--ttl" "--ttl soon" "--pause" "--aof --delayed-restart"; do
    # shellcheck disable=SC2086 # the words of args are the arguments
    timeout 10 bash "$root/scripts/lab4.sh" $args >/dev/null 2>"$work/err"; rc=$?
    if [[ $rc -eq 2 && $(wc -l <"$work/err") -eq 1 ]]; then passed=$((passed + 1)); else fail "lab4.sh $args -> exit $rc"; fi
done
# clients.sh ARGS... -> exit 2 and one stderr line saying MESSAGE, before anything is built.
while IFS='|' read -r args message; do
    # shellcheck disable=SC2086 # the words of args are the arguments
    timeout 10 bash "$root/scripts/clients.sh" $args >"$work/out" 2>"$work/err"; rc=$?
    if [[ $rc -eq 2 && $(wc -l <"$work/err") -eq 1 && ! -s $work/out ]] && grep -qF -- "$message" "$work/err"; then
        passed=$((passed + 1))
    else
        fail "clients.sh $args -> exit $rc (want 2 and one stderr line saying $message)"; sed 's/^/    /' "$work/err"
    fi
done <<'CASES'
install etcd-mutex@9.9|no version '9.9' of etcd-mutex (its versions: 3.5.21
install redsync etcd-mutex@3|no version '3' of etcd-mutex
install redis-py@4.0|no version '4.0' of redis-py (its versions: 4.3.4)
install nope@1.0|no shipped client named 'nope'
install --versions etcd-mutex@3.5.21|--versions takes names without a version, not 'etcd-mutex@3.5.21'
install --versions --all|unknown option '--all'
CASES
if [[ -e $RLOCK_DIR || -e $RLOCK_STATE_DIR ]]; then fail "a script did something: $(ls -d "$RLOCK_DIR" "$RLOCK_STATE_DIR" 2>/dev/null)"; else passed=$((passed + 1)); fi

echo "$passed passed, $failed failed"
((failed == 0))
