# Shared by the lab scripts, services.sh and test.sh (sourced, not run).
#   script_help            prints the running script's header comment: its --help
#   usage_error MESSAGE    one line on stderr, exit 2 (a bad argument: nothing was attempted)
#   no_arguments "$@"      --help prints the script's help; any other argument is a usage error
#   need_packages PACKAGE...   installs those of the Debian packages that are missing
#   cargo_tool             prints the path of a cargo new enough for the Rust clients, or dies naming what is missing
#   build_rlock            configures and builds build/rlock (incrementally, the binary only)
#   lab_options MODE... -- ARGS...   a lab's arguments: one of the MODEs (MODE), --ttl MS (TTL), --pause S (PAUSE)
#   lab_begin NAME         build, services up, a fresh data directory (RLOCK_DIR, default run/NAME; installed:
#                          ~/.local/state/rlock/NAME)
#   lab_timeline           draws the run as timeline.svg in the data directory, titled NAME; prints its path
#   start_worker NAME ARGS...   `rlock worker NAME ARGS` in the background
#   wait_worker NAME       waits for one worker, returning its exit status
#   wait_workers [NAME...] waits for all of them; fails when one fails, unless it is named
#   wait_for_file PATH [S] waits (at most S seconds, default 10) for a marker file a worker creates
#   wait_for_event WHO EVENT               waits (at most 10 s) until WHO has logged EVENT
#   throwaway_redis_conf DIR PORT [CONFIG-LINE...]   writes DIR/redis.conf of a throwaway Redis on PORT
#   lab_redis NAME PORT [CONFIG-LINE...]   a Redis of the lab's own (labs 4 and 5 crash it)
#   lab_replicated_redis NAME PRIMARY-PORT REPLICA-PORT   two lab Redis servers, the second a replica in sync
#   wait_replica_dropped PRIMARY-PORT      waits until the primary has no replica left
#   lab_sentinel NAME PORT MASTER-PORT     a Sentinel watching that Redis as master NAME
#   within S COMMAND...                    polls COMMAND every 0.1 s until it succeeds, for at most S seconds;
#                                          fails when it never did
#   wait_until S WHAT COMMAND...           the same, dying ("gave up waiting for WHAT") when it never did
#   redis_field PORT FIELD VALUE           true when INFO of the Redis on PORT has FIELD:VALUE
#   state_dir [--make]     refuses (exit 2) a state directory (STATE, named by STATE_VARIABLE: RLOCK_STATE_DIR)
#                          not this user's; --make makes it
#   private_dir DIR        makes DIR (in STATE), mode 700, or refuses what is there instead (exit 2)
#   write_file PATH        writes stdin to PATH through a fresh file renamed over it, never through a link
#   record_process FILE PID    notes in FILE the pid, start time and command line of a process just started
#   recorded_pid FILE      the pid FILE notes, while that process runs (same start time and command line)
#   listener_pids PORT     the pids of the processes listening on TCP PORT (this user's; all of them as root)

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# An installed copy (PREFIX/share/rlock, by `cmake --install` or the Debian package) has no source
# tree: it runs PREFIX/bin/rlock, and keeps its labs in the user's state directory.
if [[ ! -f $ROOT/CMakeLists.txt && -x $ROOT/../../bin/rlock ]]; then
    RLOCK_BIN=${RLOCK_BIN:-$(cd "$ROOT/../../bin" && pwd)/rlock}
    RUNS=${XDG_STATE_HOME:-$HOME/.local/state}/rlock
else
    RUNS=$ROOT/run  # ignored by git
fi
# RLOCK_BIN: an rlock binary to use as it is (the tests pass theirs); otherwise build/rlock, built here.
RLOCK=${RLOCK_BIN:-$ROOT/build/rlock}
# Where the servers of services.sh and the labs' own keep their data, logs, pid files and password.
STATE=${RLOCK_STATE_DIR:-/tmp/rlock-services}
[[ $STATE == /* ]] || STATE=$PWD/$STATE
BUILD_PACKAGES=(cmake g++ make pkg-config libhiredis-dev libpqxx-dev libcli11-dev libfmt-dev libspdlog-dev
                nlohmann-json3-dev libgtest-dev)

say() { echo "$(basename "$0"): $*" >&2; }
die() { say "$*"; exit 1; }

rlock() { "$RLOCK" "$@"; }

# The comment block after the #! line, without its '# ', is each script's --help.
script_help() { sed -n '2,/^[^#]/{/^#/{s/^# \{0,1\}//;p}}' "$0"; }
usage_error() { say "$*"; exit 2; }
no_arguments() {
    case ${1:-} in
    "") ;;
    -h | --help) script_help; exit 0 ;;
    *) usage_error "unknown argument '$1' (usage: $(basename "$0") [--help])" ;;
    esac
}

# The Rust clients' locked crates need Rust 1.88 (clients/rslock/Cargo.toml's rust-version), newer
# than Debian 12's cargo: rustup's, on PATH or in ~/.cargo/bin.
cargo_tool() {
    local cargo version
    cargo=$(command -v cargo 2>/dev/null) || cargo=$HOME/.cargo/bin/cargo
    [[ -x $cargo ]] || die "no cargo on PATH nor in ~/.cargo/bin: the Rust clients need cargo 1.88 or later (rustup)"
    version=$("$cargo" --version | cut -d' ' -f2)
    [[ $(printf '%s\n' 1.88 "$version" | sort -V | head -n 1) == 1.88 ]] ||
        die "cargo $version at $cargo is older than the 1.88 the Rust clients need (rustup update)"
    echo "$cargo"
}

# Installs what is missing from the given Debian packages (as root, or through sudo). apt-get's
# output goes to APT_LOG when it is set (and stays there), otherwise to a temporary file shown only
# when apt-get fails.
need_packages() {
    local missing=() sudo=() p
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
    done
    ((${#missing[@]})) || return 0
    if [[ $EUID -ne 0 ]]; then
        command -v sudo >/dev/null || die "missing Debian packages: ${missing[*]} (install them as root)"
        sudo=(sudo)
    fi
    say "installing ${missing[*]}${APT_LOG:+ (log: $APT_LOG)}"
    local log=${APT_LOG:-}
    [[ -n $log ]] || log=$(mktemp)
    { "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
      "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
    } >"$log" 2>&1 || { tail -n 20 "$log" >&2; die "apt-get failed for: ${missing[*]}"; }
    [[ -n ${APT_LOG:-} ]] || rm -f "$log"
}

build_rlock() {
    [[ -z ${RLOCK_BIN:-} ]] || return 0
    need_packages "${BUILD_PACKAGES[@]}"
    local log; log=$(mktemp)
    # A lab needs only the binary: the tests (scripts/test.sh) turn themselves on in the same tree.
    { [[ -f $ROOT/build/CMakeCache.txt ]] || cmake --preset default -S "$ROOT" -DRLOCK_BUILD_TESTS=OFF; } >"$log" 2>&1 &&
        cmake --build "$ROOT/build" --target rlock -j "$(nproc)" >>"$log" 2>&1 ||
        { tail -n 30 "$log" >&2; die "build failed (full log: $log)"; }
    rm -f "$log"
}

declare -A WORKERS=() # name -> pid
LAB_REDIS_PORTS=()

# lab_options MODE... -- ARGS...: reads a lab's ARGS: at most one of the MODEs (in MODE, empty
# without one), --ttl MS (in TTL, 30000 unless given) and --pause S (in PAUSE, empty unless given).
# --help prints the lab's help; anything else ends the lab with its usage (exit 2).
lab_options() {
    local modes=() usage
    while [[ $1 != -- ]]; do modes+=("$1"); shift; done
    shift
    usage=$(printf ' | %s' "${modes[@]}")
    MODE="" TTL=30000 PAUSE=""
    while (($#)); do
        case $1 in
        -h | --help) script_help; exit 0 ;;
        --ttl) [[ ${2:-} =~ ^[0-9]+$ ]] || usage_error "--ttl takes milliseconds, as in --ttl 2000"
               TTL=$2; shift ;;
        --pause) [[ ${2:-} =~ ^[0-9]+(\.[0-9]+)?$ ]] || usage_error "--pause takes seconds, as in --pause 1.5"
                 PAUSE=$2; shift ;;
        *) [[ " ${modes[*]} " == *" $1 "* && -z $MODE ]] ||
               usage_error "unknown argument '$1' (usage: $(basename "$0") [${usage# | }] [--ttl MS] [--pause S] [--help])"
           MODE=$1 ;;
        esac
        shift
    done
}

lab_begin() {
    build_rlock
    local exports
    exports=$("$ROOT/scripts/services.sh" up) # a server that is not ours on a port ends the lab here
    eval "$exports"
    export RLOCK_DIR=${RLOCK_DIR:-$RUNS/$1}
    LAB_NAME=$1
    # A lab interrupted half-way must not leave a stopped worker or Redis behind.
    trap lab_end EXIT
}

lab_timeline() {
    rlock timeline --title "$LAB_NAME"
}

lab_end() {
    stop_workers
    local port
    for port in "${LAB_REDIS_PORTS[@]}"; do stop_lab_redis "$port"; done
}

# state_dir [--make]: refuses STATE in one line (exit 2) when it is a link or no directory, belongs to
# another user, can be written by group or others, or holds a symbolic link anywhere, or when a
# directory above it belongs to another user than root or this one, or others can write it without
# its sticky bit (as in /tmp): they could swap STATE for another. With --make, STATE is made first
# with mode 700 (mkdir follows no link) when missing, and group and others lose read access after the
# checks; a group's search access stays (as root, services.sh lets the group postgres reach
# PostgreSQL's directory).
state_dir() {
    local owner mode link dir=$STATE
    [[ ${1:-} != --make ]] || mkdir -p -- "$(dirname -- "$STATE")"
    while [[ $dir != / ]]; do
        dir=$(dirname -- "$dir")
        read -r owner mode <<<"$(stat -L -c '%u %a' -- "$dir")"
        if [[ $owner != 0 && $owner != "$EUID" ]] || ((8#$mode & 8#022 && !(8#$mode & 8#1000))); then
            usage_error "$dir, above $STATE, is not root's or $(id -un)'s alone: choose another ${STATE_VARIABLE:-RLOCK_STATE_DIR}"
        fi
    done
    [[ ${1:-} != --make ]] || mkdir -m 0700 -- "$STATE" 2>/dev/null || true
    [[ -d $STATE && ! -L $STATE ]] ||
        usage_error "$STATE is a symbolic link or no directory: choose another ${STATE_VARIABLE:-RLOCK_STATE_DIR}"
    read -r owner mode <<<"$(stat -c '%u %a' -- "$STATE")"
    [[ $owner == "$EUID" ]] ||
        usage_error "$STATE belongs to $(stat -c %U -- "$STATE"), not to $(id -un): choose another ${STATE_VARIABLE:-RLOCK_STATE_DIR}"
    if ((8#$mode & 8#022)); then
        usage_error "other users can write to $STATE (mode $mode): choose another ${STATE_VARIABLE:-RLOCK_STATE_DIR}"
    fi
    link=$(find "$STATE" -type l -print -quit)
    [[ -z $link ]] || usage_error "$link is a symbolic link, and nothing is written through one: remove it"
    if [[ ${1:-} == --make ]]; then chmod -- g-rw,o-rwx "$STATE"; fi
}

private_dir() {
    mkdir -m 0700 -- "$1" 2>/dev/null || [[ -d $1 && ! -L $1 ]] || usage_error "$1 is not a directory: remove it"
}

write_file() {
    local tmp
    tmp=$(mktemp -- "$1.XXXXXX")
    { cat >"$tmp" && mv -fT -- "$tmp" "$1"; } || { rm -f -- "$tmp"; return 1; }
}

# The start time of process PID (field 22 of /proc/PID/stat, after the command name, which may hold
# spaces or parentheses), and its command line with spaces between the arguments.
process_start() {
    local stat fields
    stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
    read -ra fields <<<"${stat##*) }"
    echo "${fields[19]}"
}
process_command() { local c; c=$(tr '\0\n' '  ' <"/proc/$1/cmdline" 2>/dev/null) || return 1; echo "${c% }"; }

record_process() {
    printf '%s\n' "$2" "$(process_start "$2")" "$(process_command "$2")" | write_file "$1"
}

recorded_pid() {
    local pid start command
    { read -r pid && read -r start && read -r command; } 2>/dev/null <"$1" || return 0
    if [[ $pid =~ ^[0-9]+$ && "$(process_start "$pid")" == "$start" && "$(process_command "$pid")" == "$command" ]]; then
        echo "$pid"
    fi
}

# close_inherited_fds: closes every descriptor of this shell above 2. A server started from a script
# outlives it and must not hold the caller's pipes and locks open while it runs (ctest's output
# pipe, a flock): Redis, pg_ctl, etcd and ZooKeeper keep whatever they inherit. Call it in the
# subshell that becomes the server: `(close_inherited_fds; exec redis-server CONF)`.
close_inherited_fds() {
    local fd
    for fd in /proc/$BASHPID/fd/*; do
        fd=${fd##*/}
        if ((fd > 2)); then eval "exec $fd>&-"; fi
    done
}

listener_pids() { ss -Hltnp "sport = :$1" 2>/dev/null | grep -o 'pid=[0-9]*' | cut -d= -f2 | sort -u; }

# throwaway_redis_conf DIR PORT [CONFIG-LINE...]: writes DIR/redis.conf for a Redis on 127.0.0.1:PORT
# with the throwaway settings (scripts/throwaway-redis.conf: no RDB, no AOF), daemonized, its pid
# file, log and data in DIR, then the lines given (which override those settings).
throwaway_redis_conf() {
    local dir=$1 port=$2; shift 2
    { cat "$ROOT/scripts/throwaway-redis.conf"
      printf '%s\n' "port $port" "daemonize yes" "pidfile $dir/redis.pid" "logfile $dir/redis.log" "dir $dir" "$@"
    } | write_file "$dir/redis.conf"
}

# lab_redis NAME PORT [CONFIG-LINE...]: starts a fresh throwaway Redis for this lab on 127.0.0.1:PORT
# from a config file of its own (no RDB, no AOF unless the lines say so), so that crashing, freezing
# or promoting it leaves the shared one alone. It is stopped when the lab ends.
lab_redis() {
    local name=$1 port=$2; shift 2
    local dir=$STATE/lab-$name
    need_packages redis-server
    state_dir --make
    stop_lab_redis "$port"
    rm -rf -- "$dir" && private_dir "$dir"
    throwaway_redis_conf "$dir" "$port" "$@"
    (close_inherited_fds; exec redis-server "$dir/redis.conf") >/dev/null || die "redis-server failed to start (see $dir/redis.log)"
    LAB_REDIS_PORTS+=("$port")
    local i
    for ((i = 0; i < 100; i++)); do
        [[ "$(redis-cli -p "$port" ping 2>/dev/null)" == PONG ]] && return 0
        sleep 0.1
    done
    die "the lab's Redis on 127.0.0.1:$port did not answer within 10 s (see $dir/redis.log)"
}

# lab_replicated_redis NAME PRIMARY-PORT REPLICA-PORT: a lab Redis (NAME-primary) that gives up on a
# silent replica after 2 s, and its replica (NAME-replica), once in sync.
lab_replicated_redis() {
    lab_redis "$1-primary" "$2" "repl-timeout 2"
    lab_redis "$1-replica" "$3" "replicaof 127.0.0.1 $2"
    wait_until 10 "the replica to sync" redis_field "$3" master_link_status up
}

wait_replica_dropped() {
    wait_until 10 "the primary to drop its frozen replica" redis_field "$1" connected_slaves 0
}

lab_sentinel() {
    local name=$1 port=$2 master_port=$3
    local dir=$STATE/lab-sentinel-$name
    state_dir --make
    stop_lab_redis "$port"
    rm -rf -- "$dir" && private_dir "$dir"
    # Quick to notice a dead master, so the lab's failover takes seconds, not half a minute.
    printf '%s\n' "bind 127.0.0.1" "port $port" "daemonize yes" "pidfile $dir/sentinel.pid" \
        "logfile $dir/sentinel.log" "dir $dir" "sentinel monitor $name 127.0.0.1 $master_port 1" \
        "sentinel down-after-milliseconds $name 1000" "sentinel failover-timeout $name 10000" | write_file "$dir/sentinel.conf"
    (close_inherited_fds; exec redis-server "$dir/sentinel.conf" --sentinel) >/dev/null || die "Sentinel failed to start (see $dir/sentinel.log)"
    LAB_REDIS_PORTS+=("$port")
    wait_until 15 "Sentinel to see the replica" sentinel_knows_replica "$port" "$name"
}

sentinel_names_master() { # sentinel_names_master PORT NAME MASTER-PORT
    [[ "$(redis-cli -p "$1" SENTINEL get-master-addr-by-name "$2" 2>/dev/null | tail -n 1)" == "$3" ]]
}

sentinel_knows_replica() {
    redis-cli -p "$1" SENTINEL replicas "$2" 2>/dev/null | grep -qx 'slave'
}

within() {
    local i
    for ((i = 0; i < $1 * 10; i++)); do
        "${@:2}" >/dev/null 2>&1 && return 0
        sleep 0.1
    done
    return 1
}

wait_until() {
    local seconds=$1 what=$2
    shift 2
    within "$seconds" "$@" || die "gave up waiting for $what after $seconds s"
}

redis_field() {
    redis-cli -p "$1" INFO 2>/dev/null | tr -d '\r' | grep -qx "$2:$3"
}

# Stops the lab Redis on PORT, frozen or not: a redis-server listening there that runs in a lab's
# directory (Redis works in its `dir`), which no other user can enter. Any other is left alone.
stop_lab_redis() {
    local pid state
    state=$(cd -- "$STATE" 2>/dev/null && pwd -P) || return 0
    for pid in $(pgrep -f "^redis-(server|sentinel) 127.0.0.1:$1\b" || true); do
        [[ "$(readlink "/proc/$pid/cwd")" == "$state"/lab-* ]] || continue
        kill -CONT "$pid" 2>/dev/null
        kill -KILL "$pid" 2>/dev/null
    done
    return 0
}

start_worker() {
    rlock worker "$@" &
    WORKERS[$1]=$!
}

stop_workers() {
    local pid
    for pid in "${WORKERS[@]}"; do kill -CONT "$pid" 2>/dev/null && kill "$pid" 2>/dev/null; done
    return 0
}

wait_worker() {
    local rc=0
    wait "${WORKERS[$1]}" || rc=$?
    unset "WORKERS[$1]"
    return $rc
}

wait_workers() {
    local name failed=()
    for name in "${!WORKERS[@]}"; do
        wait_worker "$name" || [[ " $* " == *" $name "* ]] || failed+=("$name")
    done
    ((${#failed[@]} == 0)) || die "worker ${failed[*]} failed (see its error above)"
}

wait_for_event() {
    wait_until 10 "$1's $2" grep -q "\"who\":\"$1\",\"event\":\"$2\"" "$RLOCK_DIR/events.jsonl"
}

wait_for_file() {
    local i limit=$((${2:-10} * 100))
    for ((i = 0; i < limit; i++)); do
        [[ -e $1 ]] && return 0
        sleep 0.01
    done
    die "$1 did not appear within ${2:-10} s"
}
