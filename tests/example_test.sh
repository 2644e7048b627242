#!/usr/bin/env bash
# The lock library as another program uses it: installed from the build tree to a temporary prefix,
# examples/ configured and built against it as a CMake project of its own, its `lease` run against
# $REDIS_URL, and its binary checked to link neither libpq nor libpqxx. examples/ is built by the
# compiler that built the library: a sanitized library passes on its -fsanitize flags, clang's.
# Usage: example_test.sh BUILD_DIR CXX_COMPILER
set -uo pipefail
build=$1 cxx=$2
source "$(dirname "$0")/checks.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
prefix=$work/prefix
lease=$work/examples/lease
resource=example_test:lease

step() { # step LOG COMMAND...: runs COMMAND quietly, shows its output when it fails
    local log=$1; shift
    "$@" >"$work/$log" 2>&1 || { cat "$work/$log"; return 1; }
}
step install.log cmake --install "$build" --prefix "$prefix" || { echo "FAIL: install"; exit 1; }
step configure.log cmake -S "$root/examples" -B "$work/examples" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CXX_COMPILER="$cxx" \
    || { echo "FAIL: configure examples/ against the installed package"; exit 1; }
step build.log cmake --build "$work/examples" || { echo "FAIL: build examples/"; exit 1; }

check "rlockConfig.cmake is installed" test -n "$(find "$prefix" -name rlockConfig.cmake)"
check "no header of src/ is installed" test ! -e "$prefix/include/lab"
needed=$(readelf -d "$lease" | grep NEEDED)
check "lease links no libpq" bash -c '! grep -q "libpq\." <<<"$1"' _ "$needed"
check "lease links no libpqxx" bash -c '! grep -q "libpqxx" <<<"$1"' _ "$needed"
check "lease maps no libpq at run time" bash -c '! ldd "$1" | grep -q "libpq"' _ "$lease"

redis-cli -u "$REDIS_URL" DEL "$resource" >/dev/null
"$lease" "$REDIS_URL" "$resource" >"$work/out.txt" 2>&1
check "lease exits 0" test $? -eq 0
printf '%s: acquired for 2 s\n%s: still held at release\n' "$resource" "$resource" >"$work/expected.txt"
check "lease prints what it did" diff "$work/expected.txt" "$work/out.txt"
check "the lock is released" test -z "$(redis-cli -u "$REDIS_URL" GET "$resource")"

redis-cli -u "$REDIS_URL" SET "$resource" someone-else PX 30000 >/dev/null
"$lease" "$REDIS_URL" "$resource" >"$work/busy.txt" 2>&1
check "a held resource: lease gives up at its deadline, exit 1" test $? -eq 1
check "... and says so" grep -qx "$resource: still busy after 5 s, not acquired" "$work/busy.txt"
redis-cli -u "$REDIS_URL" DEL "$resource" >/dev/null
cat "$work/out.txt"
finish
