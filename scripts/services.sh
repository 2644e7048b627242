#!/usr/bin/env bash
# Runs a private Redis, PostgreSQL, etcd and ZooKeeper for the rlock lab, without Docker. Needs Debian
# (or a derivative) with apt: installs, as root or through sudo, those of redis-server, postgresql,
# etcd-server, etcd-client, zookeeper and iproute2 that are missing.
#   scripts/services.sh up [SERVICE...]   starts them (SERVICE: redis, postgres, etcd, zookeeper, hazelcast;
#                                         all but hazelcast by default)
#   scripts/services.sh down              stops them
#   scripts/services.sh status            which run (exit 3 unless all of them)
#   eval "$(scripts/services.sh env)"     exports REDIS_URL, DATABASE_URL, PG_ENDPOINT, PGPASSFILE, ETCD_ENDPOINT,
#                                         ZOOKEEPER_CONNECT (and HAZELCAST_MEMBERS while they run)
# Progress goes to stderr and the exports to stdout, so `eval "$(... up)"` works too.
# Ports, all on 127.0.0.1: RLOCK_REDIS_PORT (6391), RLOCK_PG_PORT (5441), RLOCK_ETCD_PORT (2391, and
# the next one for its peers), RLOCK_ZOOKEEPER_PORT (2481), RLOCK_HAZELCAST_PORT (5741, and the next two
# for the other members). Their data, logs and PostgreSQL's password
# (in the pgpass file that PGPASSFILE names) stay in RLOCK_STATE_DIR (/tmp/rlock-services), a directory
# of this user's that no other user can write or list: one owned by another user, writable by others,
# or holding a symbolic link is refused (exit 2).
# A server is used or stopped only when it is the one this script started, proven through the server
# itself; whatever else answers on a port is left alone, and `up` then fails (exit 1) naming the port.
# If REDIS_URL and DATABASE_URL are both set already, those servers are used as is; so is etcd when
# ETCD_ENDPOINT (HOST:PORT) is set, ZooKeeper when ZOOKEEPER_CONNECT (HOST:PORT) is, and Hazelcast when
# HAZELCAST_MEMBERS (HOST:PORT,...) is. etcd, ZooKeeper and Hazelcast serve only the lock clients that use
# them (clients/etcd-*, clients/curator-mutex, clients/hazelcast-lock, whose jar runs the members).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

REDIS_PORT=${RLOCK_REDIS_PORT:-6391}
PG_PORT=${RLOCK_PG_PORT:-5441}
REDIS_DIR=$STATE/redis
REDIS_CONF=$REDIS_DIR/redis.conf
PG_DIR=$STATE/pg            # owned by postgres when run as root; the Unix socket lives here too
PG_DATA=$PG_DIR/data
PG_LOG=$PG_DIR/postgres.log
PG_ID=$PG_DIR/rlock-id      # also the comment on the cluster's database postgres
PG_PASS=$STATE/pgpass       # the password of the user postgres, in libpq's pgpass format
ETCD_PORT=${RLOCK_ETCD_PORT:-2391}
ETCD_PEER_PORT=$((ETCD_PORT + 1))
ETCD_DIR=$STATE/etcd
ETCD_ID_KEY=rlock/services-id
ZK_PORT=${RLOCK_ZOOKEEPER_PORT:-2481}
ZK_DIR=$STATE/zookeeper
HZ_PORT=${RLOCK_HAZELCAST_PORT:-5741}
HZ_PORTS=("$HZ_PORT" $((HZ_PORT + 1)) $((HZ_PORT + 2)))
HZ_DIR=$STATE/hazelcast
HZ_JAR=$ROOT/clients/hazelcast-lock/target/client.jar

# Hide the password of a URL: scheme://user:***@host/...
mask() { sed -E 's#(://[^:/@]*:)[^/]*@#\1***@#; s#(password=)[^&]*#\1***#' <<<"$1"; }
is_root() { [[ $EUID -eq 0 ]]; }
# initdb and pg_ctl refuse to run as root. `cd /` avoids "could not change directory" noise.
as_pg() { if is_root; then (cd / && runuser -u postgres -- "$@"); else "$@"; fi; }
# Newest installed server version, or nothing.
pg_bin() {
    local d; d=$(printf '%s\n' /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
    if [[ -d $d ]]; then echo "$d"; fi
}
tail_log() { if [[ -f $1 ]]; then tail -n 20 "$1" >&2; fi; }
new_id() { od -An -N16 -tx1 /dev/urandom | tr -d ' \n'; }

port_taken() { [[ -n "$(ss -Hltn "sport = :$1" 2>/dev/null)" ]]; }
# listens PORT PID: the process PID (when given) is one that listens on PORT.
listens() { [[ -n $2 ]] && listener_pids "$1" | grep -qx "$2"; }
# foreign NAME PORT: one line about a server this script did not start, which it leaves alone.
foreign() { say "127.0.0.1:$2 answers, and not as the $1 services.sh started in $STATE: left alone"; }
# port_free NAME PORT VARIABLE: fails (exit 1) when something listens on PORT.
port_free() {
    if port_taken "$2"; then die "127.0.0.1:$2 answers, and not as the $1 services.sh started in $STATE: left alone (stop it, or set $3 to a free port)"; fi
}

redis_cli() { timeout 2 redis-cli -h 127.0.0.1 -p "$REDIS_PORT" "$@" 2>/dev/null; }
redis_info() { redis_cli INFO server | tr -d '\r' | sed -n "s/^$1://p"; }
# Ours: the Redis on the port runs from our config file (its first line the throwaway marker), in a
# directory no other user can read.
redis_ours() {
    [[ "$(redis_info config_file)" == "$REDIS_CONF" && -f $REDIS_CONF ]] &&
        [[ "$(head -n 1 "$REDIS_CONF")" == "$(head -n 1 "$ROOT/scripts/throwaway-redis.conf")" ]]
}

psql_() { # psql_ ARGS...: psql as postgres through the Unix socket in PG_DIR, which only our server can make
    PGPASSFILE=$PG_PASS PGOPTIONS="-c client_min_messages=warning" "$(pg_bin)/psql" -X -q -w -v ON_ERROR_STOP=1 \
        -h "$PG_DIR" -p "$PG_PORT" -U postgres "$@"
}
pg_postmaster() { head -n 1 "$PG_DATA/postmaster.pid" 2>/dev/null || true; }
# Ours: the server on our socket has our id as the comment on its database postgres, and its
# postmaster is what listens on the port.
pg_ours() {
    [[ -n $(pg_bin) && -S $PG_DIR/.s.PGSQL.$PG_PORT && -f $PG_ID && -f $PG_PASS ]] || return 1
    local comment
    comment=$(psql_ -d postgres -tA 2>/dev/null <<<"SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = 'postgres'") || return 1
    [[ $comment == "rlock $(cat "$PG_ID")" ]] && listens "$PG_PORT" "$(pg_postmaster)"
}

etcdctl_() { ETCDCTL_API=3 timeout 3 etcdctl --endpoints="127.0.0.1:$ETCD_PORT" --dial-timeout=2s "$@" 2>/dev/null; }
etcd_up() { etcdctl_ endpoint health >/dev/null; }
# Ours: the etcd this script started listens on the port and holds our id.
etcd_ours() {
    listens "$ETCD_PORT" "$(recorded_pid "$ETCD_DIR/etcd.pid")" && [[ -f $ETCD_DIR/rlock-id ]] &&
        [[ "$(etcdctl_ get "$ETCD_ID_KEY" --print-value-only)" == "$(cat "$ETCD_DIR/rlock-id")" ]]
}

# ZooKeeper's four-letter word `conf` over bash's /dev/tcp: its settings, once it serves requests.
zk_serves_ours() {
    timeout 3 bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$1" && echo conf >&3 && cat <&3' _ "$ZK_PORT" 2>/dev/null |
        grep -q "^dataDir=$ZK_DIR/data/"
}
# Ours: the ZooKeeper this script started listens on the port, and says its data are ours.
zk_ours() { listens "$ZK_PORT" "$(recorded_pid "$ZK_DIR/zookeeper.pid")" && zk_serves_ours; }

# Ours: each member this script started listens on its port, and once its CP subsystem was up wrote
# our id to its ready file (rlock.HazelcastMember).
hz_member_ours() {
    listens "$1" "$(recorded_pid "$HZ_DIR/member-$1.pid")" && [[ -f $HZ_DIR/rlock-id ]] &&
        [[ "$(cat "$HZ_DIR/rlock-id.ready.$1" 2>/dev/null)" == "$(cat "$HZ_DIR/rlock-id")" ]]
}
hz_ours() { local p; for p in "${HZ_PORTS[@]}"; do hz_member_ours "$p" || return 1; done; }

print_redis_env() { echo "export REDIS_URL=redis://127.0.0.1:$REDIS_PORT/0"; }
print_pg_env() {
    echo "export DATABASE_URL=postgresql://postgres@127.0.0.1:$PG_PORT/bank"
    echo "export PG_ENDPOINT=127.0.0.1:$PG_PORT"
    printf 'export PGPASSFILE=%q\n' "$PG_PASS"
}
print_etcd_env() { echo "export ETCD_ENDPOINT=127.0.0.1:$ETCD_PORT"; }
print_zk_env() { echo "export ZOOKEEPER_CONNECT=127.0.0.1:$ZK_PORT"; }
print_hz_env() { echo "export HAZELCAST_MEMBERS=$(printf '127.0.0.1:%s\n' "${HZ_PORTS[@]}" | paste -sd ,)"; }

start_redis() {
    if redis_ours; then say "redis already running on 127.0.0.1:$REDIS_PORT"; return; fi
    port_free redis "$REDIS_PORT" RLOCK_REDIS_PORT
    private_dir "$REDIS_DIR"
    # A restarted Redis must come back empty (lock-loss scenarios): no RDB snapshots and no AOF.
    throwaway_redis_conf "$REDIS_DIR" "$REDIS_PORT"
    (close_inherited_fds; exec redis-server "$REDIS_CONF") || { tail_log "$REDIS_DIR/redis.log"; die "redis-server failed to start"; }
    if ! within 10 redis_ours; then
        tail_log "$REDIS_DIR/redis.log"
        die "redis did not answer PING on 127.0.0.1:$REDIS_PORT within 10 s"
    fi
    record_process "$REDIS_DIR/redis.started" "$(redis_info process_id)"
    say "redis started on 127.0.0.1:$REDIS_PORT"
}

stop_redis() {
    local pid; pid=$(recorded_pid "$REDIS_DIR/redis.started")
    if redis_ours; then
        redis_cli shutdown nosave >/dev/null || true
    elif [[ -n $pid ]]; then # ours, but frozen
        kill -CONT "$pid" 2>/dev/null || true
        kill "$pid" 2>/dev/null || true
    elif port_taken "$REDIS_PORT"; then
        foreign redis "$REDIS_PORT"; return
    fi
    within 10 redis_stopped || die "redis on 127.0.0.1:$REDIS_PORT did not stop within 10 s"
    say "redis stopped"
}
redis_stopped() { ! redis_ours && [[ -z $(recorded_pid "$REDIS_DIR/redis.started") ]]; }

# Postgres refuses to start while the pid in one of its lock files exists. After a crash that pid
# may linger briefly as a zombie (a container's pid 1 may reap late), or after a container restart
# belong to another process: wait for the zombie, then drop the lock file unless a postgres owns it.
not_zombie() { ! grep -q '^[^)]*) Z' "/proc/$1/stat" 2>/dev/null; }
clear_stale_lock() {
    local pid; pid=$(head -n 1 "$1" 2>/dev/null || true)
    [[ -n $pid ]] || return 0
    within 5 not_zombie "$pid" || true
    [[ "$(cat "/proc/$pid/comm" 2>/dev/null)" == postgres ]] || rm -f "$1"
}

# The password of the user postgres, new, in a pgpass file (mode 600) that matches our server's
# socket and 127.0.0.1 on any port: chaos reaches the server through proxies on ports of their own.
make_pg_password() {
    local password socket
    password=$(new_id)
    socket=$(sed 's/[:\\]/\\&/g' <<<"$PG_DIR")
    printf '%s\n' "127.0.0.1:*:*:postgres:$password" "$socket:$PG_PORT:*:postgres:$password" | write_file "$PG_PASS"
}

# initdb with password authentication for every connection, the password from the pgpass file
# (handed over through a file of postgres's own when run as root: postgres cannot read ours).
pg_initdb() {
    local bin=$1 pwfile=$PG_DIR/initdb-password
    say "initdb $PG_DATA"
    new_id | write_file "$PG_ID"
    head -n 1 "$PG_PASS" | cut -d: -f5 | as_pg sh -c 'umask 077 && cat >"$1"' _ "$pwfile"
    as_pg "$bin/initdb" -D "$PG_DATA" -U postgres --pwfile="$pwfile" --auth=scram-sha-256 -E UTF8 --no-locale \
        >"$PG_DIR/initdb.log" 2>&1 || { rm -f "$pwfile"; tail_log "$PG_DIR/initdb.log"; die "initdb failed"; }
    rm -f "$pwfile"
}

start_pg() {
    local bin fresh=false; bin=$(pg_bin)
    if pg_ours; then
        say "postgres already running on 127.0.0.1:$PG_PORT"
    else
        port_free postgres "$PG_PORT" RLOCK_PG_PORT
        private_dir "$PG_DIR"
        if is_root; then
            # postgres reaches its directory through the state directory, which only root lists.
            chown -h postgres: "$PG_DIR"
            chgrp -h postgres "$STATE" && chmod 0710 "$STATE"
            runuser -u postgres -- test -x "$STATE" || die "user postgres cannot reach $STATE; choose another RLOCK_STATE_DIR"
        fi
        if [[ ! -f $PG_DATA/PG_VERSION ]]; then
            make_pg_password
            pg_initdb "$bin"
            fresh=true
        elif [[ ! -f $PG_ID || ! -f $PG_PASS ]]; then
            die "$PG_DATA has no id or no password of services.sh's (an older services.sh made it): remove $PG_DIR"
        fi
        clear_stale_lock "$PG_DATA/postmaster.pid"
        clear_stale_lock "$PG_DIR/.s.PGSQL.$PG_PORT.lock"
        (close_inherited_fds; as_pg "$bin/pg_ctl" -D "$PG_DATA" -l "$PG_LOG" -w -t 30 \
            -o "-p $PG_PORT -k $PG_DIR -c listen_addresses=127.0.0.1 -c fsync=off" start) >/dev/null ||
            { tail_log "$PG_LOG"; die "postgres failed to start on 127.0.0.1:$PG_PORT"; }
        if $fresh; then psql_ -d postgres -v id="rlock $(cat "$PG_ID")" <<<"COMMENT ON DATABASE postgres IS :'id'"; fi
        pg_ours || { tail_log "$PG_LOG"; die "postgres started in $PG_DATA but does not answer as ours on 127.0.0.1:$PG_PORT"; }
        record_process "$PG_DIR/postmaster.started" "$(pg_postmaster)"
        say "postgres started on 127.0.0.1:$PG_PORT"
    fi
    if [[ -z "$(psql_ -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = 'bank'")" ]]; then
        psql_ -d postgres -c "CREATE DATABASE bank"
    fi
    psql_ -d bank -f "$ROOT/init.sql" # creates what is missing, changes no data
    say "applied init.sql to database bank"
}

stop_pg() {
    local bin pid; bin=$(pg_bin)
    pid=$(recorded_pid "$PG_DIR/postmaster.started")
    if [[ -n $bin && -n $pid && $pid == "$(pg_postmaster)" ]]; then
        as_pg "$bin/pg_ctl" -D "$PG_DATA" stop -m fast -w -t 30 >/dev/null ||
            die "postgres in $PG_DATA did not stop within 30 s"
    elif port_taken "$PG_PORT"; then
        foreign postgres "$PG_PORT"; return
    fi
    say "postgres stopped"
}

# etcd 3.4, a one-member cluster on loopback; it is no daemon of its own, so it runs in a session of
# its own with every stream redirected (the caller's `$(...)` must not wait for it). etcd raises a
# lease to 1.5 election timeouts at least (2 s with the default 1 s): a 500 ms election timeout lets a
# lease of 1 s last 1 s, as the TTL of a 1000 ms chaos run asks.
start_etcd() {
    if etcd_ours; then say "etcd already running on 127.0.0.1:$ETCD_PORT"; return; fi
    port_free etcd "$ETCD_PORT" RLOCK_ETCD_PORT
    port_free etcd "$ETCD_PEER_PORT" RLOCK_ETCD_PORT
    private_dir "$ETCD_DIR"
    local client=http://127.0.0.1:$ETCD_PORT peer=http://127.0.0.1:$ETCD_PEER_PORT pid
    # The subshell becomes etcd (setsid execs it), so $! is etcd's pid.
    (close_inherited_fds
     exec setsid etcd --name rlock --data-dir "$ETCD_DIR/data" --heartbeat-interval 50 --election-timeout 500 \
        --listen-client-urls "$client" --advertise-client-urls "$client" \
        --listen-peer-urls "$peer" --initial-advertise-peer-urls "$peer" --initial-cluster "rlock=$peer") \
        </dev/null >"$ETCD_DIR/etcd.log" 2>&1 &
    pid=$!
    if ! within 10 etcd_answers "$pid"; then
        tail_log "$ETCD_DIR/etcd.log"
        die "etcd did not answer on 127.0.0.1:$ETCD_PORT within 10 s"
    fi
    record_process "$ETCD_DIR/etcd.pid" "$pid"
    [[ -f $ETCD_DIR/rlock-id ]] || new_id | write_file "$ETCD_DIR/rlock-id"
    etcdctl_ put "$ETCD_ID_KEY" "$(cat "$ETCD_DIR/rlock-id")" >/dev/null || die "etcd refused its id key"
    say "etcd started on 127.0.0.1:$ETCD_PORT"
}
etcd_answers() { listens "$ETCD_PORT" "$1" && etcd_up; }

# stop_recorded NAME PID-FILE PORT: stops the server whose pid, start time and command line
# record_process noted in PID-FILE, while that process runs; leaves anything else on PORT alone.
stop_recorded() {
    local name=$1 file=$2 port=$3 pid
    pid=$(recorded_pid "$file")
    if [[ -z $pid ]]; then
        if port_taken "$port"; then foreign "$name" "$port"; else say "$name stopped"; fi
        return
    fi
    kill "$pid" 2>/dev/null || true
    within 10 not_recorded "$file" || die "$name on 127.0.0.1:$port did not stop within 10 s"
    rm -f "$file"
    say "$name stopped"
}
not_recorded() { [[ -z $(recorded_pid "$1") ]]; }

stop_etcd() { stop_recorded etcd "$ETCD_DIR/etcd.pid" "$ETCD_PORT"; }

# ZooKeeper 3.8 (Debian's), standalone on loopback, in a session of its own like etcd. A session
# may last no less than 2 ticks: a 250 ms tick lets a client ask for a 1 s session, as the TTL of a
# 1000 ms chaos run means.
start_zk() {
    if zk_ours; then say "zookeeper already running on 127.0.0.1:$ZK_PORT"; return; fi
    port_free zookeeper "$ZK_PORT" RLOCK_ZOOKEEPER_PORT
    private_dir "$ZK_DIR"
    private_dir "$ZK_DIR/data"
    local pid
    printf '%s\n' "tickTime=250" "minSessionTimeout=500" "dataDir=$ZK_DIR/data" "clientPort=$ZK_PORT" \
        "clientPortAddress=127.0.0.1" "admin.enableServer=false" "4lw.commands.whitelist=ruok,srvr,conf" |
        write_file "$ZK_DIR/zoo.cfg"
    (close_inherited_fds
     exec setsid java -Xmx256m -Dzookeeper.log.dir="$ZK_DIR" -cp /etc/zookeeper/conf:/usr/share/java/zookeeper.jar \
        org.apache.zookeeper.server.ZooKeeperServerMain "$ZK_DIR/zoo.cfg") </dev/null >"$ZK_DIR/zookeeper.log" 2>&1 &
    pid=$!
    if ! within 20 zk_answers "$pid"; then
        tail_log "$ZK_DIR/zookeeper.log"
        die "zookeeper did not answer on 127.0.0.1:$ZK_PORT within 20 s"
    fi
    record_process "$ZK_DIR/zookeeper.pid" "$pid"
    say "zookeeper started on 127.0.0.1:$ZK_PORT"
}
zk_answers() { listens "$ZK_PORT" "$1" && zk_serves_ours; }

stop_zk() { stop_recorded zookeeper "$ZK_DIR/zookeeper.pid" "$ZK_PORT"; }

# Hazelcast 5.4 (the hazelcast-lock adapter's jar), three members on loopback whose CP subsystem
# serves FencedLock, each in a session of its own like etcd. They start together and are ready only
# once all three have formed the CP subsystem: 15 to 20 s on two busy cores.
start_hz() {
    if hz_ours; then say "hazelcast already running on 127.0.0.1:${HZ_PORTS[*]}"; return; fi
    [[ -f $HZ_JAR ]] || die "hazelcast runs from the hazelcast-lock adapter's jar: scripts/clients.sh install hazelcast-lock"
    local p members pid
    for p in "${HZ_PORTS[@]}"; do port_free hazelcast "$p" RLOCK_HAZELCAST_PORT; done
    private_dir "$HZ_DIR"
    new_id | write_file "$HZ_DIR/rlock-id"
    rm -f -- "$HZ_DIR"/rlock-id.ready.*
    # The members run from a copy: `clients.sh install` rebuilding the adapter's jar under running
    # members would take their classes away (NoClassDefFoundError, a cluster that no longer answers).
    write_file "$HZ_DIR/member.jar" <"$HZ_JAR"
    members=$(print_hz_env | cut -d= -f2)
    for p in "${HZ_PORTS[@]}"; do
        (close_inherited_fds
         exec setsid java -Xmx256m -XX:+UseSerialGC -Djava.net.preferIPv4Stack=true -cp "$HZ_DIR/member.jar" rlock.HazelcastMember --id "$HZ_DIR/rlock-id" "$p" "$members") \
            </dev/null >"$HZ_DIR/member-$p.log" 2>&1 &
        pid=$!
        # Recorded once it is java: recorded before its exec, it would be the subshell's command line,
        # and never ours again.
        within 5 runs_java "$pid" || true
        record_process "$HZ_DIR/member-$p.pid" "$pid"
    done
    if ! within 120 hz_ours; then
        tail_log "$HZ_DIR/member-$HZ_PORT.log"
        die "hazelcast's CP subsystem did not form on 127.0.0.1:${HZ_PORTS[*]} within 120 s"
    fi
    say "hazelcast started on 127.0.0.1:${HZ_PORTS[*]}"
}
runs_java() { [[ $(process_command "$1") == java\ * ]]; }

stop_hz() {
    local p
    [[ -d $HZ_DIR ]] || return 0  # never started here
    for p in "${HZ_PORTS[@]}"; do stop_recorded "hazelcast member" "$HZ_DIR/member-$p.pid" "$p"; done
}

status_line() { printf '%-10s %-8s %s\n' "$1" "$2" "$3"; }

# service_cmd NAME PORT FN GIVEN up|down|status|env: the part of the command for one service, either
# given (GIVEN: what names it, used as it is, never started or stopped) or run here on PORT by
# start_FN, stop_FN, FN_ours and print_FN_env.
service_cmd() {
    local name=$1 port=$2 fn=$3 given=$4
    if [[ -n $given ]]; then
        case $5 in
        up) say "using the given $name: $given" ;;
        status) status_line "$name" external "$given" ;;
        esac
        return 0
    fi
    case $5 in
    up) "start_$fn"; "print_${fn}_env" ;;
    down) "stop_$fn" ;;
    status)
        if "${fn}_ours"; then status_line "$name" running "127.0.0.1:$port"; return 0; fi
        if port_taken "$port"; then status_line "$name" foreign "127.0.0.1:$port"; else status_line "$name" stopped "127.0.0.1:$port"; fi
        return 3 ;;
    env) "print_${fn}_env" ;;
    esac
}

given_servers=""
if [[ -n ${REDIS_URL:-} && -n ${DATABASE_URL:-} ]]; then given_servers=yes; fi
redis_cmd() { service_cmd redis "$REDIS_PORT" redis "${given_servers:+REDIS_URL=$(mask "${REDIS_URL:-}")}" "$1"; }
pg_cmd() { service_cmd postgres "$PG_PORT" pg "${given_servers:+DATABASE_URL=$(mask "${DATABASE_URL:-}")}" "$1"; }
etcd_cmd() { service_cmd etcd "$ETCD_PORT" etcd "${ETCD_ENDPOINT:+ETCD_ENDPOINT=$ETCD_ENDPOINT}" "$1"; }
zk_cmd() { service_cmd zookeeper "$ZK_PORT" zk "${ZOOKEEPER_CONNECT:+ZOOKEEPER_CONNECT=$ZOOKEEPER_CONNECT}" "$1"; }
hz_cmd() { service_cmd hazelcast "$HZ_PORT" hz "${HAZELCAST_MEMBERS:+HAZELCAST_MEMBERS=$HAZELCAST_MEMBERS}" "$1"; }

usage="usage: services.sh up [redis|postgres|etcd|zookeeper|hazelcast...]|down|status|env|--help"
cmd=${1:-}
services=(redis pg etcd zk)
case $cmd in
up)
    shift
    if (($#)); then
        services=()
        for s in "$@"; do
            case $s in
            redis | etcd) services+=("$s") ;;
            postgres) services+=(pg) ;;
            zookeeper) services+=(zk) ;;
            hazelcast) services+=(hz) ;;
            *) usage_error "unknown service '$s' ($usage)" ;;
            esac
        done
    fi ;;
down | status | env) (($# == 1)) || usage_error "one argument only ($usage)" ;;
-h | --help) script_help; exit 0 ;;
*) usage_error "unknown argument '$cmd' ($usage)" ;;
esac

[[ -n $given_servers || -z ${REDIS_URL:-}${DATABASE_URL:-} || $cmd != up ]] ||
    say "note: only one of REDIS_URL / DATABASE_URL is set; ignoring it and using local services"
case $cmd in
up) [[ -n $given_servers && -n ${ETCD_ENDPOINT:-} && -n ${ZOOKEEPER_CONNECT:-} ]] || state_dir --make ;;
# Nothing of ours runs from a state directory that does not exist.
down | status) [[ ! -e $STATE && ! -L $STATE ]] || state_dir ;;
esac

rc=0 packages=()
# Hazelcast is started only when named; once started, `status` and `env` name it too.
if [[ $cmd == down ]]; then services=(hz zk etcd pg redis); fi
if [[ ($cmd == status || $cmd == env) && -d $HZ_DIR && ! -L $HZ_DIR ]] && hz_ours; then services+=(hz); fi
if [[ $cmd == up ]]; then
    for s in "${services[@]}"; do
        case $s in
        redis) [[ -n $given_servers ]] || packages+=(redis-server) ;;
        pg) [[ -n $given_servers ]] || packages+=(postgresql) ;;
        etcd) [[ -n ${ETCD_ENDPOINT:-} ]] || packages+=(etcd-server etcd-client) ;;
        zk) [[ -n ${ZOOKEEPER_CONNECT:-} ]] || packages+=(zookeeper) ;;
        hz) [[ -n ${HAZELCAST_MEMBERS:-} ]] || packages+=(default-jre-headless) ;;
        esac
    done
    if ((${#packages[@]})); then APT_LOG=$STATE/apt.log need_packages iproute2 "${packages[@]}"; fi
fi
for s in "${services[@]}"; do "${s}_cmd" "$cmd" || rc=$?; done
exit $rc
