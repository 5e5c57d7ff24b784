#!/usr/bin/env bash
# The test command: installs what is missing, builds, and runs every test.
# Tests that need PostgreSQL start their own throwaway cluster.
set -euo pipefail
cd "$(dirname "$0")/../.."
deploy/local/install-deps.sh
deploy/local/build.sh "$@"
cd "${FOXGEESE_BUILD_DIR:-build}"
ctest --output-on-failure --parallel "$(nproc)" --timeout 900
