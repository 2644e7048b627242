#!/usr/bin/env bash
# The project's PostgreSQL asks for a password: DATABASE_URL holds none, the pgpass file that
# PGPASSFILE names (mode 600) has it, and without it no one connects, over TCP or the Unix socket;
# the user nobody cannot read it. Needs root, and the servers of scripts/test.sh (scripts/services.sh).
# Usage: services_password_test.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/checks.sh"
: "${PGPASSFILE:?PGPASSFILE is not set: run the tests through scripts/test.sh}"
port=$(sed -E 's#.*:([0-9]+)/.*#\1#' <<<"$DATABASE_URL")
socket_dir=$(dirname "$PGPASSFILE")/pg
# psql_as USER ARGS...: psql as USER, never asking for a password, in a HOME without a ~/.pgpass.
psql_as() { local user=$1; shift; HOME=$work runuser -u "$user" -- psql -X -w -At "$@" </dev/null 2>>"$work/err.txt"; }

fails() { ! "$@"; }
without_pgpass() { env -u PGPASSFILE -u PGPASSWORD HOME="$work" psql -X -w -At "$@" </dev/null 2>/dev/null; }

check "DATABASE_URL holds no password" fails grep -q '://[^/@]*:[^/@]*@' <<<"$DATABASE_URL"
check "the pgpass file is mode 600" test "$(stat -c %a "$PGPASSFILE")" = 600
check "with it, psql connects" test "$(psql_as root "$DATABASE_URL" -c 'SELECT 1')" = 1
check "without it, psql cannot (TCP)" fails without_pgpass "$DATABASE_URL" -c 'SELECT 1'
check "without it, psql cannot (Unix socket)" fails without_pgpass -h "$socket_dir" -p "$port" -U postgres -d bank -c 'SELECT 1'
check "nobody cannot read the pgpass file" fails runuser -u nobody -- cat "$PGPASSFILE" 2>/dev/null
check "nobody cannot connect over TCP" fails psql_as nobody "$DATABASE_URL" -c 'SELECT 1'
check "nobody cannot reach the Unix socket" fails psql_as nobody -h "$socket_dir" -p "$port" -U postgres -d bank -c 'SELECT 1'
chmod 0755 "$work" && install -d -o postgres -m 0755 "$work/drop" # where a program postgres ran could write
psql_as nobody "$DATABASE_URL" -c "COPY (SELECT 1) TO PROGRAM 'touch $work/drop/ran'"
check "nobody cannot run a program as postgres" test ! -e "$work/drop/ran"
finish
