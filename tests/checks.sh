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
# own_redis PORT: a throwaway Redis of the test's own on 127.0.0.1:PORT (scripts/lib.sh's
# throwaway_redis_conf, its files under $work), REDIS_URL naming it, stopped on exit: for a test
# whose faults crash, stop or restart its Redis (redis-restart, redis-stall), which can then run
# beside the others.
own_redis() {
    local dir=$work/redis-$1
    mkdir "$dir" || return 1
    ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null || { echo "127.0.0.1:$1, the test's Redis's port, is taken"; exit 1; }
    own_redis_pidfile=$dir/redis.pid
    trap 'stop_own_redis; rm -rf "$work"' EXIT
    # In a subshell: lib.sh's names stay out of the test's.
    (source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh" && throwaway_redis_conf "$dir" "$1" &&
        (close_inherited_fds; exec redis-server "$dir/redis.conf") >/dev/null && within 10 redis_field "$1" loading 0) ||
        { echo "the test's Redis on 127.0.0.1:$1 did not start and answer within 10 s ($dir/redis.log)"; exit 1; }
    export REDIS_URL=redis://127.0.0.1:$1/0
}
stop_own_redis() { # the pid its pidfile names now (a restart writes it again), when it is a redis-server; gone in 5 s
    local pid i
    pid=$(cat "$own_redis_pidfile" 2>/dev/null) || return 0
    [[ $(cat "/proc/$pid/comm" 2>/dev/null) == redis-server ]] || return 0
    kill "$pid"
    for ((i = 0; i < 50; i++)); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null
    return 0
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
