#!/usr/bin/env bash
# Run a private Redis, PostgreSQL, etcd and ZooKeeper for the rlock lab, without Docker.
#   scripts/services.sh up|down|status|env
#   eval "$(scripts/services.sh env)"     # exports REDIS_URL, DATABASE_URL, ETCD_ENDPOINT, ZOOKEEPER_CONNECT
# Progress goes to stderr and the exports to stdout, so `eval "$(... up)"` works too.
# If REDIS_URL and DATABASE_URL are both set already, those servers are used as is; so is etcd when
# ETCD_ENDPOINT (HOST:PORT) is set, and ZooKeeper when ZOOKEEPER_CONNECT (HOST:PORT) is. etcd and
# ZooKeeper serve only the lock clients that use them (clients/etcd-*, clients/curator-mutex).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

REDIS_PORT=${RLOCK_REDIS_PORT:-6391}
PG_PORT=${RLOCK_PG_PORT:-5441}
STATE=${RLOCK_STATE_DIR:-/tmp/rlock-services}
[[ $STATE == /* ]] || STATE=$PWD/$STATE
REDIS_DIR=$STATE/redis
REDIS_CONF=$REDIS_DIR/redis.conf
PG_DIR=$STATE/pg            # owned by postgres when run as root
PG_DATA=$PG_DIR/data
PG_LOG=$PG_DIR/postgres.log # the unix socket lives in $PG_DIR too
ETCD_PORT=${RLOCK_ETCD_PORT:-2391}
ETCD_PEER_PORT=$((ETCD_PORT + 1))
ETCD_DIR=$STATE/etcd
ZK_PORT=${RLOCK_ZOOKEEPER_PORT:-2481}
ZK_DIR=$STATE/zookeeper

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

redis_up() { [[ "$(timeout 2 redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping 2>/dev/null)" == PONG ]]; }
pg_up() {
    local bin; bin=$(pg_bin)
    [[ -n $bin ]] && "$bin/pg_isready" -q -h 127.0.0.1 -p "$PG_PORT" -U postgres -d postgres -t 2
}
etcd_up() { ETCDCTL_API=3 timeout 3 etcdctl --endpoints="127.0.0.1:$ETCD_PORT" --dial-timeout=2s endpoint health >/dev/null 2>&1; }
# ZooKeeper's four-letter `ruok`, answered `imok`, over bash's /dev/tcp.
zk_up() {
    timeout 3 bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$1" && echo ruok >&3 && [[ "$(cat <&3)" == imok ]]' _ "$ZK_PORT" 2>/dev/null
}
psql_() { PGOPTIONS="-c client_min_messages=warning" "$(pg_bin)/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PG_PORT" -U postgres "$@"; }

print_env() {
    echo "export REDIS_URL=redis://127.0.0.1:$REDIS_PORT/0"
    echo "export DATABASE_URL=postgresql://postgres@127.0.0.1:$PG_PORT/bank"
}
print_etcd_env() { echo "export ETCD_ENDPOINT=127.0.0.1:$ETCD_PORT"; }
print_zk_env() { echo "export ZOOKEEPER_CONNECT=127.0.0.1:$ZK_PORT"; }

start_redis() {
    mkdir -p "$REDIS_DIR"
    # A restarted Redis must come back empty (lock-loss scenarios): no RDB snapshots and no AOF.
    throwaway_redis_conf "$REDIS_DIR" "$REDIS_PORT"
    if redis_up; then say "redis already running on 127.0.0.1:$REDIS_PORT"; return; fi
    redis-server "$REDIS_CONF" || { tail_log "$REDIS_DIR/redis.log"; die "redis-server failed to start"; }
    for _ in $(seq 50); do redis_up && { say "redis started on 127.0.0.1:$REDIS_PORT"; return; }; sleep 0.2; done
    tail_log "$REDIS_DIR/redis.log"
    die "redis did not answer PING on 127.0.0.1:$REDIS_PORT within 10 s"
}

# Postgres refuses to start while the pid in one of its lock files exists. After a crash that pid
# may linger briefly as a zombie (a container's pid 1 may reap late), or after a container restart
# belong to another process: wait for the zombie, then drop the lock file unless a postgres owns it.
clear_stale_lock() {
    local pid; pid=$(head -n 1 "$1" 2>/dev/null || true)
    [[ -n $pid ]] || return 0
    for _ in $(seq 25); do grep -q '^[^)]*) Z' "/proc/$pid/stat" 2>/dev/null || break; sleep 0.2; done
    [[ "$(cat "/proc/$pid/comm" 2>/dev/null)" == postgres ]] || rm -f "$1"
}

start_pg() {
    local bin; bin=$(pg_bin)
    mkdir -p "$PG_DIR"
    if is_root; then
        chown postgres: "$PG_DIR"
        runuser -u postgres -- test -x "$STATE" || die "user postgres cannot reach $STATE; choose another RLOCK_STATE_DIR"
    fi
    if [[ ! -f $PG_DATA/PG_VERSION ]]; then
        say "initdb $PG_DATA"
        as_pg "$bin/initdb" -D "$PG_DATA" -U postgres --auth=trust -E UTF8 --no-locale >"$PG_DIR/initdb.log" 2>&1 ||
            { tail_log "$PG_DIR/initdb.log"; die "initdb failed"; }
    fi
    if pg_up; then
        say "postgres already running on 127.0.0.1:$PG_PORT"
    else
        clear_stale_lock "$PG_DATA/postmaster.pid"
        clear_stale_lock "$PG_DIR/.s.PGSQL.$PG_PORT.lock"
        as_pg "$bin/pg_ctl" -D "$PG_DATA" -l "$PG_LOG" -w -t 30 \
            -o "-p $PG_PORT -k $PG_DIR -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null ||
            { tail_log "$PG_LOG"; die "postgres failed to start on 127.0.0.1:$PG_PORT"; }
        pg_up || { tail_log "$PG_LOG"; die "postgres started but does not answer on 127.0.0.1:$PG_PORT"; }
        say "postgres started on 127.0.0.1:$PG_PORT"
    fi
    if [[ -z "$(psql_ -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = 'bank'")" ]]; then
        psql_ -d postgres -c "CREATE DATABASE bank"
    fi
    psql_ -d bank -f "$ROOT/init.sql"  # creates what is missing, changes no data
    say "applied init.sql to database bank"
}

# etcd 3.4, a one-member cluster on loopback; it is no daemon of its own, so it runs in a session of
# its own with every stream redirected (the caller's `$(...)` must not wait for it). etcd raises a
# lease to 1.5 election timeouts at least (2 s with the default 1 s): a 500 ms election timeout lets a
# lease of 1 s last 1 s, as the TTL of a 1000 ms chaos run asks.
start_etcd() {
    mkdir -p "$ETCD_DIR"
    APT_LOG=$STATE/apt.log need_packages etcd-server etcd-client
    if etcd_up; then say "etcd already running on 127.0.0.1:$ETCD_PORT"; return; fi
    local client=http://127.0.0.1:$ETCD_PORT peer=http://127.0.0.1:$ETCD_PEER_PORT
    setsid etcd --name rlock --data-dir "$ETCD_DIR/data" --heartbeat-interval 50 --election-timeout 500 \
        --listen-client-urls "$client" --advertise-client-urls "$client" \
        --listen-peer-urls "$peer" --initial-advertise-peer-urls "$peer" --initial-cluster "rlock=$peer" \
        </dev/null >"$ETCD_DIR/etcd.log" 2>&1 &
    echo $! >"$ETCD_DIR/etcd.pid"
    for _ in $(seq 50); do etcd_up && { say "etcd started on 127.0.0.1:$ETCD_PORT"; return; }; sleep 0.2; done
    tail_log "$ETCD_DIR/etcd.log"
    die "etcd did not answer on 127.0.0.1:$ETCD_PORT within 10 s"
}

# stop_pid_file NAME PID-FILE COMMAND UP-CHECK PORT: stops the server whose pid the file holds, trusted
# only while that pid runs COMMAND (the file may be stale, the pid reused), until UP-CHECK fails.
stop_pid_file() {
    local name=$1 file=$2 command=$3 up=$4 port=$5 pid
    pid=$(cat "$file" 2>/dev/null || true)
    alive() { [[ -n $pid && "$(cat "/proc/$pid/comm" 2>/dev/null)" == "$command" ]]; }
    if alive; then kill "$pid" 2>/dev/null || true; fi
    for _ in $(seq 50); do
        alive || "$up" || { rm -f "$file"; say "$name stopped"; return; }
        sleep 0.2
    done
    die "$name on 127.0.0.1:$port did not stop within 10 s"
}

stop_etcd() { stop_pid_file etcd "$ETCD_DIR/etcd.pid" etcd etcd_up "$ETCD_PORT"; }

# ZooKeeper 3.8 (Debian's), standalone on loopback, in a session of its own like etcd. A session
# may last no less than 2 ticks: a 250 ms tick lets a client ask for a 1 s session, as the TTL of a
# 1000 ms chaos run means.
start_zk() {
    mkdir -p "$ZK_DIR/data"
    APT_LOG=$STATE/apt.log need_packages zookeeper
    if zk_up; then say "zookeeper already running on 127.0.0.1:$ZK_PORT"; return; fi
    printf '%s\n' "tickTime=250" "minSessionTimeout=500" "dataDir=$ZK_DIR/data" "clientPort=$ZK_PORT" \
        "clientPortAddress=127.0.0.1" "admin.enableServer=false" "4lw.commands.whitelist=ruok,srvr" >"$ZK_DIR/zoo.cfg"
    setsid java -Xmx256m -Dzookeeper.log.dir="$ZK_DIR" -cp /etc/zookeeper/conf:/usr/share/java/zookeeper.jar \
        org.apache.zookeeper.server.ZooKeeperServerMain "$ZK_DIR/zoo.cfg" </dev/null >"$ZK_DIR/zookeeper.log" 2>&1 &
    echo $! >"$ZK_DIR/zookeeper.pid"
    for _ in $(seq 100); do zk_up && { say "zookeeper started on 127.0.0.1:$ZK_PORT"; return; }; sleep 0.2; done
    tail_log "$ZK_DIR/zookeeper.log"
    die "zookeeper did not answer on 127.0.0.1:$ZK_PORT within 20 s"
}

stop_zk() { stop_pid_file zookeeper "$ZK_DIR/zookeeper.pid" java zk_up "$ZK_PORT"; }

# service_cmd NAME VAR PORT FN up|down|status|env: the part of the command for a service that is
# either given (VAR set: used as it is, never started or stopped) or run here on PORT by start_FN,
# stop_FN, FN_up and print_FN_env.
service_cmd() {
    local name=$1 var=$2 port=$3 fn=$4
    if [[ -n ${!var:-} ]]; then
        case $5 in
        up) say "using the given $name: $var=${!var}" ;;
        status) status_line "$name" external "${!var}" ;;
        esac
        return 0
    fi
    case $5 in
    up) "start_$fn"; "print_${fn}_env" ;;
    down) "stop_$fn" ;;
    status) if "${fn}_up"; then status_line "$name" running "127.0.0.1:$port"; else status_line "$name" stopped "127.0.0.1:$port"; return 3; fi ;;
    env) "print_${fn}_env" ;;
    esac
}

etcd_cmd() { service_cmd etcd ETCD_ENDPOINT "$ETCD_PORT" etcd "$1"; }
zk_cmd() { service_cmd zookeeper ZOOKEEPER_CONNECT "$ZK_PORT" zk "$1"; }

stop_redis() {
    local pid
    pid=$(cat "$REDIS_DIR/redis.pid" 2>/dev/null || true)
    # The pid file may be stale (pid reused), so trust it only if it names a redis-server.
    pid_alive() { [[ -n $pid && "$(cat "/proc/$pid/comm" 2>/dev/null)" == redis-server ]]; }
    if redis_up; then
        timeout 5 redis-cli -h 127.0.0.1 -p "$REDIS_PORT" shutdown nosave >/dev/null 2>&1 || true
    elif pid_alive; then
        kill "$pid" 2>/dev/null || true
    fi
    for _ in $(seq 50); do
        redis_up || pid_alive || { say "redis stopped"; return; }
        sleep 0.2
    done
    die "redis on 127.0.0.1:$REDIS_PORT did not stop within 10 s"
}

stop_pg() {
    local bin; bin=$(pg_bin)
    [[ -n $bin && -f $PG_DATA/PG_VERSION ]] || { say "postgres stopped"; return; }
    clear_stale_lock "$PG_DATA/postmaster.pid" # so pg_ctl never signals a reused pid
    if as_pg "$bin/pg_ctl" -D "$PG_DATA" status >/dev/null 2>&1; then
        as_pg "$bin/pg_ctl" -D "$PG_DATA" stop -m fast -w -t 30 >/dev/null ||
            die "postgres in $PG_DATA did not stop within 30 s"
    fi
    say "postgres stopped"
}

status_line() { printf '%-10s %-8s %s\n' "$1" "$2" "$3"; }

cmd=${1:-}
case $cmd in
up | down | status | env) (($# == 1)) || usage_error "one argument only (usage: services.sh up|down|status|env|--help)" ;;
-h | --help) script_help; exit 0 ;;
*) usage_error "unknown argument '$cmd' (usage: services.sh up|down|status|env|--help)" ;;
esac

if [[ -n ${REDIS_URL:-} && -n ${DATABASE_URL:-} ]]; then
    case $cmd in
    up) say "using the given servers: REDIS_URL=$(mask "$REDIS_URL") DATABASE_URL=$(mask "$DATABASE_URL")" ;;
    status) status_line redis external "$(mask "$REDIS_URL")"
            status_line postgres external "$(mask "$DATABASE_URL")" ;;
    env) say "REDIS_URL and DATABASE_URL are already set" ;;
    down) ;;
    esac
    etcd_cmd "$cmd"
    zk_cmd "$cmd"
    exit
fi
[[ -z ${REDIS_URL:-}${DATABASE_URL:-} || $cmd != up ]] ||
    say "note: only one of REDIS_URL / DATABASE_URL is set; ignoring it and using local services"

case $cmd in
up)
    [[ -d $STATE ]] || { mkdir -p "$STATE"; chmod 0755 "$STATE"; }
    APT_LOG=$STATE/apt.log need_packages redis-server postgresql
    start_redis
    start_pg
    print_env
    etcd_cmd up
    zk_cmd up
    ;;
down)
    zk_cmd down
    etcd_cmd down
    stop_pg
    stop_redis
    ;;
status)
    rc=0
    if redis_up; then status_line redis running "127.0.0.1:$REDIS_PORT"; else status_line redis stopped "127.0.0.1:$REDIS_PORT"; rc=3; fi
    if pg_up; then status_line postgres running "127.0.0.1:$PG_PORT"; else status_line postgres stopped "127.0.0.1:$PG_PORT"; rc=3; fi
    etcd_cmd status || rc=3
    zk_cmd status || rc=3
    exit $rc
    ;;
env) print_env; etcd_cmd env; zk_cmd env ;;
esac
