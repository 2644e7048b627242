#!/usr/bin/env bash
# A client's command with passwords in it (--password X, -a X, --auth X, --requirepass=X, a URL's
# user:password@, REDISCLI_AUTH=X, PGPASSWORD=X and the like) runs as
# given, and no file of the campaign (run.json, the trials, chaos.json, the report, a kept trial)
# nor its output holds them: each is written ***, as docs/chaos.md says.
# Usage: client_secrets_test.sh RLOCK_BINARY. One trial a client under none, on chaos's accounts.
set -uo pipefail
rlock=$1
source "$(dirname "$0")/checks.sh"
lab=$work/lab
# The client: rlock's own ttl strategy over the protocol, whatever its arguments.
printf 'import os\nos.execv("%s", ["rlock", "client", "--strategy", "ttl"])\n' "$rlock" >"$work/c.py"

"$rlock" --dir "$lab" chaos --seed 1 --account 330000 --strategies none --faults none --trials 1 --jobs 2 --json "$work/table.json" \
    --client "x=python3 $work/c.py --password hunter2 -a s3cret redis://u:pwq7z@h/" \
    --client "gone=python3 $work/gone.py --pass hunter2 --password=s3cret" \
    --client "env=env REDISCLI_AUTH=authq8 PGPASSWORD=pgq9 PG_PASSWORD=pgr1 python3 $work/c.py --auth autr2 --requirepass=reqs3" \
    >"$work/out.txt" 2>"$work/err.txt"
rc=$?
check "the campaign exits 0 (got $rc)" test $rc -eq 0 || cat "$work/err.txt"
check "the client with passwords in its command ran its trial" test "$(chaos_cell x none trials)" -eq 1
check "its trial had no client error" test "$(chaos_cell x none client_error)" -eq 0
check "the client that cannot start is a client error" test "$(chaos_cell gone none client_error)" -eq 1
run=$(ls -d "$lab"/chaos/runs/*-seed1)
check "run.json keeps the command, each password ***" \
    grep -qF "\"python3 $work/c.py --password *** -a *** redis://u:***@h/\"" "$run/run.json"
check "the command line in run.json too" grep -qF "x=python3 $work/c.py --password *** -a *** redis://u:***@h/" "$run/run.json"
check "the run holds its trials and its report" test -s "$run/trials.jsonl.gz" -a -s "$run/report.html"
check "the failed client's trial is kept" bash -c "ls -d '$lab'/chaos/trials/gone-none-* >/dev/null 2>&1"
check "a variable's and --auth's secrets are *** in run.json" grep -qF \
    "env REDISCLI_AUTH=*** PGPASSWORD=*** PG_PASSWORD=*** python3 $work/c.py --auth *** --requirepass=***" "$run/run.json"
for secret in hunter2 s3cret pwq7z authq8 pgq9 pgr1 autr2 reqs3; do
    check "no file of the data directory holds $secret" bash -c "! grep -rqa '$secret' '$lab'"
    check "no compressed file holds $secret" \
        bash -c "! find '$lab' -name '*.gz' -exec gzip -dc {} + | grep -qa '$secret'"
    check "rlock's output does not show $secret" bash -c "! grep -qa '$secret' '$work/out.txt' '$work/err.txt'"
done
finish
