#!/usr/bin/env bash
# The test command: installs what is missing, builds, and runs every test.
# Tests that need PostgreSQL start their own throwaway cluster.
set -euo pipefail
cd "$(dirname "$0")/../.."
deploy/local/install-deps.sh
deploy/local/build.sh "$@"
# Debian 12's own Node.js (18) builds everything, but the web tests' tools
# need 20 or later: web_tools_installed fails, and says why, on an older one.
if [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 20 ]; then
    echo "test.sh: warning: Node.js $(node --version) is too old for the web tests (label web," \
         "they need 20 or later); every other test runs" >&2
fi
cd "${FOXGEESE_BUILD_DIR:-build}"
ctest --output-on-failure --parallel "$(nproc)" --timeout 900
