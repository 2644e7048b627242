#!/usr/bin/env bash
# The C++ sources in the project's format (.clang-format, Debian 12's clang-format 14).
#   scripts/format.sh           reformats every tracked .cpp and .h in place
#   scripts/format.sh --check   changes nothing; lists the files not in format and fails (scripts/test.sh runs it)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
(($# <= 1)) || usage_error "one argument at most (usage: format.sh [--check] [--help])"
case ${1:-} in
"") mode=fix ;;
--check) mode=check ;;
-h | --help) script_help; exit 0 ;;
*) usage_error "unknown argument '$1' (usage: format.sh [--check] [--help])" ;;
esac
need_packages clang-format
cd "$ROOT"
mapfile -t files < <(git ls-files '*.cpp' '*.h')
if [[ $mode == fix ]]; then
    clang-format -i "${files[@]}"
    exit 0
fi
# One clang-format for every file (a process a file cost 10 s of CPU); a file at a time only to name
# those not in format.
clang-format --dry-run --Werror "${files[@]}" >/dev/null 2>&1 && exit 0
bad=()
for f in "${files[@]}"; do
    clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
((${#bad[@]} == 0)) || die "not in format (run scripts/format.sh): ${bad[*]}"
