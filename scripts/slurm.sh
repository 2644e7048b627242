#!/usr/bin/env bash
# A Slurm cluster of one node on loopback, for running rlock's shards as an array job (docs/scale.md):
# munged, slurmctld and slurmd as this user, each its own process, everything in a directory of its
# own: the munge key and socket, slurm.conf, the controller's state, slurmd's spool, the logs and
# the pid files. Debian's slurmctld, slurmd, slurm-client and munge (scripts/test.sh installs them).
#   scripts/slurm.sh up      starts them and waits until the node takes jobs; prints `export SLURM_CONF=...`
#   scripts/slurm.sh down    cancels its jobs (their processes end with them), then stops what `up` started
#   eval "$(scripts/slurm.sh env)"   exports SLURM_CONF, which sbatch, squeue and sinfo then read
# Directory: RLOCK_SLURM_DIR (/tmp/rlock-slurm-cluster), this user's alone (as services.sh's state
# directory). Ports on 127.0.0.1: RLOCK_SLURMCTLD_PORT (6917) and RLOCK_SLURMD_PORT (6918). The node
# declares 3 CPUs, whatever the machine has: array tasks mostly wait on their servers.
# A process is stopped only when a pid file of this directory names it with its start time and
# command line, or when it is this user's and its command line is the one up gave it, naming this
# directory's files; a system Slurm or munge (/etc/slurm, /run/munge) is never read, used or stopped.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
STATE=${RLOCK_SLURM_DIR:-/tmp/rlock-slurm-cluster} STATE_VARIABLE=RLOCK_SLURM_DIR
[[ $STATE == /* ]] || STATE=$PWD/$STATE
CTLD_PORT=${RLOCK_SLURMCTLD_PORT:-6917}
SLURMD_PORT=${RLOCK_SLURMD_PORT:-6918}
MARKER=$STATE/rlock-slurm   # written first by up; down touches nothing in a directory without it
CONF=$STATE/slurm.conf
SOCKET=$STATE/munge/munge.socket
NODE=rlock1
DAEMONS=(munged slurmctld slurmd)   # started in this order

usage="usage: slurm.sh up|down|env [--help]"
case ${1:-} in
up | down | env) (($# == 1)) || usage_error "one argument only ($usage)" ;;
-h | --help) script_help; exit 0 ;;
"") usage_error "no command ($usage)" ;;
*) usage_error "unknown command '$1' ($usage)" ;;
esac
for port in "$CTLD_PORT" "$SLURMD_PORT"; do
    [[ $port =~ ^[0-9]+$ ]] && ((port > 0 && port < 65536)) || usage_error "'$port' is not a port"
done

running() { [[ -n $(recorded_pid "$STATE/$1.pid") ]]; }
port_taken() { [[ -n "$(ss -Hltn "sport = :$1" 2>/dev/null)" ]]; }
write_conf() {
    local user; user=$(id -un)
    write_file "$CONF" <<EOF
# Written by scripts/slurm.sh up; its directory is $STATE.
ClusterName=rlock
SlurmctldHost=$(hostname -s)(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
CommunicationParameters=NoInAddrAny,NoCtldInAddrAny
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$SOCKET
StateSaveLocation=$STATE/ctld
SlurmdSpoolDir=$STATE/spool
SlurmctldPidFile=$STATE/ctld/slurmctld.daemon.pid
SlurmdPidFile=$STATE/spool/slurmd.daemon.pid
SlurmctldLogFile=$STATE/slurmctld.log
SlurmdLogFile=$STATE/slurmd.log
SlurmdParameters=config_overrides
ProctrackType=proctrack/pgid
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
DependencyParameters=kill_invalid_depend
KillWait=5
PlugStackConfig=$STATE/plugstack.conf
NodeName=$NODE NodeHostname=$(hostname -s) NodeAddr=127.0.0.1 CPUs=3 State=UNKNOWN
PartitionName=rlock Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
EOF
}

start() { # start NAME COMMAND...: runs COMMAND in the foreground of a session of its own, noted in NAME.pid
    local name=$1; shift
    setsid "$@" >>"$STATE/$name.out" 2>&1 </dev/null &
    record_process "$STATE/$name.pid" $!
}

up() {
    state_dir --make
    if [[ -f $MARKER ]]; then
        local all=true d
        for d in "${DAEMONS[@]}"; do running "$d" || all=false; done
        if $all; then say "already up in $STATE"; echo "export SLURM_CONF=$CONF"; return; fi
        down_daemons
    elif [[ -n $(ls -A "$STATE") ]]; then
        usage_error "$STATE holds files that slurm.sh did not make: choose another RLOCK_SLURM_DIR"
    fi
    echo "$$ $(date -u +%FT%TZ)" | write_file "$MARKER"
    local port
    for port in "$CTLD_PORT" "$SLURMD_PORT"; do
        ! port_taken "$port" || die "127.0.0.1:$port answers already: left alone (set RLOCK_SLURMCTLD_PORT and RLOCK_SLURMD_PORT to free ports)"
    done
    private_dir "$STATE/munge" && private_dir "$STATE/ctld" && private_dir "$STATE/spool"
    [[ -f $STATE/munge/munge.key ]] || { umask 077 && head -c 1024 /dev/urandom >"$STATE/munge/munge.key"; }
    : | write_file "$STATE/plugstack.conf"
    write_conf
    start munged munged --foreground --force --socket="$SOCKET" --key-file="$STATE/munge/munge.key" \
        --pid-file="$STATE/munge/munged.daemon.pid" --log-file="$STATE/munge/munged.log" \
        --seed-file="$STATE/munge/munged.seed"
    within 10 test -S "$SOCKET" || fail_up munged
    start slurmctld slurmctld -D -c -f "$CONF"
    within 20 env SLURM_CONF="$CONF" scontrol ping || fail_up slurmctld
    start slurmd slurmd -D -N "$NODE" -f "$CONF"
    within 30 node_idle || fail_up slurmd
    say "up in $STATE: slurmctld on 127.0.0.1:$CTLD_PORT, slurmd ($NODE, 3 CPUs) on 127.0.0.1:$SLURMD_PORT"
    echo "export SLURM_CONF=$CONF"
}
node_idle() { [[ $(SLURM_CONF=$CONF sinfo -h -n "$NODE" -o %t 2>/dev/null) == idle ]]; }
fail_up() { # fail_up DAEMON: its log's end, everything stopped, exit 1
    local log=$STATE/$1.out
    [[ $1 != slurmctld && $1 != slurmd ]] || log=$STATE/$1.log
    tail -n 20 "$log" >&2 2>/dev/null || true
    down_daemons
    die "$1 did not start (log: $log)"
}

all_ended() { local pid; for pid; do ! kill -0 "$pid" 2>/dev/null || return 1; done; }
# strays: this user's processes whose command line is one that up gives a daemon, naming this
# directory's slurm.conf or munge key (a daemon whose pid file was lost): ours, and left running.
strays() {
    local proc command
    for proc in /proc/[0-9]*; do
        [[ -O $proc ]] || continue
        command=$(tr '\0' ' ' <"$proc/cmdline" 2>/dev/null) || continue
        case ${command% } in
        "slurmctld -D -c -f $CONF" | "slurmd -D -N $NODE -f $CONF" | "munged --foreground --force --socket=$SOCKET "*) echo "${proc#/proc/}" ;;
        esac
    done
}
down_daemons() { # TERM to all at once (each takes a second or two to end), KILL to any left after 15 s
    local d pid pids=()
    for d in "${DAEMONS[@]}"; do
        pid=$(recorded_pid "$STATE/$d.pid")
        [[ -z $pid ]] || { kill -TERM "$pid" 2>/dev/null && pids+=("$pid"); }
    done
    for pid in $(strays); do
        [[ " ${pids[*]} " == *" $pid "* ]] || { say "stopping pid $pid, started from $STATE without its pid file"; kill -TERM "$pid" && pids+=("$pid"); }
    done
    if ((${#pids[@]})) && ! within 15 all_ended "${pids[@]}"; then
        kill -KILL "${pids[@]}" 2>/dev/null || true
    fi
    for d in "${DAEMONS[@]}"; do rm -f -- "$STATE/$d.pid"; done
}

# cancel_jobs: every job of this cluster cancelled while its daemons run, and waited for: slurmd
# signals each job's process group (a shard's script stops its servers), KILL after KillWait.
no_jobs() { [[ -z $(SLURM_CONF=$CONF squeue -h -o %i 2>/dev/null) ]]; }
cancel_jobs() {
    running slurmctld || return 0
    local jobs
    jobs=$(SLURM_CONF=$CONF squeue -h -o %i 2>/dev/null) || true
    [[ -z $jobs ]] || SLURM_CONF=$CONF scancel --quiet --full $jobs 2>/dev/null || true
    within 30 no_jobs || say "jobs still listed 30 s after their cancel"
}
# job_processes: this cluster's job steps and their processes left: slurmstepd, and whatever runs
# with the SLURM_CONF and a SLURM_JOB_ID that slurmd gave a job's environment.
job_processes() {
    local proc environment
    for proc in /proc/[0-9]*; do
        environment=$({ tr '\0' '\n' <"$proc/environ"; } 2>/dev/null) || continue
        grep -qxF "SLURM_CONF=$CONF" <<<"$environment" || continue
        if grep -q '^SLURM_JOB_ID=' <<<"$environment" || [[ $(cat "$proc/comm" 2>/dev/null) == slurmstepd ]]; then
            echo "${proc#/proc/}"
        fi
    done
    return 0
}
down() {
    [[ -e $STATE || -L $STATE ]] || return 0
    state_dir
    [[ -f $MARKER ]] || usage_error "$STATE was not made by slurm.sh up (no $(basename "$MARKER")): nothing stopped"
    cancel_jobs
    down_daemons
    local pids
    pids=$(job_processes)
    if [[ -n $pids ]]; then
        say "stopping the job processes left: $(echo $pids)"
        kill -KILL $pids 2>/dev/null || true
        # A KILL is delivered, not yet done: down returns once they are gone (reaped).
        within 10 all_ended $pids || say "job processes still there 10 s after their KILL: $(echo $pids)"
    fi
    say "down in $STATE"
}

case $1 in
up) up ;;
down) down ;;
env) echo "export SLURM_CONF=$CONF" ;;
esac
