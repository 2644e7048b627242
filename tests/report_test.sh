#!/usr/bin/env bash
# rlock report on real runs: a tiny chaos run (ttl under none and pause, 4 trials a cell), a short
# bench run and lab 1's events, in English and in Korean. Each page must pass tidy without an
# error, name no address but the SVG namespace, carry no script, and render in headless Chromium;
# the chaos page's matrix must draw ink where it stands (the page with the matrix hidden draws
# less), and the Korean page must draw Hangul as glyphs, not boxes. A chaos.json edited to name
# scripts and paths outside the run gets a page with no script that reads nothing outside. Bad input (a directory with no
# run, a run of a newer format, an unwritable output) gets one line on stderr, exit 1 and no file.
# Usage: report_test.sh RLOCK_BINARY. Chromium, tidy and a Korean font come from scripts/test.sh.
set -uo pipefail
rlock=$1
here=$(cd "$(dirname "$0")" && pwd)
source "$here/checks.sh"
source "$here/hangul.sh"
source "$here/chromium.sh"
command -v tidy >/dev/null || { echo "tidy is not installed (scripts/test.sh installs it)"; exit 1; }

# valid_page NAME HTML: tidy finds no error, no address but the SVG namespace, no script.
valid_page() {
    local name=$1 html=$2
    check "$name passes tidy without an error" bash -c "tidy -errors -q '$html' 2>&1 | { ! grep -q 'Error:'; }"
    check "$name names no address but the SVG namespace" \
        test -z "$(grep -o 'https\?://[^\"]*' "$html" | grep -v '^http://www.w3.org/2000/svg$')"
    check "$name has no script" bash -c "! grep -qi '<script' '$html'"
}

cp -r "$here/../src/timeline/testdata/lab1" "$work/lab1"
mkdir -p "$work/chaos" "$work/bench"
# run NAME ARGS...: rlock ARGS, which must exit 0; its output shown when it does not.
run() {
    local name=$1 rc; shift
    "$rlock" "$@" >"$work/$name.txt" 2>&1
    rc=$?
    check "the $name run exits 0 (got $rc)" test $rc -eq 0
    ((rc == 0)) || cat "$work/$name.txt"
}
run chaos --dir "$work/chaos" chaos --seed 1 --strategies ttl --faults none,pause --trials 4 --jobs 2 \
    --json "$work/chaos/chaos.json"
run bench --dir "$work/bench" bench --seconds 0.2 --account 9760 --strategies ttl,fenced-claim \
    --json "$work/bench/bench.json"

# Each command keeps its run with a page of its own, and prints the page's path.
chaos_page=$(ls "$work"/chaos/chaos/runs/*/report.html 2>/dev/null | head -1)
check "chaos writes its run's page" test -s "$chaos_page"
check "chaos prints the page's path" grep -qF "chaos: report: $chaos_page" "$work/chaos.txt"
check "the run keeps its lossy trials beside its page" \
    bash -c "ls '$(dirname "$chaos_page")/trials' | grep -q '^ttl-pause-'"
valid_page "the chaos run's own page" "$chaos_page"
bench_page=$(ls "$work"/bench/bench/runs/*/report.html 2>/dev/null | head -1)
check "bench writes its run's page" test -s "$bench_page"
check "bench prints the page's path" grep -qF "report: $bench_page" "$work/bench.txt"
check "bench shows its progress" grep -q '^bench: 9/9 steps' "$work/bench.txt"
check "the bench run's page has the price of safety" grep -q '<caption>The price of safety' "$bench_page"
valid_page "the bench run's own page" "$bench_page"

# One page a run, each at its default place, in English; its path printed.
for run in chaos bench lab1; do
    start=$(date +%s%N)
    check "report of $run prints its path" test "$("$rlock" report "$work/$run")" = "$work/$run/report.html"
    took=$((($(date +%s%N) - start) / 1000000))
    valid_page "the $run page" "$work/$run/report.html"
    echo "report of $run: $(stat -c %s "$work/$run/report.html") bytes in ${took} ms"
done
check "the chaos page has the matrix" grep -q '<table class="heat" id="run1-matrix">' "$work/chaos/report.html"
check "the chaos page has ttl under pause" grep -q '<th scope="col">pause</th>' "$work/chaos/report.html"
check "the bench page draws bars" grep -q '>median .*</text>' "$work/bench/report.html"
check "the lab page has the verdict" grep -q 'LOST UPDATE' "$work/lab1/report.html"
# The three runs on one Korean page.
"$rlock" --lang ko report "$work/chaos" "$work/bench" "$work/lab1" --out "$work/ko.html" >/dev/null
check "the Korean page is written" test -s "$work/ko.html"
valid_page "the Korean page" "$work/ko.html"
check "the Korean page says lang=ko" grep -q '<html lang="ko">' "$work/ko.html"
check "the Korean page has Korean headings" grep -q '카오스 실행' "$work/ko.html"

# In the browser: every page draws something; the matrix draws where it stands.
shoot "about:blank" "$work/blank.png"
for page in chaos/report bench/report lab1/report ko; do
    shoot "file://$work/$page.html" "$work/$page.png"
    check "chromium draws $page.html" bash -c "! cmp -s '$work/$page.png' '$work/blank.png'"
    check "$page.png is 1000 px wide" test "$(python3 -c 'import struct,sys; print(struct.unpack(">I", open(sys.argv[1],"rb").read()[16:20])[0])' "$work/$page.png")" -eq 1000
done
sed 's/<table class="heat"/<table style="visibility:hidden" class="heat"/' "$work/chaos/report.html" >"$work/hidden.html"
shoot "file://$work/hidden.html" "$work/hidden.png"
with=$(ink "$work/chaos/report.png") without=$(ink "$work/hidden.png")
echo "the chaos page inks $with rows of 1400 px, $without with its matrix hidden"
check "the matrix draws ink (at least 60 rows more)" test $((with - without)) -ge 60
shoot_hangul() { shoot "file://$1" "$2" 400,120; }
hangul_glyphs_differ "$work/ko.html" "$work" shoot_hangul chromium

# Crafted names: a script, an absolute path and one that climbs out of the run, with a trial planted
# where the paths lead; the page escapes them all and reads nothing outside the run.
mkdir -p "$work/crafted" "$work/outside/secret-pause-0"
cp -r "$work/chaos/chaos/trials" "$work/crafted/trials"
{ cat "$here/../src/timeline/testdata/lab1/events.jsonl"
  echo '{"t":2.6,"who":"A","event":"error","message":"PLANTED-OUTSIDE"}'; } >"$work/outside/secret-pause-0/events.jsonl"
python3 - "$work/chaos/chaos.json" "$work/crafted/chaos.json" "$work/outside/secret" <<'PY'
import json, sys
table = json.load(open(sys.argv[1]))
script = '"><script>alert(1)</script>'
kept = next(c for c in table["cells"] if c["kept_trials"])
table["cells"] += [dict(kept, strategy=script), dict(kept, fault=script),
                   dict(kept, strategy=sys.argv[3], kept_trials=["0"]),
                   dict(kept, strategy="../../outside/secret", kept_trials=["0"])]
json.dump(table, open(sys.argv[2], "w"))
PY
"$rlock" report "$work/crafted" >/dev/null
check "the crafted page is written" test -s "$work/crafted/report.html"
valid_page "the crafted page" "$work/crafted/report.html"
check "the crafted page reads nothing outside the run" bash -c "! grep -q PLANTED-OUTSIDE '$work/crafted/report.html'"

# Bad input: one line on stderr, exit 1, nothing written.
# refused NAME ARGS...: rlock ARGS exits 1 with one line on stderr.
refused() {
    local name=$1 rc; shift
    "$rlock" "$@" >"$work/out.txt" 2>"$work/err.txt"
    rc=$?
    check "$name: exit 1 (got $rc)" test $rc -eq 1
    check "$name: one line on stderr" test "$(wc -l <"$work/err.txt")" -eq 1
    cat "$work/err.txt"
}
mkdir -p "$work/empty"
refused "a directory with no run" report "$work/empty"
check "nothing written for no run" test -z "$(ls -A "$work/empty")"
mkdir -p "$work/newer"
sed 's/"format": 1,/"format": 99,/' "$work/chaos/chaos.json" >"$work/newer/chaos.json"
refused "a run of a newer format" report "$work/newer"
check "nothing written for a newer run" test "$(ls -A "$work/newer")" = chaos.json
refused "an output in a missing directory" report "$work/lab1" --out "$work/missing/report.html"
mkdir -p "$work/taken/inside"
refused "an output that is a directory" report "$work/lab1" --out "$work/taken"
check "nothing half-written beside it" test -z "$(ls -A "$work" | grep -F .tmp)"
# A run's files that are a FIFO or /dev/zero: refused at once, within 1 GB of memory, never read.
mkdir -p "$work/fifo" && mkfifo "$work/fifo/chaos.json"
mkdir -p "$work/zero" && ln -s /dev/zero "$work/zero/events.jsonl"
for bad in fifo:'is a FIFO, not a regular file' zero:'is a symbolic link, not a regular file'; do
    (ulimit -v 1000000; timeout 20 "$rlock" report "$work/${bad%%:*}") >"$work/out.txt" 2>"$work/err.txt"
    rc=$?
    check "${bad%%:*}: exit 1 at once (got $rc)" test $rc -eq 1
    check "${bad%%:*}: one line saying what stands there" \
        bash -c "test \$(wc -l <'$work/err.txt') -eq 1 && grep -q '${bad#*:}' '$work/err.txt'" || cat "$work/err.txt"
done
finish
