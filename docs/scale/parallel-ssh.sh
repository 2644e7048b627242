#!/usr/bin/env bash
# rlock chaos over SSH with GNU parallel: shard K of 100 on whichever machine of machines.txt is
# free, one shard a machine at a time (a shard's servers and accounts are the machine's own), each
# run brought back to ./shards/K, then merged here (docs/scale.md). Every machine holds this
# repository, built, in /src. Not run here: tests/scale_manifests_test.sh checks its flags offline.
set -euo pipefail
seq 1 100 | parallel --jobs 1 --sshloginfile machines.txt --workdir /src --return 'shards/{}' --cleanup \
    'eval "$(scripts/services.sh up)" >/dev/null && { build/rlock --dir shards/{} chaos --seed 2026 --trials 200 --shard {}/100 >shards-{}.log 2>&1 || [ $? -eq 4 ]; }'
build/rlock --dir merged merge shards/*/chaos/runs/*
