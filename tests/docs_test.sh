#!/usr/bin/env bash
# The docs against the tree and the binary: README.md's and docs/**'s links and anchors lead
# somewhere, the figures the guides state are the binary's (tests/docs_check.py), and docs/cli.md is
# what scripts/cli-doc.sh writes from --help, to the letter. Reads the tree, writes nothing in it.
# Usage: docs_test.sh RLOCK_BINARY SOURCE_DIR
set -uo pipefail
rlock=$1 root=$2
failed=0
python3 "$root/tests/docs_check.py" "$root" "$rlock" || failed=1
"$root/scripts/cli-doc.sh" --check "$rlock" || failed=1
exit "$failed"
