#!/usr/bin/env bash
# MakeMove, GetGame, ListMoves and /metrics on a nearly empty database (a
# thousand seeded games, so that the reads have games of the same length to
# read) and again after seeding it to --games finished games of --moves moves
# each (bench/growth/seed.sql), on one server with its embedded PostgreSQL (fsync
# and synchronous_commit on). MakeMove is foxgeese-load over gRPC; the reads
# are wrk over REST on randomly chosen stored games. Prints a table and the
# ratios seeded/empty. Needs wrk. Run as root or as a user who may own the
# cluster.
#
#   bench/growth.sh [--build-dir build-bench] [--games 1000000] [--moves 30]
#                   [--seconds 10] [--clients 4] [--server-flag FLAG]...
#
# --server-flag passes a flag to the server (for instance
# --server-flag=--move-cache-games=0, every move read from the database).
set -euo pipefail
cd "$(dirname "$0")/.."

build=build-bench
games=1000000
moves=30
seconds=10
clients=4
server_flags=()
while [ $# -gt 0 ]; do
    case "$1" in
        --build-dir) build="$2"; shift 2 ;;
        --games) games="$2"; shift 2 ;;
        --moves) moves="$2"; shift 2 ;;
        --seconds) seconds="$2"; shift 2 ;;
        --clients) clients="$2"; shift 2 ;;
        --server-flag) server_flags+=("$2"); shift 2 ;;
        --server-flag=*) server_flags+=("${1#--server-flag=}"); shift ;;
        *) echo "unknown argument $1" >&2; exit 2 ;;
    esac
done
for bin in "$build/service/foxgeese-server" "$build/bench/foxgeese-load"; do
    [ -x "$bin" ] || { echo "$bin is missing: build with -DFOXGEESE_BENCHMARKS=ON" >&2; exit 2; }
done
command -v wrk >/dev/null || { echo "wrk is missing (apt-get install wrk)" >&2; exit 2; }

source bench/server_lib.sh
bench_start server.log "$build/service/foxgeese-server" --data-dir "$work/pg" \
    --grpc-port 20851 --http-port 28851 --create-per-minute 0 --moves-per-second 0 \
    --log-level warn "${server_flags[@]}"
bench_wait_ready 28851
sql() { psql_as psql -h "$work/pg" -p 5432 -U foxgeese -d foxgeese -qAt "$@"; }

# One row: MakeMove, GetGame, ListMoves, /metrics; also kept for the ratios.
measure() {
    local label="$1"
    local load get list scrape
    load="$("$build/bench/foxgeese-load" --server 127.0.0.1:20851 --clients "$clients" \
        --seconds "$seconds" --warmup-seconds 2 | tail -1)"
    sql -c "SELECT game_id FROM games WHERE state = 3 AND ply = $moves ORDER BY random() LIMIT 5000" \
        >"$work/ids"
    get="$(GAME_IDS="$work/ids" READ_SUFFIX="" wrk -t2 -c4 -d"${seconds}s" \
        -s bench/growth/random_reads.lua http://127.0.0.1:28851 | tail -1)"
    list="$(GAME_IDS="$work/ids" READ_SUFFIX="/moves" wrk -t2 -c4 -d"${seconds}s" \
        -s bench/growth/random_reads.lua http://127.0.0.1:28851 | tail -1)"
    scrape="$(for _ in 1 2 3 4 5; do
        curl -fs -o /dev/null -w '%{time_total}\n' http://127.0.0.1:28851/metrics
    done | sort -n | sed -n 3p)"
    local size
    size="$(sql -c "SELECT pg_size_pretty(pg_database_size('foxgeese')) || ', ' ||
        (SELECT count(*) FROM games) || ' games, ' || (SELECT count(*) FROM moves) || ' moves'")"
    printf '| %s (%s) | %.0f moves/s, %.2f ms, %.2f ms | %.0f/s, %.2f ms, %.2f ms | %.0f/s, %.2f ms, %.2f ms | %.1f ms |\n' \
        "$label" "$size" "$(field "$load" rate)" "$(field "$load" median_ms)" "$(field "$load" p99_ms)" \
        "$(field "$get" rate)" "$(field "$get" median_ms)" "$(field "$get" p99_ms)" \
        "$(field "$list" rate)" "$(field "$list" median_ms)" "$(field "$list" p99_ms)" \
        "$(awk -v s="$scrape" 'BEGIN { print s * 1000 }')"
    eval "${label}_move=$(field "$load" rate) ${label}_get=$(field "$get" median_ms) ${label}_list=$(field "$list" median_ms)"
}

echo "| database | MakeMove gRPC, $clients clients (rate, median, p99) | GetGame REST (rate, median, p99) | ListMoves REST (rate, median, p99) | /metrics scrape (median of 5) |"
echo "|---|---|---|---|---|"
# The template game the seed copies: one played game.
"$build/bench/foxgeese-load" --server 127.0.0.1:20851 --clients 1 --moves 200 >/dev/null
sql -v games=1000 -v moves="$moves" -f bench/growth/seed.sql >/dev/null
measure empty
start=$(date +%s)
sql -v games="$(( games - 1000 ))" -v moves="$moves" -f bench/growth/seed.sql >/dev/null
echo "(seeded $(( games - 1000 )) more games of $moves moves in $(( $(date +%s) - start )) s)"
measure seeded
# Once more: the first pass after the seed also warms the caches.
measure seeded
awk -v a="$seeded_move" -v b="$empty_move" -v c="$seeded_get" -v d="$empty_get" \
    -v e="$seeded_list" -v f="$empty_list" 'BEGIN {
        printf "seeded/empty: MakeMove throughput %.2f, GetGame median %.2f, ListMoves median %.2f\n",
            a / b, c / d, e / f }'
