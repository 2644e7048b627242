#!/usr/bin/env bash
# Installs what the lock clients of clients/ need (docs/clients.md): python3-redis and python3-etcd3
# from Debian, Node.js and npm when there are none on PATH, and node-redlock's modules (npm ci from
# its lockfile). Run it once before judging those clients (the README's own-client example).
#   scripts/clients.sh install
set -euo pipefail
source "$(dirname "$0")/lib.sh"
case ${1:-} in
install) (($# == 1)) || usage_error "one argument only (usage: clients.sh install|--help)" ;;
-h | --help) script_help; exit 0 ;;
"") usage_error "usage: clients.sh install|--help" ;;
*) usage_error "unknown argument '$1' (usage: clients.sh install|--help)" ;;
esac
install_clients
say "the lock clients' packages are installed"
