#!/usr/bin/env bash
# rlock as root against directories another user made: with links planted in a directory owned
# by nobody (at report.html, campaign.lock, events.jsonl, run.json, and at the temporaries of
# every pid up to 2^15), report, chaos, judge, scenario, analyze and merge refuse it in one line,
# exit 2, and the root-only file the links point to is unchanged; a directory others can write is
# refused alike. In a directory of root's own, a link at report.html is replaced, never followed.
# Usage: planted_links_test.sh RLOCK. Asks no server (the Redis and PostgreSQL named do not exist).
set -uo pipefail
rlock=$1
source "$(dirname "$0")/checks.sh"
[[ $(id -u) == 0 ]] || { echo "FAIL: this test plants links as another user and runs as root"; exit 1; }
servers=(--redis redis://127.0.0.1:1/0 --db postgresql://postgres@127.0.0.1:1/bank)

secret=$work/secret
echo "root's own" >"$secret" && chmod 600 "$secret"
sum=$(sha256sum "$secret")
theirs=$work/theirs
mkdir -p "$theirs/chaos/runs/run" && chmod 711 "$work"
for name in report.html chaos/campaign.lock events.jsonl run.log .start chaos/runs/run/run.json card.html timeline.svg; do
    ln -s "$secret" "$theirs/$name"
done
for pid in $(seq 1 32768); do echo "$theirs/report.html.tmp$pid"; done | xargs ln -s "$secret" -t "$theirs" 2>/dev/null
for pid in $(seq 1 200); do ln -s "$secret" "$theirs/chaos/campaign.lock.tmp$pid"; done
chown -R -h nobody:nogroup "$theirs"
sleep 0.01 && touch "$work/planted"  # what rlock writes is newer than this
writable=$work/writable
mkdir -m 777 "$writable" && ln -s "$secret" "$writable/report.html"

# refused WHAT ARGS...: rlock ARGS exits 2, one line naming the directory, the secret unchanged.
refused() {
    local what=$1 rc; shift
    timeout 60 "$rlock" "${servers[@]}" "$@" >"$work/out.txt" 2>"$work/err.txt"
    rc=$?
    check "$what: exit 2 (got $rc)" test $rc -eq 2
    check "$what: one line saying why" \
        bash -c "test \$(wc -l <'$work/err.txt') -eq 1 && grep -qE 'is owned by user [0-9]+, neither you nor root|can be written by every user' '$work/err.txt'" ||
        cat "$work/err.txt"
    check "$what: the file the links point to is unchanged" bash -c "sha256sum '$secret' | cmp -s - <(echo '$sum')"
}
refused "report DIR" report "$theirs"
refused "report --out into it" report "$work" --out "$theirs/report.html"
refused "chaos --dir" --dir "$theirs" chaos --strategies ttl --faults none --trials 1
refused "judge --dir" --dir "$theirs" judge redis-py --quick --faults none
RLOCK_SCENARIOS_DIR=$(dirname "$0")/scenarios refused "scenario --dir" --dir "$theirs" scenario redsync-pause --trials 1
refused "analyze" analyze "$theirs/chaos/runs/run"
refused "merge --dir" --dir "$theirs" merge "$work/shard-1" "$work/shard-2"
refused "merge of a shard" --dir "$work/lab" merge "$theirs/chaos/runs/run" "$work/shard-2"
refused "a directory every user can write" report "$writable"
refused "bench --dir" --dir "$theirs" bench --seconds 0.1
check "nothing was written in their directory" test -z "$(find "$theirs" -newer "$work/planted")"

# In a directory of root's own, a link where a page goes is replaced by the page.
mine=$work/mine
mkdir "$mine" && ln -s "$secret" "$mine/report.html"
cp -r "$(dirname "$0")/data/run-5150d3f-seed11" "$mine/run"
"$rlock" report "$mine/run" --out "$mine/report.html" >/dev/null 2>"$work/err.txt"
check "report into root's own directory runs (exit $?)" test -s "$mine/report.html" -a ! -L "$mine/report.html"
check "the link was replaced, not followed" bash -c "sha256sum '$secret' | cmp -s - <(echo '$sum')"
finish
