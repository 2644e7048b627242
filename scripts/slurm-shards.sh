#!/usr/bin/env bash
# Slurm's batch script for an rlock chaos campaign cut into shards: array task K of N runs shard
# K/N on servers of its own (scripts/shard.sh; their ports from K), then a job that waits on the
# array merges the shards (docs/scale.md):
#   job=$(sbatch --parsable --array=1-N scripts/slurm-shards.sh DIR CHAOS-OPTION...)
#   sbatch --dependency=afterok:$job scripts/slurm-shards.sh --merge DIR [MERGE-OPTION...]
# DIR is shared by the tasks: each writes DIR/shard-K, the merge DIR/merged. Slurm runs a copy of
# this script, so a job finds the repository through RLOCK_ROOT, or else the directory sbatch was
# called from. The merge exits 0 on exit 4 (an anomaly where none was expected: a verdict).
set -euo pipefail
if [[ -n ${SLURM_JOB_ID:-} ]]; then root=${RLOCK_ROOT:-${SLURM_SUBMIT_DIR:-.}}; else root=$(dirname "$0")/..; fi
[[ -f $root/scripts/lib.sh ]] || { echo "slurm-shards.sh: no rlock repository in $root: set RLOCK_ROOT" >&2; exit 2; }
source "$root/scripts/lib.sh"
case ${1:-} in
-h | --help) script_help; exit 0 ;;
--merge)
    (($# >= 2)) || usage_error "--merge needs the shards' directory (usage: slurm-shards.sh --merge DIR [MERGE-OPTION...])"
    shopt -s nullglob
    rc=0
    rlock --dir "$2/merged" merge "$2"/shard-*/chaos/runs/*-shard*of* "${@:3}" || rc=$?
    ((rc != 4)) || rc=0
    exit $rc ;;
esac
[[ -n ${SLURM_ARRAY_TASK_ID:-} && -n ${SLURM_ARRAY_TASK_COUNT:-} ]] ||
    usage_error "not an array task, given '${1:-}': submit it with sbatch --array=1-N"
exec "$root/scripts/shard.sh" "$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT" "$@"
