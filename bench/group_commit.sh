#!/usr/bin/env bash
# The group commit of moves against PostgreSQL's one-transaction-per-move
# ceiling, side by side in one run: for each round and client count, the
# naive move transaction in pgbench (bench/naive_move/move.sql), then
# foxgeese-load's MakeMove (each client its own games) through two
# foxgeese-servers on the one embedded cluster: A commits the moves that
# wait together (the default, --move-batch-size 16) and B each move on its
# own (--move-batch-size 1). The two go in turns, first A then B in odd
# rounds, B then A in even ones. For A, the moves a commit carried on
# average in the window, from its /metrics (foxgeese_move_commit_moves).
# Prints a row per round and client count, then the medians of the ratios.
# Run as root or as a user who may own the cluster.
#
#   bench/group_commit.sh [--build-dir build-bench] [--rounds 3] [--seconds 8] [--warmup 2]
#                         [--clients "1 4 16"] [--transport grpc|rest] [--a-flag FLAG]...
set -euo pipefail
cd "$(dirname "$0")/.."

build=build-bench
rounds=3
seconds=8
warmup=2
clients="1 4 16"
transport=grpc
a_flags=()
while [ $# -gt 0 ]; do
    case "$1" in
        --build-dir) build="$2"; shift 2 ;;
        --rounds) rounds="$2"; shift 2 ;;
        --seconds) seconds="$2"; shift 2 ;;
        --warmup) warmup="$2"; shift 2 ;;
        --clients) clients="$2"; shift 2 ;;
        --transport) transport="$2"; shift 2 ;;
        --a-flag) a_flags+=("$2"); shift 2 ;;
        *) echo "unknown argument $1" >&2; exit 2 ;;
    esac
done

source bench/server_lib.sh
bench_binaries "$build"
bench_start_move_server 20851 28851 --bot-threads 0 "${a_flags[@]}"
bench_start b.log "$server_bin" \
    --database-url "postgresql:///foxgeese?host=$work/pg&port=5432&user=foxgeese" \
    --grpc-port 20852 --http-port 28852 --create-per-minute 0 --moves-per-second 0 \
    --log-level warn --bot-threads 0 --migrate-on-start false --move-batch-size 1
bench_wait_ready 28852
bench_naive_database

# commit_counts HTTP_PORT: "sum count" of foxgeese_move_commit_moves.
commit_counts() {
    curl -fs "http://127.0.0.1:$1/metrics" | awk '
        $1 == "foxgeese_move_commit_moves_sum" { s = $2 }
        $1 == "foxgeese_move_commit_moves_count" { c = $2 }
        END { printf "%s %s\n", s + 0, c + 0 }'
}

# run_load GRPC_PORT HTTP_PORT CLIENTS: foxgeese-load's summary line.
run_load() {
    local port="$1"
    [ "$transport" = rest ] && port="$2"
    "$load_bin" --transport "$transport" --server "127.0.0.1:$port" --clients "$3" \
        --seconds "$seconds" --warmup-seconds "$warmup" | tail -1
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }

rows="$work/rows"
: >"$rows"
printf '| clients | round | naive pgbench (TPS, median, p99) | A, batched (moves/s, median, p99) | A / pgbench | moves a commit | B, one a commit (moves/s, median, p99) | B / pgbench | A / B |\n'
printf '|---|---|---|---|---|---|---|---|---|\n'
for round in $(seq 1 "$rounds"); do
    for n in $clients; do
        base="$(bench_pgbench "$n" "$warmup" "$seconds")"
        base_rate="$(field "$base" rate)"
        order="a b"
        [ $(( round % 2 )) = 0 ] && order="b a"
        for server in $order; do
            if [ "$server" = a ]; then
                read -r sum0 count0 < <(commit_counts 28851)
                a="$(run_load 20851 28851 "$n")"
                read -r sum1 count1 < <(commit_counts 28851)
            else
                b="$(run_load 20852 28852 "$n")"
            fi
        done
        a_rate="$(field "$a" rate)"
        b_rate="$(field "$b" rate)"
        per_commit="$(awk -v s="$(( ${sum1%.*} - ${sum0%.*} ))" -v c="$(( ${count1%.*} - ${count0%.*} ))" \
            'BEGIN { printf "%.2f", (c > 0 ? s / c : 0) }')"
        printf '| %s | %s | %.0f, %.2f ms, %.2f ms | %.0f, %.2f ms, %.2f ms | %s | %s | %.0f, %.2f ms, %.2f ms | %s | %s |\n' \
            "$n" "$round" "$base_rate" "$(field "$base" median_ms)" "$(field "$base" p99_ms)" \
            "$a_rate" "$(field "$a" median_ms)" "$(field "$a" p99_ms)" "$(ratio "$a_rate" "$base_rate")" \
            "$per_commit" "$b_rate" "$(field "$b" median_ms)" "$(field "$b" p99_ms)" \
            "$(ratio "$b_rate" "$base_rate")" "$(ratio "$a_rate" "$b_rate")"
        echo "$n $(ratio "$a_rate" "$base_rate") $(ratio "$b_rate" "$base_rate") $(ratio "$a_rate" "$b_rate") $per_commit" >>"$rows"
    done
done

printf '\nMedians of %s rounds:\n\n| clients | A / pgbench | B / pgbench | A / B | moves a commit |\n|---|---|---|---|---|\n' "$rounds"
for n in $clients; do
    awk -v n="$n" '$1 == n' "$rows" | awk '
        function median(col,   i, j, t, k, v) {
            k = 0
            for (i = 1; i <= NR; i++) v[++k] = x[i, col]
            for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
            return k % 2 ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2
        }
        { for (c = 1; c <= NF; c++) x[NR, c] = $c }
        END { printf "| %s | %.2f | %.2f | %.2f | %.2f |\n", x[1, 1], median(2), median(3), median(4), median(5) }'
done
