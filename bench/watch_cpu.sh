#!/usr/bin/env bash
# CPU per delivery of the watch fan-out: runs bench/watch_fanout.sh (no
# load), waits until every watcher is connected, then reads from /proc the
# CPU time of the watch server (B) and of the watchers' process over a
# window of the moves, and the moves A applied in it. Prints the fan-out's
# own figures and the two processes' microseconds of CPU per delivery.
#
#   bench/watch_cpu.sh [--build-dir build-bench] [--window 5] [--watchers 10000]
#                      [--ndjson 5000] [--moves 40]
set -euo pipefail
cd "$(dirname "$0")/.."

build=build-bench
window=5
watchers=10000
ndjson=5000
moves=40
while [ $# -gt 0 ]; do
    case "$1" in
        --build-dir) build="$2"; shift 2 ;;
        --window) window="$2"; shift 2 ;;
        --watchers) watchers="$2"; shift 2 ;;
        --ndjson) ndjson="$2"; shift 2 ;;
        --moves) moves="$2"; shift 2 ;;
        *) echo "unknown argument $1" >&2; exit 2 ;;
    esac
done

out="$(mktemp)"
trap 'rm -f "$out"' EXIT
bench/watch_fanout.sh --build-dir "$build" -- --watchers "$watchers" --ndjson "$ndjson" \
    --moves "$moves" >"$out" 2>&1 &
fanout=$!

# The ports are watch_fanout.sh's: A serves HTTP on 28831, B on 28832.
metric() {
    curl -fs "http://127.0.0.1:$1/metrics" 2>/dev/null | awk -v name="$2" '$1 ~ "^"name { n += $2 } END { print n + 0 }'
}
for _ in $(seq 1 600); do
    [ "$(metric 28832 foxgeese_active_watchers)" -ge "$watchers" ] && break
    kill -0 "$fanout" 2>/dev/null || break
    sleep 0.2
done
sleep 1
watch_pid="$(pgrep -f 'foxgeese-server.*--grpc-port 20832' | head -1)"
client_pid="$(pgrep -f foxgeese-watch-fanout | head -1)"
if [ -z "$watch_pid" ] || [ -z "$client_pid" ]; then
    wait "$fanout" || true
    cat "$out" >&2
    echo "the fan-out did not get going" >&2
    exit 1
fi
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
b0=$(ticks "$watch_pid"); c0=$(ticks "$client_pid"); m0=$(metric 28831 foxgeese_moves_applied_total)
sleep "$window"
b1=$(ticks "$watch_pid"); c1=$(ticks "$client_pid"); m1=$(metric 28831 foxgeese_moves_applied_total)
wait "$fanout"
grep -E '^(gRPC|NDJSON):' "$out"
hz=$(getconf CLK_TCK)
awk -v b=$((b1 - b0)) -v c=$((c1 - c0)) -v m=$((m1 - m0)) -v w="$watchers" -v hz="$hz" -v s="$window" 'BEGIN {
    if (m == 0) { print "no moves in the window"; exit 1 }
    printf "%d s window, %d moves: watch server %.2f s of CPU (%.1f us per delivery), watchers %.2f s (%.1f us per delivery)\n",
        s, m, b / hz, b / hz / m / w * 1e6, c / hz, c / hz / m / w * 1e6 }'
