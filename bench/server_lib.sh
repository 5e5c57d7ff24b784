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
