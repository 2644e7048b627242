#!/usr/bin/env bash
# docs/scale/'s Kubernetes Indexed Job, GitHub Actions matrix and GNU parallel script, checked
# offline (tests/check_scale.py): they parse, and the fields and flags rlock reads are there. They
# were not run on a cluster. Usage: scale_manifests_test.sh RLOCK_BINARY. python3-yaml comes from
# scripts/test.sh.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
python3 -c 'import yaml' 2>/dev/null || { echo "python3-yaml is not installed (scripts/test.sh installs it)"; exit 1; }
exec python3 "$here/check_scale.py" "$here/../docs/scale" "$1"
