#!/usr/bin/env bash
# rlock bench --seconds 0.2 with every strategy against the servers of scripts/test.sh, on accounts
# of its own (from 9700 to 9755): the environment comes first, every case and every strategy row produced
# numbers, the contended runs ended with the correct balance; bad input is one line and exit 2. Then a
# protocol client beside ttl (--client): its rows have numbers and a checked balance; a peer that
# cannot start is one line naming it and exit 1. Then ttl through chaos's fault proxy (--through-proxy).
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
for name in rtt-redis rtt-pg cycle fenced-cycle sleeper-floor handoff-poll handoff-notify handoff-queue handoff-direct startup; do
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
one_line_exit_2 "a --client that is neither NAME=COMMAND nor a shipped adapter" --strategies none --client nosuch-lock

# Peers in the same run: redis-py's Lock over the protocol, beside ttl, on accounts 9720 and on.
redis_py="redis-py=/usr/bin/python3 $(cd "$(dirname "$0")/.." && pwd)/clients/redis-py-lock/client.py"
"$rlock" --dir "$work" bench --seconds 0.2 --account 9720 --strategies ttl --client "$redis_py" \
    --json "$work/bench.json" >"$work/out.txt" 2>"$work/err.txt"
rc=$?
cat "$work/out.txt" "$work/err.txt"
check "bench with a peer exits 0 (got $rc)" test $rc -eq 0
check "the peer redis-py has its rows at 1 and 16 clients, with numbers and the correct balance" test "$(json '
    my @r = grep { $_->{name} eq "redis-py" && $_->{client} } @{$j->{strategies}};
    my @good = grep { $_->{median_us} > 0 && $_->{p99_us} >= $_->{median_us} && $_->{floor_us} > 0 && $_->{ratio} > 0
                      && $_->{throughput_per_s} > 0 && $_->{increments} > 0 && $_->{balance_ok} } @r;
    join(",", map { $_->{clients} } @good)')" = "1,16"
check "ttl's rows are there too, not marked as a client" test "$(json '
    scalar(grep { $_->{name} eq "ttl" && !$_->{client} } @{$j->{strategies}})')" = 4
check "the peer's rows are table lines" test "$(grep -c '^redis-py ' "$work/out.txt")" -eq 2

# A peer that cannot start: one line naming it, exit 1.
"$rlock" --dir "$work" bench --seconds 0.2 --account 9720 --strategies none --client 'ghost=/nonexistent/lock-client' \
    >"$work/bad.out" 2>"$work/bad.err"
rc=$?
cat "$work/bad.err"
check "a peer that cannot start: exit 1 (got $rc)" test $rc -eq 1
# It fails when its rows start, after the cases: stderr has their progress lines, then the error.
check "a peer that cannot start: one line on stderr besides the progress, naming it" \
    bash -c "test \$(grep -vc '^bench: ' '$work/bad.err') -eq 1 && tail -1 '$work/bad.err' | grep -q 'peer ghost'"

# Through the fault proxy: every connection goes through it, and the balances still check out.
"$rlock" --dir "$work" bench --seconds 0.1 --account 9740 --strategies ttl --through-proxy \
    --json "$work/bench.json" >"$work/out.txt" 2>"$work/err.txt"
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
"$rlock" --redis unix:///tmp/no-such-redis.sock --dir "$work" bench --through-proxy >"$work/bad.out" 2>"$work/bad.err"
rc=$?
cat "$work/bad.err"
check "--through-proxy to a Redis over a Unix socket: exit 2 (got $rc)" test $rc -eq 2
check "--through-proxy to a Redis over a Unix socket: one line" test "$(wc -l <"$work/bad.err")" -eq 1

finish
