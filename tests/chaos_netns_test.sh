#!/usr/bin/env bash
# rlock chaos --netns (root): partition as nftables rules between network namespaces. The plain
# TTL lock and the watchdog lose money in some trials and fenced-claim in none; afterwards no
# namespace of the labs, no marker, no nftables table rlock and no Redis of the labs is left, while a
# user's namespace named rlock-vpn, and the process in it, survive the run and `rlock netns cleanup`.
# Without root it says so in one line, exit 1; a fault it does not run, in one line, exit 2.
set -uo pipefail
rlock=$1
source "$(dirname "$0")/checks.sh"
if [ "$(id -u)" -ne 0 ]; then echo "chaos_netns: needs root (CI is root); skipped"; exit 0; fi

# The user's own namespace, with a process in it: rlock did not create it, so it is not rlock's.
ip netns add rlock-vpn
ip netns exec rlock-vpn sleep 120 &
vpn=$!
trap 'kill $vpn 2>/dev/null; ip netns del rlock-vpn 2>/dev/null; rm -rf "$work"' EXIT

"$rlock" --dir "$work" chaos --netns --seed 1 --jobs 2 --faults partition --strategies ttl,watchdog,fenced-claim \
    --trials 4 --json "$work/table.json" >"$work/out.txt" 2>"$work/err.txt"
rc=$?
cat "$work/out.txt"
check "chaos --netns exits 0 (got $rc)" test $rc -eq 0
for s in ttl watchdog; do check "$s under a real partition lost money" test "$(chaos_cell $s partition lost_amount)" -gt 0; done
check "fenced-claim under a real partition shows none" test "$(chaos_cell fenced-claim partition anomalies)" -eq 0
check "fenced-claim ran its trials" test "$(chaos_cell fenced-claim partition trials)" -eq 4
check "no namespace of the labs is left" bash -c "! ip netns list | grep -q '^rlock-[0-9]'"
check "no marker is left" bash -c "test -z \"\$(ls -A /run/rlock/netns 2>/dev/null)\""
check "no nftables table rlock is left" bash -c "! nft list ruleset | grep -q 'table .* rlock'"
check "no lab Redis is left" bash -c "! pgrep -f 'redis-server 127[.]77[.]' >/dev/null"

"$rlock" netns cleanup >/dev/null 2>&1
rc=$?
check "netns cleanup exits 0 (got $rc)" test $rc -eq 0
check "the user's rlock-vpn survives the run and the cleanup" bash -c "ip netns list | grep -q '^rlock-vpn'"
check "the process in rlock-vpn survives them" bash -c "test -e /proc/$vpn && ! grep -q '^[^)]*) Z' /proc/$vpn/stat"

"$rlock" --dir "$work" chaos --netns --faults delayed-write --trials 1 >/dev/null 2>"$work/err.txt"
rc=$?
check "a fault --netns does not run exits 2 in one line (got $rc)" \
    bash -c "test $rc -eq 2 && test \$(wc -l <'$work/err.txt') -eq 1 && grep -q 'netns' '$work/err.txt'"

chmod o+rx "$work"
setpriv --reuid=nobody --regid=nogroup --clear-groups "$rlock" --dir "$work/nobody" chaos --netns --faults partition \
    --trials 1 >/dev/null 2>"$work/err.txt"
rc=$?
check "without root: exit 1 (got $rc)" test $rc -eq 1
check "without root: one line saying so" bash -c "test \$(wc -l <'$work/err.txt') -eq 1 && grep -q 'needs root' '$work/err.txt'"
finish
