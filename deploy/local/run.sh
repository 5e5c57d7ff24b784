#!/usr/bin/env bash
# The run command: installs what is missing, builds the server and the
# command-line client (not the tests: test.sh builds those), and starts the
# server. With no DATABASE_URL the server starts its own private PostgreSQL.
# Arguments are the server's flags, e.g. --http-port 9000.
#
# FOXGEESE_TABLEBASE_GEESE=N first builds the tablebase of standard's
# forward-only games up to N geese (4..13; 8 takes half a minute, 13 under
# two hours and 14 GB of memory; a build resumes by layer, and one that is
# done only checks its files) into FOXGEESE_TABLEBASE_DIR (default: beside
# the embedded database, foxgeese/tablebase), which the server then maps.
set -euo pipefail
cd "$(dirname "$0")/../.."
deploy/local/install-deps.sh
FOXGEESE_BUILD_TARGETS="foxgeese-server foxgeese" deploy/local/build.sh
build_dir=${FOXGEESE_BUILD_DIR:-build}
if [[ -n "${FOXGEESE_TABLEBASE_GEESE:-}" ]]; then
    if [[ $(id -u) -eq 0 ]]; then
        data_home=/var/lib
    else
        data_home=${XDG_DATA_HOME:-$HOME/.local/share}
    fi
    export FOXGEESE_TABLEBASE_DIR=${FOXGEESE_TABLEBASE_DIR:-$data_home/foxgeese/tablebase}
    "$build_dir/tools/foxgeese" tablebase build --geese "$FOXGEESE_TABLEBASE_GEESE" \
        --dir "$FOXGEESE_TABLEBASE_DIR"
fi
exec "$build_dir/service/foxgeese-server" "$@"
