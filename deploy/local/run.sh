#!/usr/bin/env bash
# The run command: installs what is missing, builds, and starts the server.
# With no DATABASE_URL the server starts its own private PostgreSQL.
set -euo pipefail
cd "$(dirname "$0")/../.."
deploy/local/install-deps.sh
deploy/local/build.sh
exec "${FOXGEESE_BUILD_DIR:-build}/service/foxgeese-server" "$@"
