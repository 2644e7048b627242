# Sourced by the tests that run shards on a batch engine (slurm_test.sh, parallel_ssh_test.sh),
# after checks.sh: the campaign, run whole here on the tests' servers, and its 3 shards' servers
# (scripts/shard.sh, ports from RLOCK_SHARD_PORT and RLOCK_SHARD_PG_PORT) stopped at the end
# whatever happened. Usage: engine_shards_begin; ...; run_whole; engine_shards_check ...; finish
# ttl and fenced-claim under none and kill: trials whose outcomes do not hang on timing (shards_test).
campaign=(--strategies ttl,fenced-claim --faults none,kill --trials 4 --jobs 2 --ttl 100 --seed 11)
block=11  # the ports a shard takes at --jobs 2 (scripts/shard.sh): Redis, 4 for failover, 6 for Redlock
tasks=$work/tasks      # the shards' runs, shard-K
servers=$work/tasks    # the shards' servers' state, servers-K (elsewhere when the engine runs them elsewhere)
root=$(cd "$here/.." && pwd)
export RLOCK_BIN=$rlock
engine_shards_begin() {
    # As root the shards' PostgreSQL runs as postgres, which must reach its state directory.
    chmod 711 "$work" && mkdir -p -m 711 "$tasks" "$servers"
}
redis_port() { echo $((RLOCK_SHARD_PORT + block * ($1 - 1))); }
pg_port() { echo $((RLOCK_SHARD_PG_PORT + $1 - 1)); }
stop_task_servers() { # the servers shard.sh started for shard K of 3, those left
    local k
    for k in 1 2 3; do
        [[ -d $servers/servers-$k && -n $(ss -Hltn "sport = :$(redis_port $k) or sport = :$(pg_port $k)") ]] || continue
        env -u REDIS_URL -u DATABASE_URL -u PGPASSFILE RLOCK_STATE_DIR="$servers/servers-$k" \
            RLOCK_REDIS_PORT="$(redis_port $k)" RLOCK_PG_PORT="$(pg_port $k)" "$root/scripts/services.sh" down >/dev/null 2>&1
    done
}
run_whole() {
    "$rlock" --dir "$work/whole" chaos "${campaign[@]}" --json "$work/whole.json" >"$work/whole.txt" 2>&1
    check "the whole campaign exits 0" test $? -eq 0 || cat "$work/whole.txt"
}
engine_shards_check() { # engine_shards_check MERGE-DIR MERGED.json TASK-OUTPUT...: the shards, their servers, the counts
    local k out
    for k in 1 2 3; do
        out=${*:2+k:1}
        check "shard $k/3 ran on a Redis of its own, on port $(redis_port $k)" \
            grep -q "redis started on 127.0.0.1:$(redis_port $k)\$" "$out" || cat "$out"
        check "shard $k/3 stored its run" test -d "$(ls -d "$tasks/shard-$k"/chaos/runs/*-seed11-shard${k}of3 2>/dev/null)"
        check "shard $k/3's Redis and PostgreSQL are stopped" \
            bash -c "[[ -z \$(ss -Hltn 'sport = :$(redis_port $k)' 'or sport = :$(pg_port $k)') ]]"
    done
    check "the merged run is stored with its report" test -s "$(ls -d "$1"/chaos/runs/*-seed11 2>/dev/null | head -n 1)/report.html"
    check "the merged shards give the whole campaign's counts, cell by cell" python3 "$here/same_counts.py" "$work/whole.json" "$2"
}
