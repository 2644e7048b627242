#!/usr/bin/env bash
# rlock bench --seconds 0.2 with every strategy against the servers of scripts/test.sh, on accounts
# of its own (from 9700 to 9755): the environment comes first, every case and every strategy row produced
# numbers, the contended runs ended with the correct balance; bad input is one line and exit 2. Then
# protocol clients beside ttl (--client), one by its catalogue name (redis-py, Debian's, always
# installed) and one as NAME=COMMAND (rlock client): their rows have numbers and a checked balance,
# and redis-py's own hand-off (--handoff-client) is a case beside the built-in ones; a name not shipped
# or not installed is one line and exit 2, a client that cannot start one line naming it and exit 1.
# Then ttl through chaos's fault proxy (--through-proxy), without --dir: the run is kept in the state directory,
# not in the directory rlock was started from.
# A benchmark, not a timed test: no time is asserted.
set -uo pipefail
rlock=$1
source "$(dirname "$0")/checks.sh"
json() { # json PERL-EXPRESSION: evaluated with $j the parsed JSON file
    E=$1 perl -MJSON::PP -0777 -ne '$j = decode_json($_); print eval $ENV{E}' "$work/bench.json"
}

strategies=ttl,watchdog,fenced-retry,fenced-claim,redlock,pg-atomic,pg-row-lock,pg-advisory
"$rlock" --dir "$work" bench --seconds 0.2 --clients 4 --account 9700 --strategies $strategies --redlock-port 6747 \
    --json "$work/bench.json" >"$work/out.txt" 2>"$work/err.txt"
rc=$?
cat "$work/out.txt" "$work/err.txt"
check "bench exits 0 (got $rc)" test $rc -eq 0
check "the environment comes first" bash -c "head -n 5 '$work/out.txt' | grep -q '^redis ' && head -n 5 '$work/out.txt' | grep -q '^postgresql '"
for name in rtt-redis rtt-pg cycle fenced-cycle sleeper-floor sleeper-floor-long handoff-poll handoff-notify handoff-queue handoff-direct startup; do
    check "case $name has a line" grep -q "^$name " "$work/out.txt"
    check "case $name has numbers in the JSON" test "$(N=$name json '
        my ($c) = grep { $_->{name} eq $ENV{N} } @{$j->{cases}};
        $c && $c->{samples} > 0 && $c->{median_us} > 0 && $c->{p99_us} >= $c->{median_us}
           && $c->{floor_us} > 0 && $c->{ratio} > 0 ? "yes" : "no"')" = yes
done
for name in handoff-poll handoff-notify handoff-queue handoff-direct; do
    check "$name ran until it had 20 hand-offs" test "$(N=$name json '
        (grep { $_->{name} eq $ENV{N} } @{$j->{cases}})[0]{samples}')" -ge 20
    check "$name ended with the correct balance" test "$(N=$name json '
        my ($c) = grep { $_->{name} eq $ENV{N} } @{$j->{cases}};
        $c->{balance_ok} && $c->{final_balance} == 100 + $c->{sections} ? "yes" : "no"')" = yes
    check "$name reports fairness and throughput" test "$(N=$name json '
        my ($c) = grep { $_->{name} eq $ENV{N} } @{$j->{cases}};
        $c->{jain} > 0 && $c->{jain} <= 1 && $c->{throughput_per_s} > 0 ? "yes" : "no"')" = yes
done
check "startup reports peak memory" test "$(json '(grep { $_->{name} eq "startup" } @{$j->{cases}})[0]{peak_rss_kb_max} > 0 ? "yes" : "no"')" = yes
for name in ${strategies//,/ }; do
    check "strategy $name has its four rows, each with numbers and the correct balance" test "$(N=$name json '
        my @r = grep { $_->{name} eq $ENV{N} } @{$j->{strategies}};
        my @good = grep { $_->{median_us} > 0 && $_->{p99_us} >= $_->{median_us} && $_->{floor_us} > 0 && $_->{ratio} > 0
                          && $_->{throughput_per_s} > 0 && $_->{balance_ok} } @r;
        join(",", map { "$_->{clients}/$_->{accounts}" } @good)')" = "1/1,4/1,16/1,16/16"
    check "strategy $name has table lines" test "$(grep -c "^$name " "$work/out.txt")" -ge 4
done
check "the JSON has the environment" test "$(json 'exists $j->{env}{redis} && exists $j->{env}{build} ? "yes" : "no"')" = yes

# Bad input: one line on stderr, exit 2, before any server is asked anything.
one_line_exit_2() { # one_line_exit_2 LABEL ARGS...
    local label=$1; shift
    "$rlock" --dir "$work" bench "$@" >"$work/bad.out" 2>"$work/bad.err"
    local rc=$?
    check "$label: exit 2 (got $rc)" test $rc -eq 2
    check "$label: one line on stderr" test "$(wc -l <"$work/bad.err")" -eq 1
    cat "$work/bad.err"
}
one_line_exit_2 "an unknown strategy" --strategies ttl,nosuch
one_line_exit_2 "more clients than PostgreSQL accepts" --clients 100000 --strategies ttl
# A catalogue name that is not shipped lists the shipped ones; one not installed names its install command.
for flag in --client --handoff-client; do
    one_line_exit_2 "$flag with a name not shipped" --strategies none $flag nosuch-lock
    check "$flag with a name not shipped: the line lists the shipped names" grep -q 'shipped: .*redis-py' "$work/bad.err"
done
mkdir -p "$work/catalogue/fake"
printf '%s\n' '{"library": "none 0", "installed": "bin/fake", "clients": [' \
    '{"name": "fake", "command": "{dir}/bin/fake", "server": "redis", "safe": false, "models": "nothing"}]}' \
    >"$work/catalogue/fake/client.json"
RLOCK_CLIENTS_DIR=$work/catalogue one_line_exit_2 "a catalogue client not installed" --strategies none --client fake
check "a catalogue client not installed: the line names its install command" \
    grep -q 'install it with `scripts/clients.sh install fake`' "$work/bad.err"
one_line_exit_2 "a --handoff-client named as a built-in case" --strategies none --handoff-client 'queue=/bin/true'

# Peers in the same run, beside ttl, on accounts 9720 and on: redis-py's Lock over the protocol by its catalogue
# name, rlock's own ttl as NAME=COMMAND, and redis-py's hand-off beside the built-in ones.
"$rlock" --dir "$work" bench --seconds 0.2 --account 9720 --strategies ttl --client redis-py \
    --client "rlock-ttl=$rlock client --strategy ttl" --handoff-client redis-py \
    --json "$work/bench.json" >"$work/out.txt" 2>"$work/err.txt"
rc=$?
cat "$work/out.txt" "$work/err.txt"
check "bench with clients exits 0 (got $rc)" test $rc -eq 0
for client in redis-py rlock-ttl; do
    check "the client $client has its rows at 1 and 16 clients, with numbers and the correct balance" test "$(P=$client json '
        my @r = grep { $_->{name} eq $ENV{P} && $_->{client} } @{$j->{strategies}};
        my @good = grep { $_->{median_us} > 0 && $_->{p99_us} >= $_->{median_us} && $_->{floor_us} > 0
                          && $_->{ratio} > 0 && $_->{throughput_per_s} > 0 && $_->{increments} > 0 && $_->{balance_ok} } @r;
        join(",", map { $_->{clients} } @good)')" = "1,16"
    check "the client $client's rows are table lines" test "$(grep -c "^$client " "$work/out.txt")" -eq 2
done
check "ttl's rows are there too, not marked as a client" test "$(json '
    scalar(grep { $_->{name} eq "ttl" && !$_->{client} } @{$j->{strategies}})')" = 4
check "handoff-redis-py has a line" grep -q '^handoff-redis-py ' "$work/out.txt"
check "handoff-redis-py ran until it had 20 hand-offs, with the correct balance, fairness and throughput" \
    test "$(json '
    my ($c) = grep { $_->{name} eq "handoff-redis-py" } @{$j->{cases}};
    $c && $c->{samples} >= 20 && $c->{median_us} > 0 && $c->{p99_us} >= $c->{median_us} && $c->{sleeper_ratio} > 0
       && $c->{long_sleeper_ratio} > 0 && $c->{long_sleeper_floor_us} > 0
       && $c->{balance_ok} && $c->{clients} == 2 && $c->{jain} > 0 && $c->{throughput_per_s} > 0
       && $c->{failed} == 0 ? "yes" : "no"')" = yes

# A client that cannot start: one line naming it, exit 1.
"$rlock" --dir "$work" bench --seconds 0.2 --account 9720 --strategies none --client 'ghost=/nonexistent/lock-client' \
    >"$work/bad.out" 2>"$work/bad.err"
rc=$?
cat "$work/bad.err"
check "a client that cannot start: exit 1 (got $rc)" test $rc -eq 1
# It fails when its rows start, after the cases: stderr has their progress lines, then the error.
check "a client that cannot start: one line on stderr besides the progress, naming it" \
    bash -c "test \$(grep -vc '^bench: ' '$work/bad.err') -eq 1 && tail -1 '$work/bad.err' | grep -q 'client ghost'"

# Through the fault proxy: every connection goes through it, and the balances still check out.
mkdir -p "$work/started-in"
(cd "$work/started-in" && env -u RLOCK_DIR XDG_STATE_HOME="$work/state" "$rlock" bench --seconds 0.1 --account 9740 \
    --strategies ttl --through-proxy --json "$work/bench.json" >"$work/out.txt" 2>"$work/err.txt")
rc=$?
cat "$work/out.txt" "$work/err.txt"
check "bench --through-proxy exits 0 (got $rc)" test $rc -eq 0
check "the JSON says the run went through the proxy" test "$(json '$j->{env}{through_proxy} ? "yes" : "no"')" = yes
check "the proxy accepted connections" test "$(json '$j->{env}{proxy_connections}')" -gt 0
redis_port=$(sed -E 's#^.*:([0-9]+)(/[0-9]*)?$#\1#' <<<"$REDIS_URL")
check "the Redis address printed is the proxy's, not the server's ($redis_port)" \
    bash -c "grep -q '^redis ' '$work/out.txt' && ! grep '^redis ' '$work/out.txt' | grep -q ':$redis_port\$'"
check "ttl's four rows through the proxy kept the balance" test "$(json '
    scalar(grep { $_->{name} eq "ttl" && $_->{balance_ok} && $_->{median_us} > 0 } @{$j->{strategies}})')" = 4
check "without --dir the run is kept in \$XDG_STATE_HOME/rlock" \
    bash -c "ls '$work'/state/rlock/bench/runs/*/bench.json >/dev/null && grep -q '^report: $work/state/rlock/bench/runs/' '$work/out.txt'"
check "nothing was written where rlock was started" test -z "$(ls -A "$work/started-in")"
(cd "$work/started-in" && env -u RLOCK_DIR XDG_STATE_HOME="$work/state" "$rlock" report >"$work/report.out" 2>&1)
rc=$?
# The state directory holds no lab run of its own, only bench's: report looks there, not in the started-in directory.
check "rlock report without --dir reads the state directory (exit $rc)" \
    bash -c "test $rc -eq 1 && grep -q '$work/state/rlock holds no run' '$work/report.out' && test -z \"\$(ls -A '$work/started-in')\""
"$rlock" --redis unix:///tmp/no-such-redis.sock --dir "$work" bench --through-proxy >"$work/bad.out" 2>"$work/bad.err"
rc=$?
cat "$work/bad.err"
check "--through-proxy to a Redis over a Unix socket: exit 2 (got $rc)" test $rc -eq 2
check "--through-proxy to a Redis over a Unix socket: one line" test "$(wc -l <"$work/bad.err")" -eq 1

finish
