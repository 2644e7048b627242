#!/usr/bin/env bash
# Slurm, for real: scripts/slurm.sh starts munged, slurmctld and slurmd (one node on loopback,
# ports 6917 and 6918) in this test's directory; a tiny campaign runs as a 3-task array job
# (scripts/slurm-shards.sh: each task's Redis and PostgreSQL on ports of its own, 6800 to 6822
# and 5800 to 5802), merged by a job that waits on the array; the merged run gives the counts of the
# campaign run whole, cell by cell. `slurm.sh down` then leaves none of the daemons, and refuses a
# directory it did not make, leaving the process its pid file names alive. Whatever fails, the
# jobs are cancelled and every server and daemon started here is stopped.
# Usage: slurm_test.sh RLOCK_BINARY. Debian's slurmctld, slurmd, slurm-client and munge come from scripts/test.sh.
set -uo pipefail
rlock=$1
here=$(cd "$(dirname "$0")" && pwd)
source "$here/checks.sh"
source "$here/engine_shards.sh"
export RLOCK_SLURM_DIR=$work/cluster RLOCK_SLURMCTLD_PORT=6917 RLOCK_SLURMD_PORT=6918
export RLOCK_SHARD_PORT=6800 RLOCK_SHARD_PG_PORT=5800 RLOCK_ROOT=$root SLURM_CONF=$work/cluster/slurm.conf
on_exit() {
    [[ ! -f $work/cluster/slurmctld.pid ]] || scancel --quiet --user "$(id -un)" 2>/dev/null  # while it runs
    stop_task_servers
    "$root/scripts/slurm.sh" down >/dev/null 2>&1
    [[ -z ${sleeper:-} ]] || kill "$sleeper" 2>/dev/null
    rm -rf "$work"
}
trap on_exit EXIT
engine_shards_begin

"$root/scripts/slurm.sh" up >"$work/up.txt" 2>&1
check "slurm.sh up starts the cluster" test $? -eq 0 || cat "$work/up.txt" "$work"/cluster/*.log
check "its node takes jobs, on loopback only" bash -c "[[ \$(sinfo -h -o '%N %t %c') == 'rlock1 idle 3' ]] &&
    [[ \$(ss -Hltn 'sport = :6917 or sport = :6918' | awk '{print \$4}' | sort | tr '\n' ' ') == '127.0.0.1:6917 127.0.0.1:6918 ' ]]"
array=$(sbatch --parsable --array=1-3 --output="$work/task-%a.out" "$root/scripts/slurm-shards.sh" "$tasks" "${campaign[@]}")
check "sbatch takes the array job" test -n "$array"
run_whole  # here, on the tests' servers, while the array runs
merge=$(sbatch --parsable --dependency="afterok:$array" --output="$work/merge.out" \
    "$root/scripts/slurm-shards.sh" --merge "$tasks" --json "$work/merged.json")
for ((i = 0; i < 480; i++)); do  # 2 minutes at most, polled every 0.25 s (sbatch --wait polls every 10 s)
    [[ -n $(squeue -h -j "$array,$merge" 2>/dev/null) ]] || break
    sleep 0.25
done
check "the merge job, after the array, completed" bash -c "scontrol show job -o '$merge' | grep -q 'JobState=COMPLETED .*ExitCode=0:0'" ||
    cat "$work"/task-*.out "$work/merge.out"
engine_shards_check "$tasks/merged" "$work/merged.json" "$work"/task-{1,2,3}.out
check "the merge job names 3 shards" grep -q "^rlock merge: 3 shards of plan" "$work/merge.out"

pids=$(cat "$work"/cluster/*.pid | sed -n '1~3p')
running=$(sbatch --parsable --output=/dev/null --wrap 'sleep 301.3')
for ((i = 0; i < 100; i++)); do pgrep -f 'sleep 301[.]3' >/dev/null && break; sleep 0.1; done
check "a job runs" pgrep -f 'sleep 301[.]3'
"$root/scripts/slurm.sh" down >"$work/down.txt" 2>&1
check "slurm.sh down exits 0" test $? -eq 0 || cat "$work/down.txt"
for pid in $pids; do check "$(ps -o comm= "$pid") (pid $pid) is stopped" bash -c "! kill -0 $pid 2>/dev/null"; done
check "ports 6917 and 6918 are free" test -z "$(ss -Hltn 'sport = :6917 or sport = :6918')"
check "the running job's processes ended (job $running)" bash -c "! pgrep -f 'sleep 301[.]3' && ! pgrep -x slurmstepd"

# A directory that slurm.sh did not make, whose pid file names a running process: nothing stopped.
mkdir -m 700 "$work/foreign"
sleep 60 &
sleeper=$!
(source "$root/scripts/lib.sh" && record_process "$work/foreign/slurmd.pid" "$sleeper")
RLOCK_SLURM_DIR=$work/foreign "$root/scripts/slurm.sh" down >/dev/null 2>"$work/foreign.err"
check "down refuses a directory it did not make: exit 2, one line" \
    bash -c "test $? -eq 2 && test \$(wc -l <'$work/foreign.err') -eq 1" || cat "$work/foreign.err"
check "the process its pid file names is left running" kill -0 "$sleeper"
chmod 777 "$work/foreign"
RLOCK_SLURM_DIR=$work/foreign "$root/scripts/slurm.sh" down >/dev/null 2>"$work/foreign.err"
check "a directory others can write is refused naming RLOCK_SLURM_DIR" grep -q 'choose another RLOCK_SLURM_DIR' "$work/foreign.err"
finish
