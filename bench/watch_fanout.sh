#!/usr/bin/env bash
# Watch fan-out across two server processes on one PostgreSQL: server A (with
# the embedded cluster) takes the moves, server B serves the watchers, and
# foxgeese-watch-fanout times each move from A accepting it to each watcher
# on B receiving it. With --load-clients N, foxgeese-load plays MakeMove on A
# at full speed (N clients, their own games) for the whole run, so B's
# watchers are measured while the database and both servers are busy.
# --watch-flag FLAG passes FLAG to server B (e.g. --watch-walk-threads=1).
# Arguments after -- go to foxgeese-watch-fanout (see its header).
#
#   bench/watch_fanout.sh [--build-dir build-bench] [--load-clients 0] [--load-transport grpc]
#                         [--load-flag FLAG]... [--watch-flag FLAG]...
#                         -- --watchers 10000 --ndjson 5000 --stalled 20 --moves 50
set -euo pipefail
cd "$(dirname "$0")/.."

build=build-bench
load_clients=0
load_transport=grpc
load_flags=()
watch_flags=()
while [ $# -gt 0 ]; do
    case "$1" in
        --build-dir) build="$2"; shift 2 ;;
        --load-clients) load_clients="$2"; shift 2 ;;
        --load-transport) load_transport="$2"; shift 2 ;;
        --load-flag) load_flags+=("$2"); shift 2 ;;
        --watch-flag) watch_flags+=("$2"); shift 2 ;;
        --) shift; break ;;
        *) echo "unknown argument $1" >&2; exit 2 ;;
    esac
done

server_bin="$build/service/foxgeese-server"
for bin in "$server_bin" "$build/bench/foxgeese-watch-fanout" "$build/bench/foxgeese-load"; do
    [ -x "$bin" ] || { echo "$bin is missing: build with -DFOXGEESE_BENCHMARKS=ON" >&2; exit 2; }
done

source bench/server_lib.sh

# Ten thousand streams come from one address here; the limits per address
# are for the public.
limits=(--create-per-minute 0 --moves-per-second 0 --watch-streams-per-address 0 --watch-opens-per-minute 0
        --http-connections-per-address 0 --log-level warn)
bench_start a.log "$server_bin" --data-dir "$work/pg" --grpc-port 20831 --http-port 28831 \
    "${limits[@]}"
bench_wait_ready 28831
bench_start b.log "$server_bin" \
    --database-url "postgresql:///foxgeese?host=$work/pg&port=5432&user=foxgeese" \
    --grpc-port 20832 --http-port 28832 "${limits[@]}" "${watch_flags[@]}"
watch_pid=$bench_last_pid
bench_wait_ready 28832

if [ "$load_clients" -gt 0 ]; then
    port=20831
    [ "$load_transport" = rest ] && port=28831
    bench_start load.log "$build/bench/foxgeese-load" --transport "$load_transport" \
        --server "127.0.0.1:$port" --clients "$load_clients" --seconds 3600 --warmup-seconds 0 "${load_flags[@]}"
    sleep 2
fi
"$build/bench/foxgeese-watch-fanout" --move-server 127.0.0.1:20831 --watch-server 127.0.0.1:20832 \
    --watch-http 127.0.0.1:28832 --watch-pid "$watch_pid" "$@"
if [ "$load_clients" -gt 0 ]; then
    moves=$(curl -fs http://127.0.0.1:28831/metrics | awk '/^foxgeese_moves_applied_total/ { n += $2 } END { print n }')
    echo "load: $load_clients $load_transport clients on A, $moves moves applied on A in all"
fi
