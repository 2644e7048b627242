#!/usr/bin/env bash
# rlock bench --seconds 1 against the servers of scripts/test.sh, on an account of its own (9700):
# the environment comes first, every case produced numbers, the contended runs ended with the
# correct balance. A benchmark, not a timed test: no time is asserted.
set -uo pipefail
rlock=$1
source "$(dirname "$0")/checks.sh"
json() { # json PERL-EXPRESSION: evaluated with $j the parsed JSON file
    E=$1 perl -MJSON::PP -0777 -ne '$j = decode_json($_); print eval $ENV{E}' "$work/bench.json"
}

"$rlock" --dir "$work" bench --seconds 1 --account 9700 --json "$work/bench.json" >"$work/out.txt" 2>"$work/err.txt"
rc=$?
cat "$work/out.txt" "$work/err.txt"
check "bench exits 0 (got $rc)" test $rc -eq 0
check "the environment comes first" bash -c "head -n 5 '$work/out.txt' | grep -q '^redis ' && head -n 5 '$work/out.txt' | grep -q '^postgresql '"
for name in rtt-redis rtt-pg cycle fenced-cycle handoff-poll handoff-notify startup; do
    check "case $name has a line" grep -q "^$name " "$work/out.txt"
    check "case $name has numbers in the JSON" test "$(N=$name json '
        my ($c) = grep { $_->{name} eq $ENV{N} } @{$j->{cases}};
        $c && $c->{samples} > 0 && $c->{median_us} > 0 && $c->{p99_us} >= $c->{median_us}
           && $c->{floor_us} > 0 && $c->{ratio} > 0 ? "yes" : "no"')" = yes
done
for name in handoff-poll handoff-notify; do
    check "$name ended with the correct balance" test "$(N=$name json '
        my ($c) = grep { $_->{name} eq $ENV{N} } @{$j->{cases}};
        $c->{balance_ok} && $c->{final_balance} == 100 + $c->{sections} ? "yes" : "no"')" = yes
    check "$name reports fairness and throughput" test "$(N=$name json '
        my ($c) = grep { $_->{name} eq $ENV{N} } @{$j->{cases}};
        $c->{jain} > 0 && $c->{jain} <= 1 && $c->{throughput_per_s} > 0 ? "yes" : "no"')" = yes
done
check "startup reports peak memory" test "$(json '(grep { $_->{name} eq "startup" } @{$j->{cases}})[0]{peak_rss_kb_max} > 0 ? "yes" : "no"')" = yes
check "the JSON has the environment" test "$(json 'exists $j->{env}{redis} && exists $j->{env}{build} ? "yes" : "no"')" = yes

finish
