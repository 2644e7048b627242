# Sourced by the end-to-end test scripts: a scratch directory removed on exit ($work), and named
# assertions counted and summed up. Usage: source checks.sh; check NAME COMMAND...; finish
: "${REDIS_URL:?REDIS_URL is not set: run the tests through scripts/test.sh}" "${DATABASE_URL:?DATABASE_URL is not set}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0
check() { # check NAME COMMAND...: passes when COMMAND succeeds
    local name=$1; shift
    if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $name"; fi
}
finish() { # the summary line; exits non-zero when a check failed
    echo "$passed passed, $failed failed"
    ((failed == 0))
}
chaos_cell() { # chaos_cell ROW FAULT FIELD: one number of rlock chaos's JSON table, $work/table.json
    S=$1 F=$2 K=$3 perl -MJSON::PP -0777 -ne 'for my $c (@{decode_json($_)->{cells}}) {
        print $c->{$ENV{K}} if $c->{strategy} eq $ENV{S} && $c->{fault} eq $ENV{F} }' "$work/table.json"
}
chaos_refuses() { # chaos_refuses MESSAGE ARGS...: rlock chaos ARGS ($rlock) says MESSAGE in one line, exit 2
    local message=$1 rc; shift
    "$rlock" --dir "$work" chaos --strategies none --faults none --trials 1 "$@" >/dev/null 2>"$work/err.txt"
    rc=$?
    check "$* exits 2 (got $rc)" test $rc -eq 2
    check "$* says: $message" test "$(wc -l <"$work/err.txt")" -eq 1 -a -n "$(grep -- "$message" "$work/err.txt")"
}
