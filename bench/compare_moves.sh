#!/usr/bin/env bash
# MakeMove against PostgreSQL's own ceiling, side by side in one run: for each
# client count, the naive move transaction as a pgbench script
# (bench/naive_move/move.sql: six round trips) and foxgeese-load's MakeMove
# through a real foxgeese-server over gRPC and over REST, all on the one
# embedded PostgreSQL the server starts (fsync and synchronous_commit on).
# Prints a table of throughput, median and p99, and each transport's ratio to
# pgbench. Run as root or as a user who may own the cluster.
#
#   bench/compare_moves.sh [--build-dir build-bench] [--seconds 15] [--warmup 2]
#                          [--clients "1 4 16"] [--transports "grpc rest"]
#                          [--server-flag FLAG]...
set -euo pipefail
cd "$(dirname "$0")/.."

build=build-bench
seconds=15
warmup=2
clients="1 4 16"
transports="grpc rest"
server_flags=()
while [ $# -gt 0 ]; do
    case "$1" in
        --build-dir) build="$2"; shift 2 ;;
        --seconds) seconds="$2"; shift 2 ;;
        --warmup) warmup="$2"; shift 2 ;;
        --clients) clients="$2"; shift 2 ;;
        --transports) transports="$2"; shift 2 ;;
        --server-flag) server_flags+=("$2"); shift 2 ;;
        *) echo "unknown argument $1" >&2; exit 2 ;;
    esac
done

source bench/server_lib.sh
bench_binaries "$build"
grpc_port=20811
http_port=28811
bench_start_move_server "$grpc_port" "$http_port" "${server_flags[@]}"

bench_naive_database

run_load() {
    local transport="$1" n="$2" port="$grpc_port"
    [ "$transport" = rest ] && port="$http_port"
    "$load_bin" --transport "$transport" --server "127.0.0.1:$port" --clients "$n" \
        --seconds "$seconds" --warmup-seconds "$warmup" | tail -1
}

printf '| clients | naive pgbench (TPS, median, p99) |'
for t in $transports; do printf ' foxgeese %s (moves/s, median, p99) | ratio |' "$t"; done
printf '\n|---|---|'
for _ in $transports; do printf -- '---|---|'; done
printf '\n'
for n in $clients; do
    base="$(bench_pgbench "$n" "$warmup" "$seconds")"
    base_rate="$(field "$base" rate)"
    printf '| %s | %.0f, %.2f ms, %.2f ms |' "$n" "$base_rate" "$(field "$base" median_ms)" \
        "$(field "$base" p99_ms)"
    for t in $transports; do
        result="$(run_load "$t" "$n")"
        rate="$(field "$result" rate)"
        printf ' %.0f, %.2f ms, %.2f ms | %.2f |' "$rate" "$(field "$result" median_ms)" \
            "$(field "$result" p99_ms)" "$(awk -v a="$rate" -v b="$base_rate" 'BEGIN { print (b > 0 ? a / b : 0) }')"
    done
    printf '\n'
done
