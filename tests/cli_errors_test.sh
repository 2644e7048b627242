#!/usr/bin/env bash
# Bad input gets one clear line on stderr and a meaningful exit code: never a crash, a hang or a
# stack trace. Usage: cli_errors_test.sh RLOCK_BINARY. The Redis and PostgreSQL of scripts/test.sh
# are used where a case needs a working server (REDIS_URL, DATABASE_URL).
set -uo pipefail
rlock=$1
: "${REDIS_URL:?REDIS_URL is not set: run the tests through scripts/test.sh}"
: "${DATABASE_URL:?DATABASE_URL is not set: run the tests through scripts/test.sh}"
work=$(mktemp -d)
listener=
trap 'rm -rf "$work"; [[ -z $listener ]] || kill "$listener" 2>/dev/null' EXIT
export RLOCK_DIR=$work/lab
passed=0 failed=0

# expect CODE REGEX -- ARGS...: rlock ARGS exits with CODE within 20 s and prints exactly one
# stderr line that matches REGEX.
expect() {
    local code=$1 regex=$2; shift 3
    local err=$work/stderr rc lines
    timeout 20 "$rlock" "$@" >/dev/null 2>"$err"; rc=$?
    lines=$(wc -l <"$err")
    if [[ $rc -eq $code && $lines -eq 1 ]] && grep -Eq "$regex" "$err" && grep -q '^rlock: error: ' "$err"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL: rlock $* -> exit $rc (want $code), $lines stderr line(s), want /$regex/:"
        sed 's/^/    /' "$err"
    fi
}
check() { # check NAME COMMAND...: a plain assertion
    local name=$1; shift
    if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $name"; fi
}

# Arguments: usage errors exit 2.
expect 2 'AMOUNT'               -- worker A abc
expect 2 'ttl'                  -- worker A 30 --ttl abc
expect 2 'ttl'                  -- worker A 30 --ttl 0
expect 2 'NAME'                 -- worker ../x 30
expect 2 'NAME'                 -- worker host 30
expect 2 'fenced'               -- worker A 30 --retry
expect 2 'SIGNAL|STOP'          -- sig KILL A
expect 2 'lang|ko'              -- --lang fr showlog
expect 2 'redis://'             -- --redis http://127.0.0.1:6379 reset
expect 2 'port'                 -- --redis redis://127.0.0.1:99999 reset
expect 2 'expect'               -- verdict
expect 2 "unknown subcommand 'nope'" -- nope
expect 2 "unknown subcommand 'chaso': did you mean 'chaos'\\?" -- chaso
expect 2 "unknown subcommand 'frobnicate' \\(rlock help lists them\\)$" -- frobnicate
expect 2 "unknown subcommand 'chaso': did you mean 'chaos'\\?" -- help chaso
expect 2 'a subcommand is required' --
expect 2 'see rlock chaos --help'   -- chaos --trials 0
expect 2 'see rlock worker --help'  -- worker A abc
expect 2 'see rlock showlog --help' -- --lang fr showlog
expect 2 'no-such-option.*see rlock --help' -- --no-such-option
expect 2 'unknown strategy .redlok.' -- chaos --strategies ttl,redlok
expect 2 'unknown fault .crash.'     -- chaos --faults crash
expect 2 'trials'                   -- chaos --trials 0
expect 2 'claim-fence|fenced'       -- worker A 30 --claim-fence
expect 2 'wait'                     -- worker A 30 --wait sometimes
expect 2 "wait: 'sometimes' is not one of handoff\\|notify\\|poll\\|queue" -- chaos --wait sometimes
expect 2 'trials: 0 is not in 1 to '   -- chaos --trials 0
expect 2 'start-in: 4000 is not in 0 to 3600 ' -- reset --start-in 4000
expect 2 'failover-port 6596 and --redlock-port 6591 overlap with 3 jobs: the failover servers take ports 6596 to 6601, the Redlock ones 6591 to 6599$' \
    -- chaos --jobs 3 --failover-port 6596 --redlock-port 6591
expect 2 'seconds'                  -- bench --seconds 0
expect 2 'clients'                  -- bench --clients 1
expect 2 'seconds'                  -- bench --seconds abc
expect 2 'at least 3 servers'       -- worker A 30 --redlock redis://127.0.0.1:6461,redis://127.0.0.1:6462
expect 2 'fenced|redlock'           -- worker A 30 --fenced --redlock redis://a,redis://b,redis://c
expect 2 'redis://'                 -- worker A 30 --redlock redis://a,http://b,redis://c
expect 2 'width'                    -- timeline --width 10

# Arguments are read before any server is asked: with no server named and none where the project's
# own would be, each mistake gets its own line, naming the flag typed and only the values it takes.
alone() { REDIS_URL= DATABASE_URL= ETCD_ENDPOINT= ZOOKEEPER_CONNECT= RLOCK_REDIS_PORT=1 RLOCK_PG_PORT=2 RLOCK_ETCD_PORT=3 RLOCK_ZOOKEEPER_PORT=4 "$@"; }
alone expect 2 '^rlock: error: --faults: unknown fault .nope. \(known: none,pause,slow,kill,[a-z,-]*\)$' -- chaos --faults nope
alone expect 2 "^rlock: error: --client 'foo': no shipped client of that name \\(shipped: [^)]*\\); or give NAME=COMMAND$" -- chaos --client foo
alone expect 2 '^rlock: error: --shard 3/2: out of range: N from 1 to [0-9]+, K from 1 to N$' -- chaos --shard 3/2
alone expect 2 "^rlock: error: --strategies: 'ttl' is named twice$" -- chaos --strategies ttl,ttl
alone expect 2 '^rlock: error: --client-safe x: no --client of that name$' -- chaos --client-safe x
alone expect 2 "^rlock: error: --strategies: 'ttl' is named twice$" -- bench --strategies ttl,ttl
alone expect 2 "^rlock: error: --strategy: unknown strategy 'nope' \\(known: ttl,watchdog,fenced,fenced-retry,fenced-claim\\)$" \
    -- explore --strategy nope
alone expect 2 "^rlock: error: --strategy: 'redlock' is not one of ttl,watchdog,fenced,fenced-retry,fenced-claim$" \
    -- explore --strategy redlock
alone expect 2 "^rlock: error: --run-dir $work: already there; name a new directory$" -- explore --strategy ttl --run-dir "$work"
# CLI11's own phrases in the project's words, with the nearest option's name.
alone expect 2 "^rlock: error: unknown option '--trial': did you mean '--trials'\\? \\(see rlock chaos --help\\)$" -- chaos --trial 5
alone expect 2 "^rlock: error: unknown option '--redsi': did you mean '--redis'\\? \\(see rlock chaos --help\\)$" -- --redsi x chaos
alone expect 2 "^rlock: error: unknown option '--nope' \\(see rlock chaos --help\\)$" -- chaos --nope
alone expect 2 "^rlock: error: unexpected argument 'foo' \\(see rlock chaos --help\\)$" -- chaos foo
alone expect 2 "^rlock: error: --seed: 'abc' is not a value it takes \\(see rlock chaos --help\\)$" -- chaos --seed abc
alone expect 2 '^rlock: error: --seed: its value is missing \(UINT\) \(see rlock chaos --help\)$' -- chaos --seed
alone expect 2 '^rlock: error: --trials: given 2 times, at most 1 \(see rlock chaos --help\)$' -- chaos --trials 1 --trials 2
alone expect 2 "^rlock: error: --account: '-3' is not a number above 0 \\(see rlock bench --help\\)$" -- bench --account -3
# rlock clients without a catalogue says where it looked.
mkdir "$work/no-clients"
for dir in "$work/no-clients" "$work/missing"; do
    RLOCK_CLIENTS_DIR=$dir alone expect 2 "^rlock: error: no client catalogue in $dir, which RLOCK_CLIENTS_DIR names: " -- clients
done

# Servers that are not there: exit 1 naming the address, and never the password.
expect 1 'Redis at 127\.0\.0\.1:1: .*refused'              -- --redis redis://:hunter2@127.0.0.1:1/0 reset
check "the Redis password is never printed" bash -c "! grep -q hunter2 '$work/stderr'"
expect 1 'PostgreSQL at 127\.0\.0\.1:1/bank: .*refused'    -- --db postgresql://u:hunter2@127.0.0.1:1/bank reset
check "the PostgreSQL password is never printed" bash -c "! grep -q hunter2 '$work/stderr'"
# Redlock with no server answering gives up after 5 s, naming each server and why.
"$rlock" --dir "$work/redlock" reset --account 9801 >/dev/null
expect 1 'Redlock: only 0 of 3 servers answered for 5 s .*127\.0\.0\.1:1: .*refused.*127\.0\.0\.1:3: .*refused' \
    -- --dir "$work/redlock" worker A 1 --account 9801 --redlock redis://:hunter2@127.0.0.1:1,redis://127.0.0.1:2,redis://127.0.0.1:3
check "a Redlock server's password is never printed" bash -c "! grep -q hunter2 '$work/stderr'"
# A socket that accepts connections but never answers: both clients give up on their own.
port_file=$work/port
perl -MIO::Socket::INET -e '$s = IO::Socket::INET->new(Listen => 5, LocalAddr => "127.0.0.1", LocalPort => 0) or die;
    open(F, ">", $ARGV[0]); print F $s->sockport, "\n"; close F; sleep 60' "$port_file" &
listener=$!
for _ in $(seq 100); do [[ -s $port_file ]] && break; sleep 0.05; done
silent=$(cat "$port_file")
expect 1 "Redis at 127\\.0\\.0\\.1:$silent.*(answer|timeout)"    -- --redis "redis://127.0.0.1:$silent" reset
expect 1 "PostgreSQL at 127\\.0\\.0\\.1:$silent/bank: .*timeout" -- --db "postgresql://postgres@127.0.0.1:$silent/bank" reset

# The data directory and its files.
expect 1 'no run started'          -- worker A 30
expect 1 'no log in'               -- showlog
touch "$work/file"
expect 1 'data directory'           -- --dir "$work/file/lab" reset
expect 1 'data directory'           -- --dir /proc/rlock-lab reset
"$rlock" reset --start-in 0 --account 9900 >/dev/null || { echo "FAIL: reset"; failed=$((failed + 1)); }
expect 1 'no log in'               -- showlog
expect 1 'no log in .*events\.jsonl does not exist' -- timeline
: >"$RLOCK_DIR/events.jsonl"
expect 1 'no events recorded'      -- showlog
expect 1 'no events recorded'      -- timeline
echo '{"t":0.1,"who":"A","event":"busy","retry_s":0.1}' >"$RLOCK_DIR/events.jsonl"
expect 1 'cannot write /proc/x\.svg' -- timeline --out /proc/x.svg
check "the timelines that failed wrote nothing" test ! -e "$RLOCK_DIR/timeline.svg"
: >"$RLOCK_DIR/events.jsonl"
expect 1 'worker Z has not run'    -- sig STOP Z
sleep 30 & sleeper=$!               # alive, but not a worker: a reused pid
echo "$sleeper" >"$RLOCK_DIR/.pid_S"
expect 1 'worker S is not running' -- sig STOP S
kill "$sleeper"; wait "$sleeper" 2>/dev/null
expect 1 'worker S is not running' -- sig CONT S  # gone altogether
echo '{"t":0.1,"who":"A"' >>"$RLOCK_DIR/events.jsonl"
expect 1 'events.jsonl line 1'     -- showlog

# rlock netns (as root, as CI runs): a leftover of a dead owner, marked as rlock marks the namespaces
# it creates, is removed, and an unmarked one of the same kind of name is not; without root, one line.
expect 2 'cleanup'                 -- netns clean
ip netns add rlock-999999999-0     # pid 999999999 cannot run: a crashed run's namespace
mkdir -p /run/rlock/netns
echo "999999999 $(stat -c '%d %i' /run/netns/rlock-999999999-0)" >/run/rlock/netns/rlock-999999999-0
ip netns add rlock-999999998-0     # named as rlock names them, but not created by it
check "rlock netns cleanup removes a crashed run's namespace" \
    bash -c "'$rlock' netns cleanup | grep -q 'removed network namespace rlock-999999999-0' && ! ip netns list | grep -q rlock-999999999"
check "rlock netns cleanup leaves a namespace it did not create" bash -c "ip netns list | grep -q rlock-999999998-0"
ip netns del rlock-999999998-0
mkdir -p "$work/bin" && cp "$rlock" "$work/bin/rlock" && chmod 755 "$work" "$work/bin"  # for nobody to run
printf '#!/bin/sh\nexec setpriv --reuid=65534 --regid=65534 --clear-groups %s "$@"\n' "$work/bin/rlock" >"$work/bin/as-nobody"
chmod 755 "$work/bin/as-nobody"
rlock_as_root=$rlock rlock=$work/bin/as-nobody
expect 1 'netns needs root'        -- netns cleanup
rlock=$rlock_as_root

# The subcommands that change data refuse servers not named (flag or environment) unless they are
# the project's own, in one line saying how to start those or name one's own.
for sub in reset chaos bench; do
    REDIS_URL= DATABASE_URL= expect 2 "rlock $sub changes data.*services\\.sh up.*--redis and --db" -- "$sub"
    DATABASE_URL= expect 2 "rlock $sub changes data, and no PostgreSQL was named" -- "$sub"
done
REDIS_URL= expect 2 "rlock redis changes data, and no Redis was named" -- redis cont
# A PostgreSQL of one's own without the table: reset creates it (init.sql) in the schema named.
schema=rlock_cli_errors_$$
psql -X -q "$DATABASE_URL" -c "CREATE SCHEMA $schema" >/dev/null
check "reset creates the accounts table where it is missing" bash -c "'$rlock' --db '$DATABASE_URL?options=-csearch_path%3D$schema' reset --account 3 >/dev/null &&
    [[ \$(psql -X -tA '$DATABASE_URL' -c 'SELECT balance FROM $schema.accounts WHERE id = 3') == 100 ]]"
psql -X -q "$DATABASE_URL" -c "SET client_min_messages = warning; DROP SCHEMA $schema CASCADE" >/dev/null

# Runs go to the user's state directory unless --dir or RLOCK_DIR says otherwise, never to the
# directory rlock was started from.
(cd "$work" && env -u RLOCK_DIR HOME="$work/home" XDG_STATE_HOME= "$rlock" reset --start-in 0 --account 9901 >/dev/null)
check "reset without --dir keeps its run in ~/.local/state/rlock" test -f "$work/home/.local/state/rlock/.start"
check "reset without --dir writes nothing where it was started" test ! -e "$work/.start"

# --version, -V and help.
check "rlock --version: version, commit, libraries, servers" bash -c "timeout 10 '$rlock' --version >'$work/version' &&
    grep -q '^rlock [0-9][0-9.]* (commit [0-9a-f]' '$work/version' && grep -q '^hiredis [0-9.]*, libpqxx [0-9.]*$' '$work/version' &&
    grep -q '^redis  *[0-9.]* at ' '$work/version' && grep -q '^postgresql  *[0-9.]* at ' '$work/version' && grep -q '^etcd ' '$work/version'"
check "rlock -V is rlock --version" bash -c "timeout 10 '$rlock' -V | grep -q '^rlock [0-9]'"
check "rlock --version gives up on servers that do not answer within seconds" bash -c "
    start=\$(date +%s); ETCD_ENDPOINT=127.0.0.1:$silent ZOOKEEPER_CONNECT=127.0.0.1:$silent timeout 10 '$rlock' --redis redis://127.0.0.1:$silent --db postgresql://postgres@127.0.0.1:$silent/bank --version >'$work/version' &&
    ((\$(date +%s) - start <= 4)) && [[ \$(grep -c 'not found at 127.0.0.1:$silent' '$work/version') -eq 4 ]]"
# Without servers named, the project's own ports (scripts/services.sh's, or RLOCK_*_PORT).
check "rlock --version probes the project's ports, ZooKeeper too, and lists the installed adapters" bash -c "
    env -u REDIS_URL -u DATABASE_URL -u ETCD_ENDPOINT -u ZOOKEEPER_CONNECT RLOCK_REDIS_PORT=1 RLOCK_PG_PORT=2 RLOCK_ETCD_PORT=3 RLOCK_ZOOKEEPER_PORT=4 \
        RLOCK_CLIENTS_DIR='$work/no-clients' timeout 10 '$rlock' --version >'$work/version' &&
    grep -q '^redis       not found at 127\.0\.0\.1:1: ' '$work/version' && grep -q '^postgresql  not found at 127\.0\.0\.1:2/bank: ' '$work/version' &&
    grep -q '^etcd        not found at 127\.0\.0\.1:3 ' '$work/version' && grep -q '^zookeeper   not found at 127\.0\.0\.1:4 ' '$work/version' &&
    grep -q '^adapters    none found in $work/no-clients$' '$work/version'"
check "rlock --version's default ports are scripts/services.sh's" bash -c "
    env -u REDIS_URL -u DATABASE_URL -u ETCD_ENDPOINT -u ZOOKEEPER_CONNECT -u RLOCK_REDIS_PORT -u RLOCK_PG_PORT -u RLOCK_ETCD_PORT -u RLOCK_ZOOKEEPER_PORT \
        timeout 10 '$rlock' --version >'$work/version' &&
    grep -q '^redis .* at 127\.0\.0\.1:6391' '$work/version' && grep -q '^postgresql .* at 127\.0\.0\.1:5441/bank' '$work/version' &&
    grep -q '^etcd .* at 127\.0\.0\.1:2391' '$work/version' && grep -q '^zookeeper .* at 127\.0\.0\.1:2481' '$work/version' &&
    grep -q '^adapters    .*(rlock clients lists them all)$' '$work/version'"
check "rlock help lists the subcommands" bash -c "'$rlock' help | grep -q '^  worker '"
check "rlock help chaos is chaos's help" bash -c "'$rlock' help chaos | grep -q -- '--faults'"
check "enum options show their names alone" bash -c "! '$rlock' worker --help | grep -q -- '->' && '$rlock' worker --help | grep -q 'advisory|atomic|row-lock'"
check "--wait's default is shown by name" bash -c "'$rlock' chaos --help | grep -q 'notify|poll|queue=poll'"
check "numbers are shown as people write them" bash -c "! '$rlock' reset --help | grep -q '0\\.000000' && '$rlock' reset --help | grep -q '0 to 3600'"

# Help is not an error.
check "rlock --help lists the subcommands" bash -c "'$rlock' --help | grep -q worker"
check "rlock worker --help shows --fenced" bash -c "'$rlock' worker --help | grep -q -- --fenced"
check "rlock --help lists bench" bash -c "'$rlock' --help | grep -q bench"
check "rlock --help ends with the exit codes, 2 a bad argument and 4 an unexpected anomaly" bash -c "'$rlock' --help | grep -q '^  2    a bad argument' && '$rlock' --help | grep -q '^  4    chaos: an anomaly where none was expected'"
check "rlock --help's exit codes have 5, the harness lost a server" bash -c "'$rlock' --help | grep -q '^  5    chaos: the harness lost a server'"

echo "cli errors: $passed passed, $failed failed"
echo "$passed passed, $failed failed"
((failed == 0))
