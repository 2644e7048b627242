#!/usr/bin/env bash
# One shard of an rlock chaos campaign on servers of its own: what a batch engine's task runs
# (scripts/slurm-shards.sh for Slurm, GNU parallel's command over SSH; docs/scale.md).
#   scripts/shard.sh K/N DIR [CHAOS-OPTION...]
# makes DIR if need be, starts Redis and PostgreSQL (scripts/services.sh, state in DIR/servers-K), runs
# `rlock --dir DIR/shard-K chaos --shard K/N CHAOS-OPTION...` against them, and stops them, also when
# the shard fails or is killed. Exit 4 (a cell expected to be safe showed an anomaly) is a verdict,
# not a failure: it exits 0 then, so the engine does not run the shard again.
# Ports, so that shards on one machine never share a server: shard K takes a block of 1 + 5 J
# ports (J: its --jobs, 8 by default as chaos's) from RLOCK_SHARD_PORT (6800) + (1 + 5 J) (K - 1):
# its Redis the first, its --failover-port the next (2 a job), its --redlock-port after those (3 a
# job). Its PostgreSQL is on RLOCK_SHARD_PG_PORT (5800) + K - 1. Given servers (REDIS_URL,
# DATABASE_URL) are ignored: a shard's servers are its own. RLOCK_BIN: the rlock to run
# (build/rlock by default).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
usage="usage: shard.sh K/N DIR [CHAOS-OPTION...]"
[[ ${1:-} != -h && ${1:-} != --help ]] || { script_help; exit 0; }
[[ ${1:-} =~ ^([1-9][0-9]*)/([1-9][0-9]*)$ ]] && ((BASH_REMATCH[1] <= BASH_REMATCH[2])) ||
    usage_error "'${1:-}' is not K/N with K from 1 to N ($usage)"
(($# >= 2)) || usage_error "a directory is needed after $1 ($usage)"
k=${BASH_REMATCH[1]} shard=$1 dir=$2
shift 2
jobs=8 previous=""
for option in "$@"; do
    [[ $previous != --jobs ]] || jobs=$option
    [[ $option != --jobs=* ]] || jobs=${option#--jobs=}
    previous=$option
done
[[ $jobs =~ ^[1-9][0-9]?$ ]] || usage_error "--jobs '$jobs' is not a number of jobs"
block=$((1 + 5 * jobs))
redis_port=$((${RLOCK_SHARD_PORT:-6800} + block * (k - 1)))
pg_port=$((${RLOCK_SHARD_PG_PORT:-5800} + k - 1))
((redis_port + block <= 65000 && pg_port < 65536)) || usage_error "shard $shard's ports would pass 65000"
mkdir -p -- "$dir" 2>/dev/null && [[ -d $dir ]] || usage_error "$dir is not a directory, and cannot be made one"
dir=$(cd "$dir" && pwd)

unset REDIS_URL DATABASE_URL PGPASSFILE ETCD_ENDPOINT ZOOKEEPER_CONNECT
export RLOCK_STATE_DIR=$dir/servers-$k RLOCK_REDIS_PORT=$redis_port RLOCK_PG_PORT=$pg_port
# up's exports name the servers, which services.sh would then take for given ones and leave running.
trap 'env -u REDIS_URL -u DATABASE_URL -u PGPASSFILE "$ROOT/scripts/services.sh" down' EXIT
eval "$("$ROOT/scripts/services.sh" up redis postgres)"
rc=0
rlock --dir "$dir/shard-$k" chaos --shard "$shard" --failover-port $((redis_port + 1)) \
    --redlock-port $((redis_port + 1 + 2 * jobs)) "$@" || rc=$?
((rc != 4)) || rc=0
exit $rc
