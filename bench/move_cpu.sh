#!/usr/bin/env bash
# Where a move's CPU goes: runs foxgeese-load against a real foxgeese-server
# (embedded PostgreSQL, fsync on) and reads the CPU time each side spent in
# the measured window from /proc: the server, PostgreSQL (every process of
# the cluster) and the load generator, each divided by the moves made.
# Throughput on two shared cores follows the sum, so this tells which part
# to work on, and it is steadier than a rate when the machine is noisy.
# Run as root or as a user who may own the cluster.
#
#   bench/move_cpu.sh [--build-dir build-bench] [--seconds 8] [--clients 4]
#                     [--transport grpc|rest] [--server-flag FLAG]... [--load-flag FLAG]...
set -euo pipefail
cd "$(dirname "$0")/.."

build=build-bench
seconds=8
clients=4
transport=grpc
server_flags=()
load_flags=()
while [ $# -gt 0 ]; do
    case "$1" in
        --build-dir) build="$2"; shift 2 ;;
        --seconds) seconds="$2"; shift 2 ;;
        --clients) clients="$2"; shift 2 ;;
        --transport) transport="$2"; shift 2 ;;
        --server-flag) server_flags+=("$2"); shift 2 ;;
        --load-flag) load_flags+=("$2"); shift 2 ;;
        *) echo "unknown argument $1" >&2; exit 2 ;;
    esac
done

source bench/server_lib.sh
bench_binaries "$build"
grpc_port=20821
http_port=28821
bench_start_move_server "$grpc_port" "$http_port" "${server_flags[@]}"
server_pid=$bench_last_pid

# CPU ticks (user + system) of the given processes, summed; one awk for them
# all, since a fork per process took over a second on the loaded cores.
ticks() {
    local pid files=()
    for pid in "$@"; do files+=("/proc/$pid/stat"); done
    [ ${#files[@]} -gt 0 ] || { echo 0; return; }
    { cat "${files[@]}" 2>/dev/null || true; } | awk '{ total += $14 + $15 } END { print total + 0 }'
}
postgres_pids() { pgrep -u postgres -f "postgres" | tr '\n' ' '; }

port=$grpc_port
[ "$transport" = rest ] && port=$http_port
# A warm-up run first (connections, prepared statements, caches).
"$load_bin" --transport "$transport" --server "127.0.0.1:$port" --clients "$clients" \
    --seconds 2 --warmup-seconds 0 "${load_flags[@]}" >/dev/null
"$load_bin" --transport "$transport" --server "127.0.0.1:$port" --clients "$clients" \
    --seconds "$seconds" --warmup-seconds 0 "${load_flags[@]}" >"$work/load.out" &
load_pid=$!
sleep 0.2
pg_pids=$(postgres_pids)
s0=$(ticks "$server_pid"); p0=$(ticks $pg_pids); l0=$(ticks "$load_pid")
t0=$(date +%s.%N)
# Read again just before the load generator exits (it runs `seconds`).
sleep "$(awk -v s="$seconds" 'BEGIN { print s - 1.5 }')"
s1=$(ticks "$server_pid"); p1=$(ticks $pg_pids); l1=$(ticks "$load_pid")
t1=$(date +%s.%N)
[ "$l1" -gt 0 ] || {
    echo "the load generator ended before the window did:" >&2
    cat "$work/load.out" >&2
    exit 1
}
wait "$load_pid"
result=$(tail -1 "$work/load.out")
rate=$(field "$result" rate)
hz=$(getconf CLK_TCK)
awk -v s=$(( s1 - s0 )) -v p=$(( p1 - p0 )) -v l=$(( l1 - l0 )) -v hz="$hz" -v rate="$rate" \
    -v t0="$t0" -v t1="$t1" -v c="$clients" -v tr="$transport" 'BEGIN {
    moves = rate * (t1 - t0)
    per = 1000.0 / hz / moves
    printf "%s, %d clients: %.0f moves/s; CPU per move: server %.3f ms, PostgreSQL %.3f ms, load generator %.3f ms, all %.3f ms\n",
        tr, c, rate, s * per, p * per, l * per, (s + p + l) * per
}'
