#!/usr/bin/env bash
# lost-reply on real servers, through the shipped adapters (scripts/test.sh installs them): at the
# first holder's release step, the server applies the release and the client hears no answer.
# redis-py's Lock on Redis and etcd's Go Mutex on one kept session (etcd-mutex-session), 2 trials
# each at a TTL of 10 s: every trial struck; each holder's release ended in a connection error
# (its done, read from the client's stdout); and each trial ended within one TTL, so the next
# holder did not wait for the lock to expire (redis-py) or for the adapter's retry of the release
# one TTL later (etcd): the server had applied the release whose answer was lost. The built-in
# strategies are n/a, with their reason. Then lost-request, its counterpart, at a TTL of 2 s: every
# trial struck, and each release heard a reset.
set -uo pipefail
rlock=$1
root=$(cd "$(dirname "$0")/.." && pwd)
source "$(dirname "$0")/checks.sh"
: "${ETCD_ENDPOINT:?ETCD_ENDPOINT is not set: run the tests through scripts/test.sh}"
cd "$root" || exit 1

# A catalogue of the two adapters whose stdout is also written to $work/NAME.out.
mkdir -p "$work/catalogue/teed"
ln -s "$root/clients/etcd-mutex/bin" "$work/catalogue/teed/bin"
cat >"$work/catalogue/teed/client.json" <<JSON
{"library": "redis-py and etcd's Mutex, their answers kept", "installed": "bin/etcd-mutex", "clients": [
  {"name": "redis-py-teed", "command": "/usr/bin/python3 $root/clients/redis-py-lock/client.py | tee -a $work/redis-py-teed.out",
   "server": "redis", "safe": false, "models": "redis-py's Lock"},
  {"name": "etcd-session-teed", "command": "{dir}/bin/etcd-mutex --session | tee -a $work/etcd-session-teed.out",
   "server": "etcd", "safe": false, "models": "concurrency.Mutex on one kept session"}]}
JSON

# struck FAULT TTL: a campaign of both adapters under FAULT, 2 trials each at TTL ms, on a data
# directory of its own: it exits 0, ttl is n/a, and each adapter's two trials were struck, with no
# client error and a reset heard by each release. Sets $run, the stored run.
struck() {
    local fault=$1 ttl=$2 rc client lost
    rm -f "$work"/*-teed.out
    RLOCK_CLIENTS_DIR=$work/catalogue "$rlock" --dir "$work/$fault" chaos --seed 1 --strategies ttl --ttl "$ttl" \
        --jobs 2 --faults "$fault" --trials 2 --client redis-py-teed --client etcd-session-teed --json "$work/table.json" \
        >"$work/out.txt" 2>"$work/err.txt"
    rc=$?
    grep -v '^chaos: [0-9]*/' "$work/out.txt" "$work/err.txt"
    check "chaos under $fault exits 0 (got $rc)" test $rc -eq 0
    check "ttl under $fault is n/a: no release step announced" \
        grep -q "^ttl  *$fault  *no  *n/a: no release step announced" "$work/out.txt"
    run=$(sed -n 's#^chaos: report: \(.*\)/report.html$#\1#p' "$work/err.txt" "$work/out.txt" | head -1)
    for client in redis-py-teed etcd-session-teed; do
        check "$client ran 2 trials under $fault" test "$(chaos_cell $client "$fault" trials)" -eq 2
        check "$fault struck both trials of $client" test "$(chaos_cell $client "$fault" struck)" -eq 2
        check "$client had no client error under $fault" test "$(chaos_cell $client "$fault" client_error)" -eq 0
        lost=$(grep -c '"release: .*[Cc]onnection reset by peer' "$work/$client.out")
        check "$client's release heard a reset, not an answer, in both trials under $fault (got $lost)" test "$lost" -eq 2
    done
}
# slow_trials CLIENT TTL: the numbers of $run's trials of CLIENT that took TTL ms or more.
slow_trials() {
    gzip -dc "$run/trials.jsonl.gz" | ROW=$1 TTL=$2 perl -MJSON::PP -ne \
        '$t = decode_json($_); print "$t->{number} " if $t->{row} eq $ENV{ROW} && $t->{ms} >= $ENV{TTL}'
}

# redis-py releases by EVALSHA: on a Redis that never ran its script, the answer lost would be
# NOSCRIPT's, and the release never sent (a lost request, not a lost reply). One trial under none
# first leaves the script on the shared Redis, as any service's first release does.
RLOCK_CLIENTS_DIR=$work/catalogue "$rlock" --dir "$work/warm" chaos --seed 1 --strategies none --faults none \
    --trials 1 --client redis-py-teed >/dev/null 2>&1
check "a trial of redis-py under none exits 0 (got $?)" test $? -eq 0
struck lost-reply 10000
for client in redis-py-teed etcd-session-teed; do
    slow=$(slow_trials $client 10000)
    check "$client's trials ended within a TTL: the server applied the lost release (slow: $slow)" test -z "$slow"
done
# lost-request: the same clients, their release never sent on (that the server never applies it,
# host/fault_proxy_test checks: the trial's time says nothing here, as the holder struck need not
# be the first to lock, and no other then waits for its lock).
struck lost-request 2000
finish
