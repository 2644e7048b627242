#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ with clang (the `fuzz` preset, in build-fuzz/) and runs each
# for SECONDS (default 60) on a copy of its committed corpus (fuzz/corpus/TARGET; the JSON readers
# with fuzz/json.dict), every target unless some are named. A crash, a leak, undefined behaviour, a
# hang (a run over 10 s) or an input taking over 2 GB stops that target; its input is left in
# build-fuzz/findings/TARGET/ and the script fails.
#   scripts/fuzz.sh [SECONDS] [TARGET...]      targets: the fuzz/*.cpp names (codec, run_json, ...)
# RLOCK_FUZZ_SEED is libFuzzer's seed: 0 (the default) draws a new one each run; CI gives 1.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
seconds=60
[[ ${1:-} != -h && ${1:-} != --help ]] || { script_help; exit 0; }
if [[ ${1:-} =~ ^[0-9]+$ ]]; then seconds=$1; shift; fi
cd "$ROOT"
targets=("$@")
if ((${#targets[@]} == 0)); then
    for f in fuzz/*.cpp; do targets+=("$(basename "$f" .cpp)"); done
fi
for t in "${targets[@]}"; do
    [[ -f fuzz/$t.cpp ]] || usage_error "no fuzz target '$t' (fuzz/*.cpp; usage: fuzz.sh [SECONDS] [TARGET...] [--help])"
done

need_packages "${BUILD_PACKAGES[@]}" clang libclang-rt-14-dev
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake --preset fuzz "${launcher[@]}" >/dev/null
cmake --build --preset fuzz -j "$(nproc)" --target "${targets[@]/#/fuzz_}"

failed=()
for t in "${targets[@]}"; do
    # libFuzzer adds what it finds to its first directory: a scratch copy keeps the committed one small.
    work=build-fuzz/corpus/$t findings=build-fuzz/findings/$t
    rm -rf "$work" && mkdir -p "$work" "$findings" && cp fuzz/corpus/"$t"/* "$work"/
    log=build-fuzz/fuzz-$t.log
    dict=()
    [[ $t == redis_url || $t == conninfo ]] || dict=(-dict=fuzz/json.dict)
    if UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 build-fuzz/fuzz/fuzz_"$t" -max_total_time="$seconds" -seed="${RLOCK_FUZZ_SEED:-0}" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
        -artifact_prefix="$findings/" -print_final_stats=1 "${dict[@]}" "$work" >"$log" 2>&1; then
        runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
        echo "fuzz $t: ${runs:-?} executions in $seconds s, nothing found"
    else
        tail -n 40 "$log" >&2
        say "fuzz $t found a failure: its input is in $findings/ (log: $log)"
        failed+=("$t")
    fi
done
((${#failed[@]} == 0)) || die "failures found by: ${failed[*]}"
