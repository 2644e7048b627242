#!/usr/bin/env bash
# An sshd of its own on loopback, to try rlock's shards over SSH (GNU parallel --sshlogin) on one
# machine (docs/scale.md): its host key, its config, a key pair of this user's allowed in, its pid
# and log files, all in a directory of its own, and a client config that reaches it as host
# rlock-loopback, checking that host key.
#   scripts/sshd.sh up      starts it; prints `export PARALLEL_SSH="ssh -F DIR/ssh_config"` (for parallel)
#   scripts/sshd.sh down    stops the sshd that `up` started, and its open sessions with it
#   eval "$(scripts/sshd.sh env)"   exports PARALLEL_SSH
# Directory: RLOCK_SSHD_DIR (/tmp/rlock-sshd), this user's alone. Port: RLOCK_SSHD_PORT (2722), on
# 127.0.0.1 only; keys only, no password. As root, sshd needs /run/sshd (its privilege separation
# directory, empty), which `up` makes when it is missing. The system's sshd and its keys are never
# read or stopped: a process is stopped only when this directory's pid file names it.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
STATE=${RLOCK_SSHD_DIR:-/tmp/rlock-sshd} STATE_VARIABLE=RLOCK_SSHD_DIR
[[ $STATE == /* ]] || STATE=$PWD/$STATE
PORT=${RLOCK_SSHD_PORT:-2722}
MARKER=$STATE/rlock-sshd

usage="usage: sshd.sh up|down|env [--help]"
case ${1:-} in
up | down | env) (($# == 1)) || usage_error "one argument only ($usage)" ;;
-h | --help) script_help; exit 0 ;;
"") usage_error "no command ($usage)" ;;
*) usage_error "unknown command '$1' ($usage)" ;;
esac
[[ $PORT =~ ^[0-9]+$ ]] && ((PORT > 0 && PORT < 65536)) || usage_error "RLOCK_SSHD_PORT '$PORT' is not a port"

# ours: the pid that sshd.pid notes, started when noted, running with our config. (sshd rewrites its
# command line, so record_process's whole-line proof does not hold for it.)
our_sshd() {
    local pid start
    { read -r pid && read -r start; } 2>/dev/null <"$STATE/sshd.pid" || return 0
    if [[ $pid =~ ^[0-9]+$ && "$(process_start "$pid")" == "$start" ]] &&
        tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "-f $STATE/sshd_config"; then
        echo "$pid"
    fi
}
# descendants PID: every process below PID, children first.
descendants() {
    local child
    for child in $(ps -o pid= --ppid "$1"); do echo "$child"; descendants "$child"; done
}
all_ended() { local p; for p; do ! kill -0 "$p" 2>/dev/null || return 1; done; }
print_env() { echo "export PARALLEL_SSH=\"ssh -F $STATE/ssh_config\""; }
answers() { ssh -F "$STATE/ssh_config" rlock-loopback true; }

up() {
    state_dir --make
    if [[ -f $MARKER ]]; then
        if [[ -n $(our_sshd) ]]; then say "already up in $STATE"; print_env; return; fi
    elif [[ -n $(ls -A "$STATE") ]]; then
        usage_error "$STATE holds files that sshd.sh did not make: choose another RLOCK_SSHD_DIR"
    fi
    echo "$$ $(date -u +%FT%TZ)" | write_file "$MARKER"
    [[ -z "$(ss -Hltn "sport = :$PORT" 2>/dev/null)" ]] ||
        die "127.0.0.1:$PORT answers already: left alone (set RLOCK_SSHD_PORT to a free port)"
    local key
    for key in host_ed25519 id_ed25519; do
        [[ -f $STATE/$key ]] || ssh-keygen -q -t ed25519 -N '' -C "rlock-$key" -f "$STATE/$key"
    done
    cp -- "$STATE/id_ed25519.pub" "$STATE/authorized_keys"
    echo "[127.0.0.1]:$PORT $(cut -d' ' -f1,2 "$STATE/host_ed25519.pub")" | write_file "$STATE/known_hosts"
    # StrictModes no: the authorized keys are in this directory, not under a home that sshd checks.
    write_file "$STATE/sshd_config" <<EOF
Port $PORT
ListenAddress 127.0.0.1
HostKey $STATE/host_ed25519
PidFile $STATE/sshd.daemon.pid
AuthorizedKeysFile $STATE/authorized_keys
AllowUsers $(id -un)
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
StrictModes no
UsePAM no
X11Forwarding no
AllowTcpForwarding no
AcceptEnv LANG LC_*
Subsystem sftp internal-sftp
EOF
    write_file "$STATE/ssh_config" <<EOF
Host rlock-loopback
    HostName 127.0.0.1
    Port $PORT
    User $(id -un)
    IdentityFile $STATE/id_ed25519
    IdentitiesOnly yes
    UserKnownHostsFile $STATE/known_hosts
    StrictHostKeyChecking yes
    BatchMode yes
    ConnectTimeout 5
EOF
    if [[ $EUID -eq 0 && ! -d /run/sshd ]]; then mkdir -m 0755 /run/sshd; fi
    /usr/sbin/sshd -t -f "$STATE/sshd_config" || die "sshd refuses $STATE/sshd_config"
    setsid /usr/sbin/sshd -D -e -f "$STATE/sshd_config" >>"$STATE/sshd.log" 2>&1 </dev/null &
    record_process "$STATE/sshd.pid" $!
    local i
    for ((i = 0; i < 100; i++)); do answers >/dev/null 2>&1 && break; sleep 0.1; done
    answers >/dev/null 2>&1 || { tail -n 20 "$STATE/sshd.log" >&2; down; die "sshd did not answer on 127.0.0.1:$PORT (log: $STATE/sshd.log)"; }
    say "up in $STATE: sshd on 127.0.0.1:$PORT, host rlock-loopback in $STATE/ssh_config"
    print_env
}

down() {
    [[ -e $STATE || -L $STATE ]] || return 0
    state_dir
    [[ -f $MARKER ]] || usage_error "$STATE was not made by sshd.sh up (no $(basename "$MARKER")): nothing stopped"
    local pid pids i
    pid=$(our_sshd)
    if [[ -n $pid ]]; then
        # Its sessions, each an sshd of its own below it with what it runs, end with it.
        pids=$(descendants "$pid")
        kill -TERM "$pid" $pids 2>/dev/null || true
        for ((i = 0; i < 50; i++)); do all_ended "$pid" $pids && break; sleep 0.1; done
        kill -KILL "$pid" $pids 2>/dev/null || true
    fi
    rm -f -- "$STATE/sshd.pid"
    say "down in $STATE"
}

case $1 in
up) up ;;
down) down ;;
env) print_env ;;
esac
