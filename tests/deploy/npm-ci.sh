#!/usr/bin/env bash
# Installs the schema packages exactly as package-lock.json pins them, when
# they are missing or the lock file changed since; the checks that need them
# run after this one (a CTest fixture), so npm never runs twice at once.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
  npm ci --no-audit --no-fund --loglevel=error >&2
fi
echo "schema packages installed"
