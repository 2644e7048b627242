#!/usr/bin/env bash
# Runs every test, from a fresh Debian 12 machine: installs the Debian packages that are missing,
# installs the lock clients (scripts/clients.sh) while it builds, starts Redis, PostgreSQL, etcd,
# ZooKeeper and Hazelcast (unless REDIS_URL, DATABASE_URL, ETCD_ENDPOINT, ZOOKEEPER_CONNECT and
# HAZELCAST_MEMBERS are set), runs CTest and stops the services it started.
#   scripts/test.sh [default|asan]   (a CMake preset)
# The default run (CI's) also builds the asan preset (clang: rlock, the unit tests and the fuzz
# targets, what its steps run) at idle priority while the rest runs, and runs each fuzz target
# there once built (150,000 inputs, seed 1); after CTest it runs the unit tests and labs 1 and 3
# under the sanitizers (all the labs would take CI past its 15 minutes).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
preset=${1:-default}
case $preset in
default | asan) (($# <= 1)) || usage_error "one argument at most (usage: test.sh [default|asan] [--help])" ;;
-h | --help) script_help; exit 0 ;;
*) usage_error "unknown preset '$preset' (usage: test.sh [default|asan] [--help])" ;;
esac

# chromium and a Korean font: the browser test and the Korean timelines are drawn, never skipped
# (python3 reads their pictures: tests/ink_rows.py); tidy validates the HTML of rlock report.
need_packages "${BUILD_PACKAGES[@]}" perl docker-compose libxml2-utils librsvg2-bin chromium fonts-nanum python3 tidy \
    etcd-server etcd-client
need_packages faketime libfaketime  # clock-skew: chaos_clock_test's skewed worker, a protocol client's preloaded clock
need_packages iproute2 nftables  # netns_test's namespaces, bridge and partitions (src/host/netns.h)
need_packages python3-jsonschema  # schemas_test validates the run files against docs/schemas/
need_packages python3-yaml  # scale_manifests reads docs/scale/*.yaml offline
need_packages slurmctld slurmd slurm-client munge  # slurm_test's one-node cluster (scripts/slurm.sh)
need_packages parallel openssh-server openssh-client rsync  # parallel_ssh_test: shards over SSH, --return through rsync
need_packages spin  # models_test verifies the Promela models of models/ (scripts/models.sh)
need_packages clang libclang-rt-14-dev  # the sanitized build (both presets build it) is clang's, fuzzers included
cargo_tool >/dev/null  # the Rust clients' toolchain (rustup's cargo 1.88 or later; Debian 12's is older)

# On exit: the background jobs below stopped, the clients' log removed, and the services this script started.
clients_install="" clients_log="" asan_build="" fuzzers="" stop_services=false given=()
on_exit() {
    local group
    for group in "$clients_install" "$asan_build" "$fuzzers"; do
        [[ -z $group ]] || kill -- "-$group" 2>/dev/null || true
    done
    [[ -z $clients_log ]] || rm -f "$clients_log"
    ! $stop_services || env "${given[@]}" -u ETCD_ENDPOINT -u ZOOKEEPER_CONNECT -u HAZELCAST_MEMBERS scripts/services.sh down
}
trap on_exit EXIT

# The real lock libraries that the clients' tests judge (docs/clients.md), and beside their defaults
# the versions the scenarios replay: etcd's client 3.4.3 (etcd#11456), redis-semaphore 5.3.0 (before
# #175's fix) and node-redlock 1.4.0 (redlock 5's maintained fork). They install while rlock builds,
# in a process group of their own: on a fresh machine half their time is downloads (Maven's, Go's,
# npm's, cargo's), CPU the build can use. Their log is shown once they end.
clients_log=$(mktemp)
setsid -w bash -c '"$0" install && "$0" install etcd-mutex@3.4.3 redis-semaphore@5.3.0 node-redlock@1.4.0' \
    "$ROOT/scripts/clients.sh" >"$clients_log" 2>&1 &
clients_install=$!
cd "$ROOT"
scripts/format.sh --check  # the C++ sources as .clang-format has them
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# The default build's debug information is line tables (-g1): backtraces keep their files and
# lines, and the build takes a third less time than with -g (17 s, not 28 s, for one of the CLI's
# translation units).
configure() { # configure PRESET
    local flags=()
    [[ $1 != default ]] || flags=(-DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG")
    cmake --preset "$1" -DRLOCK_BUILD_TESTS=ON "${flags[@]}" "${launcher[@]}" >/dev/null
}
# idle COMMAND...: COMMAND in a session and process group of its own (its pid the group's), at the
# lowest priority. A session of its own is a scheduling group of its own too (the kernel's
# autogroup), which shares the CPU equally with the others whatever its processes' nice: the group's
# own nice (/proc/PID/autogroup) makes it take only what the rest leaves.
idle() {
    setsid -w bash -c 'echo 19 >/proc/self/autogroup 2>/dev/null; exec nice -n 19 "$@"' idle "$@"
}
# normal PID: the idle group PID back at the normal priority (root only; otherwise it stays idle).
normal() {
    echo 0 >"/proc/$1/autogroup" 2>/dev/null || true
    renice -n 0 -g "$1" >/dev/null 2>&1 || true
}
configure "$preset"
if [[ $preset == default ]]; then
    # The sanitized build runs meanwhile, idle (the CPU the installs and the tests leave; the tests
    # mostly wait on servers, TTLs and pauses), in a process group that on_exit can stop, and back
    # at the normal priority once the tests end. Only what the sanitized steps run: the integration
    # tests' binaries are not built. Once it is built, the fuzz targets run idle too, a fixed count
    # of inputs each with one seed: the same inputs each run however busy the machine, a finding
    # never luck.
    configure asan
    idle cmake --build --preset asan -j "$(nproc)" --target rlock rlock_unit_tests rlock_fuzzers \
        >build-asan/build.log 2>&1 &
    asan_build=$!
    idle bash -c 'tail --pid="$0" -f /dev/null && RLOCK_FUZZ_SEED=1 exec scripts/fuzz.sh --runs 150000' \
        "$asan_build" >build-asan/fuzz.log 2>&1 &
    fuzzers=$!
fi
cmake --build --preset "$preset" -j "$(nproc)"
wait "$clients_install" && clients=0 || clients=$?
clients_install=""
cat "$clients_log" >&2
((clients == 0)) || die "installing the lock clients failed (scripts/clients.sh install)"
if [[ -z ${REDIS_URL:-} || -z ${DATABASE_URL:-} || -z ${ETCD_ENDPOINT:-} || -z ${ZOOKEEPER_CONNECT:-} ||
    -z ${HAZELCAST_MEMBERS:-} ]]; then
    # status names hazelcast only while it runs.
    if ! status=$(scripts/services.sh status 2>/dev/null) || ! grep -q '^hazelcast  *running' <<<"$status"; then
        # The exports below would make services.sh take them for external servers; given ones stay.
        [[ -n ${REDIS_URL:-} && -n ${DATABASE_URL:-} ]] || given+=(-u REDIS_URL -u DATABASE_URL)
        stop_services=true
    fi
    exports=$(scripts/services.sh up redis postgres etcd zookeeper hazelcast)
    eval "$exports"
fi

ctest --preset "$preset" -j "$(nproc)"
if [[ $preset == default ]]; then
    normal "$asan_build"
    wait "$asan_build" || { tail -n 40 build-asan/build.log >&2; die "the asan build failed (log: build-asan/build.log)"; }
    asan_build=""
    ctest --preset asan -j "$(nproc)" -LE integration
    ctest --preset asan -R '^lab[13]$'
    normal "$fuzzers"
    wait "$fuzzers" && fuzzed=0 || fuzzed=$?
    fuzzers=""
    cat build-asan/fuzz.log
    ((fuzzed == 0)) || die "the fuzz targets found a failure or did not run (log above: build-asan/fuzz.log)"
fi
