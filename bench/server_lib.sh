# Shared by the bench scripts that run real servers (compare_moves.sh,
# growth.sh, watch_fanout.sh); sourced, not run. Sets `work`, a scratch
# directory with a short path (the embedded cluster's socket lives in it),
# and on exit stops every process started with bench_start and removes it
# (FG_KEEP=1 keeps it, for a look at the logs).
work="$(mktemp -d /tmp/fgbench.XXXXXX)"
chmod 755 "$work"
bench_pids=()
bench_cleanup() {
    local pid
    for pid in "${bench_pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${bench_pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    if [ -n "${FG_KEEP:-}" ]; then echo "kept $work" >&2; else rm -rf "$work"; fi
}
trap bench_cleanup EXIT

# bench_start LOG COMMAND...: runs COMMAND in the background (output to
# $work/LOG), stopped on exit; its pid is in bench_last_pid.
bench_start() {
    local log="$1"
    shift
    "$@" >"$work/$log" 2>&1 &
    bench_last_pid=$!
    bench_pids+=("$bench_last_pid")
}

# bench_wait_ready PORT: waits for the server whose HTTP port is PORT (the
# last one started) to answer /readyz; prints its log and fails if it dies
# or takes over a minute.
bench_wait_ready() {
    local _
    for _ in $(seq 1 600); do
        if curl -fs "http://127.0.0.1:$1/readyz" >/dev/null 2>&1; then return 0; fi
        kill -0 "$bench_last_pid" 2>/dev/null || break
        sleep 0.1
    done
    echo "the server on port $1 never became ready" >&2
    cat "$work"/*.log >&2
    exit 1
}

# The embedded cluster trusts its socket's owner (the server runs it as
# `postgres` when started as root).
psql_as() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# field RECORD KEY: the value of KEY in a `key=value ...` line.
field() { tr ' ' '\n' <<<"$1" | sed -n "s/^$2=//p"; }

# bench_binaries BUILD: sets server_bin and load_bin from the build tree,
# failing unless both were built (-DFOXGEESE_BENCHMARKS=ON).
bench_binaries() {
    server_bin="$1/service/foxgeese-server"
    load_bin="$1/bench/foxgeese-load"
    local bin
    for bin in "$server_bin" "$load_bin"; do
        [ -x "$bin" ] || { echo "$bin is missing: build with -DFOXGEESE_BENCHMARKS=ON" >&2; exit 2; }
    done
}

# The scripts' fixed ports are below 32768, where Linux takes no client's
# port from: a client socket left in TIME-WAIT on a port (after a run with
# 10,000 connections) keeps a listener off it for a minute.
#
# bench_start_move_server GRPC_PORT HTTP_PORT [FLAG...]: starts server_bin on
# its own embedded cluster in $work/pg for a load generator and waits until it
# is ready. The server's limits on one address are for the public; the load
# generator is one address playing as many games as it can, so they are off.
bench_start_move_server() {
    local grpc="$1" http="$2"
    shift 2
    bench_start server.log "$server_bin" --data-dir "$work/pg" --grpc-port "$grpc" \
        --http-port "$http" --create-per-minute 0 --moves-per-second 0 --log-level warn "$@"
    bench_wait_ready "$http"
}

# The embedded cluster's address, for psql and pgbench.
pg=(-h "$work/pg" -p 5432 -U foxgeese)

# bench_naive_database: the naive move transaction's tables
# (bench/naive_move/schema.sql) in a database `naive` of the cluster in $work/pg.
bench_naive_database() {
    psql_as psql "${pg[@]}" -d postgres -qAt -c "CREATE DATABASE naive" >/dev/null
    psql_as psql "${pg[@]}" -d naive -q -v ON_ERROR_STOP=1 -f bench/naive_move/schema.sql >/dev/null
}

# bench_pgbench CLIENTS WARMUP SECONDS [SCRIPT DATABASE]: runs SCRIPT (by
# default the naive move transaction, bench/naive_move/move.sql, on `naive`)
# with pgbench and prints `rate=... median_ms=... p99_ms=...` for the window
# after the warm-up, from pgbench's per-transaction log, so that it covers
# what the load generators measure.
bench_pgbench() {
    local n="$1" warmup="$2" seconds="$3" script="${4:-bench/naive_move/move.sql}"
    local database="${5:-naive}" dir start
    dir="$(mktemp -d "$work/pgbench.XXXXXX")"
    chmod 777 "$dir"
    start=$(date +%s)
    psql_as pgbench "${pg[@]}" -n -M prepared -f "$script" -c "$n" \
        -j "$(( n < 2 ? n : 2 ))" -T "$(( warmup + seconds ))" -l --log-prefix "$dir/tx" "$database" \
        >"$dir/out" 2>&1 || { cat "$dir/out" >&2; exit 1; }
    cat "$dir"/tx* | awk -v from="$(( start + warmup ))" -v to="$(( start + warmup + seconds ))" \
        '$5 >= from && $5 < to { print $3 / 1000.0 }' | sort -n | awk -v s="$seconds" '
        { v[NR] = $1 }
        END {
            if (NR == 0) { print "rate=0 median_ms=0 p99_ms=0"; exit }
            m = int(NR * 0.5) + 1; p = int(NR * 0.99) + 1; if (p > NR) p = NR
            printf "rate=%.1f median_ms=%.3f p99_ms=%.3f\n", NR / s, v[m], v[p]
        }'
}
