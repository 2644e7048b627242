#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ with clang (the `asan` preset, in build-asan/) and runs each
# for SECONDS (default 60), or for N inputs (--runs N), on a copy of its committed corpus
# (fuzz/corpus/TARGET; the JSON readers with fuzz/json.dict), every target unless some are named, as
# many at once as there are cores. A crash, a leak, undefined behaviour, a hang (a run over 10 s) or
# an input taking over 2 GB stops that target; its input is left in build-asan/findings/TARGET/ and
# the script fails.
#   scripts/fuzz.sh [SECONDS | --runs N] [TARGET...]   targets: the fuzz/*.cpp names (codec, run_json, ...)
# RLOCK_FUZZ_SEED is libFuzzer's seed: 0 (the default) draws a new one each run. With a seed and
# --runs each run tries the same inputs however busy the machine is (CI: seed 1, --runs).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
usage="usage: fuzz.sh [SECONDS | --runs N] [TARGET...] [--help]"
seconds=60 runs=
[[ ${1:-} != -h && ${1:-} != --help ]] || { script_help; exit 0; }
if [[ ${1:-} =~ ^[0-9]+$ ]]; then
    seconds=$1; shift
elif [[ ${1:-} == --runs ]]; then
    [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || usage_error "--runs takes a count of inputs, not '${2:-}' ($usage)"
    runs=$2; shift 2
fi
cd "$ROOT"
targets=("$@")
if ((${#targets[@]} == 0)); then
    for f in fuzz/*.cpp; do targets+=("$(basename "$f" .cpp)"); done
fi
for t in "${targets[@]}"; do
    [[ -f fuzz/$t.cpp ]] || usage_error "no fuzz target '$t' (fuzz/*.cpp; $usage)"
done

need_packages "${BUILD_PACKAGES[@]}" clang libclang-rt-14-dev
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake --preset asan "${launcher[@]}" >/dev/null
cmake --build --preset asan -j "$(nproc)" --target "${targets[@]/#/fuzz_}"

limit=(-max_total_time="$seconds") done="in $seconds s"
[[ -z $runs ]] || limit=(-runs="$runs") done="(--runs $runs)"
# fuzz TARGET: runs it, its log in build-asan/fuzz-TARGET.log and its exit code in ...status.
fuzz() {
    local t=$1 dict=() status=0
    # libFuzzer adds what it finds to its first directory: a scratch copy keeps the committed one small.
    local work=build-asan/corpus/$t findings=build-asan/findings/$t
    rm -rf "$work" && mkdir -p "$work" "$findings" && cp fuzz/corpus/"$t"/* "$work"/
    [[ $t == redis_url || $t == conninfo ]] || dict=(-dict=fuzz/json.dict)
    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 build-asan/fuzz/fuzz_"$t" "${limit[@]}" \
        -seed="${RLOCK_FUZZ_SEED:-0}" -timeout=10 -rss_limit_mb=2048 -max_len=65536 -artifact_prefix="$findings/" \
        -print_final_stats=1 "${dict[@]}" "$work" >"build-asan/fuzz-$t.log" 2>&1 || status=$?
    echo "$status" >"build-asan/fuzz-$t.status"
}

for t in "${targets[@]}"; do
    while (($(jobs -rp | wc -l) >= $(nproc))); do wait -n || true; done
    rm -f "build-asan/fuzz-$t.status"
    fuzz "$t" &
done
wait
failed=()
for t in "${targets[@]}"; do
    log=build-asan/fuzz-$t.log
    if [[ $(cat "build-asan/fuzz-$t.status" 2>/dev/null) == 0 ]]; then
        executed=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
        echo "fuzz $t: ${executed:-?} executions $done, nothing found"
    else
        tail -n 40 "$log" >&2
        say "fuzz $t found a failure: its input is in build-asan/findings/$t/ (log: $log)"
        failed+=("$t")
    fi
done
((${#failed[@]} == 0)) || die "failures found by: ${failed[*]}"
