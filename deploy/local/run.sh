#!/usr/bin/env bash
# The run command: installs what is missing, builds the server and the
# command-line client (not the tests: test.sh builds those), and starts the
# server. With no DATABASE_URL the server starts its own private PostgreSQL.
# Arguments are the server's flags, e.g. --http-port 9000.
set -euo pipefail
cd "$(dirname "$0")/../.."
deploy/local/install-deps.sh
FOXGEESE_BUILD_TARGETS="foxgeese-server foxgeese" deploy/local/build.sh
exec "${FOXGEESE_BUILD_DIR:-build}/service/foxgeese-server" "$@"
