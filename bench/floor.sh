#!/usr/bin/env bash
# The machine's floor for issue 12's targets: what a server that does nothing
# but the unavoidable reaches on these cores, beside pgbench in the same run.
#
# Moves: for each round and client count, the naive move transaction in
# pgbench (as bench/compare_moves.sh runs it), the chosen write alone in
# pgbench, foxgeese-load against the real foxgeese-server over gRPC, then
# foxgeese-floor-client against foxgeese-floor-server, whose MakeMove is one
# durable statement and a canned reply. --write picks the statement:
# `trivial`, one UPDATE of one naive_games row (less than any move must
# write), or `move`, foxgeese's own
# move write (storage/statements.cpp, apply_move: the game row updated, the
# move, its repetition count and its watch event inserted, in one statement)
# with fixed values, on a thousand games in progress in foxgeese's schema.
# Two pairings, each the cheapest for some client counts: a sync client
# against a server that runs the statement on gRPC's own thread
# (no hop at all), and a callback client against a server that polls its
# connections from one thread. With --rest, each round also runs
# foxgeese-load over REST against foxgeese-server's HTTP port and the floor
# client over HTTP/1.1 against the floor server's (a thread per connection,
# the write on it, a canned JSON reply). The cluster is foxgeese-server's
# embedded one, with its settings (fsync and synchronous_commit on).
#
# Fan-out: the floor server without a database, every stream on one game,
# one move at a time (as bench/watch_fanout.sh), for each mix of gRPC
# WatchGame streams and raw TCP line streams in --mixes.
#
#   bench/floor.sh [--build-dir build-bench] [--rounds 3] [--seconds 6] [--warmup 2]
#                  [--clients "1 4 16"] [--write trivial|move] [--fanout-moves 30]
#                  [--mixes "5000:5000 10000:0 0:10000"] [--skip-moves] [--skip-fanout] [--rest]
set -euo pipefail
cd "$(dirname "$0")/.."

build=build-bench
rounds=3
seconds=6
warmup=2
clients="1 4 16"
write=trivial
fanout_moves=30
mixes="5000:5000 10000:0 0:10000"
do_moves=1
do_fanout=1
do_rest=0
while [ $# -gt 0 ]; do
    case "$1" in
        --build-dir) build="$2"; shift 2 ;;
        --rounds) rounds="$2"; shift 2 ;;
        --seconds) seconds="$2"; shift 2 ;;
        --warmup) warmup="$2"; shift 2 ;;
        --clients) clients="$2"; shift 2 ;;
        --write) write="$2"; shift 2 ;;
        --fanout-moves) fanout_moves="$2"; shift 2 ;;
        --mixes) mixes="$2"; shift 2 ;;
        --skip-moves) do_moves=0; shift ;;
        --skip-fanout) do_fanout=0; shift ;;
        --rest) do_rest=1; shift ;;
        *) echo "unknown argument $1" >&2; exit 2 ;;
    esac
done

case "$write" in trivial|move) ;; *) echo "--write is trivial or move" >&2; exit 2 ;; esac

source bench/server_lib.sh
bench_binaries "$build"
floor_server="$build/bench/foxgeese-floor-server"
floor_client="$build/bench/foxgeese-floor-client"
for bin in "$floor_server" "$floor_client"; do
    [ -x "$bin" ] || { echo "$bin is missing: build with -DFOXGEESE_BENCHMARKS=ON" >&2; exit 2; }
done

trivial_write='UPDATE naive_games SET ply = ply + 1, updated_at = now() WHERE game_id = $1'
# game_uuid N: the id of the move write's game number N (an SQL expression).
game_uuid() { echo "('00000000-0000-0000-0000-' || lpad($1::text, 12, '0'))::uuid"; }
move_games="INSERT INTO games (game_id, variant, visibility, state, start_position, start_geese,
    position, ply, quiet_plies, invite_code_hash, created_at, updated_at)
SELECT $(game_uuid g), 'standard', 2, 2,
    '3/3/7/3F3/GGGGGGG/GGG/GGG f 0 0', 13, '3/3/7/3F3/GGGGGGG/GGG/GGG f 0 0', 0, 0,
    md5(g::text), now(), now()
FROM generate_series(1, 1024) AS g"
move_write="WITH upd AS (UPDATE games SET position = '3/3/7/4F2/GGGGGGG/GGG/GGG g 1 1',
    ply = ply + 1, quiet_plies = 1, state = 2, result = 0, end_reason = 0, draw_offered_by = 0,
    updated_at = now(), finished_at = NULL, event_seq = event_seq + 1, fox_retry_until = NULL,
    geese_retry_until = NULL, fox_clock_ms = 0, geese_clock_ms = 0, turn_started_at = now(),
    deadline_at = NULL, bot_claimed_until = NULL, bot_claimed_by = NULL
    WHERE game_id = $(game_uuid '$1') AND state = 2
    RETURNING game_id, ply, event_seq, xmin::text::bigint AS version),
  mv AS (INSERT INTO moves (game_id, ply, notation, side, captured, position, state, result,
    end_reason, request_hash, response, created_at, think_ms, fox_clock_ms, geese_clock_ms)
    SELECT game_id, ply, 'd4-e4', 1, '', '3/3/7/4F2/GGGGGGG/GGG/GGG g 1 1', 2, 0, 0, NULL, NULL,
    now(), NULL, 0, 0 FROM upd RETURNING game_id),
  occ AS (INSERT INTO position_occurrences (game_id, position_key, occurrences, last_ply)
    SELECT game_id, md5(ply::text), 1, ply FROM upd
    ON CONFLICT (game_id, position_key) DO UPDATE
    SET occurrences = position_occurrences.occurrences + 1, last_ply = excluded.last_ply
    RETURNING game_id, occurrences),
  ev AS (INSERT INTO game_events (game_id, seq, body, created_at)
    SELECT game_id, event_seq, decode(repeat('ab', 400), 'hex'), now() FROM upd RETURNING game_id)
SELECT upd.version, upd.event_seq, occ.occurrences FROM upd, mv, occ"

# start_floor LOG PORT [FLAG...]: a floor server; one with a --database-url
# runs as the cluster's owner (the embedded cluster trusts its socket's owner),
# one without as this user (runuser's session would cap its open files at
# 1,024, fewer than the fan-out's streams).
start_floor() {
    local log="$1" port="$2"
    shift 2
    if [ "$(id -u)" = 0 ] && [[ " $* " == *" --database-url "* ]]; then
        bench_start "$log" runuser -u postgres -- "$floor_server" --grpc-port "$port" "$@"
    else
        bench_start "$log" "$floor_server" --grpc-port "$port" "$@"
    fi
    local _
    for _ in $(seq 1 100); do
        grep -q '^ready' "$work/$log" 2>/dev/null && return 0
        kill -0 "$bench_last_pid" 2>/dev/null || break
        sleep 0.1
    done
    echo "the floor server on port $port never became ready" >&2
    cat "$work/$log" >&2
    exit 1
}

if [ "$do_moves" = 1 ]; then
    bench_start_move_server 20841 28841 --bot-threads 0
    bench_naive_database
    if [ "$write" = move ]; then
        database=foxgeese
        psql_as psql "${pg[@]}" -d foxgeese -q -v ON_ERROR_STOP=1 -c "$move_games" >/dev/null
        sql="$move_write"
    else
        database=naive
        sql="$trivial_write"
    fi
    url="host=$work/pg port=5432 user=foxgeese dbname=$database"
    # The write alone, each pgbench client on its own game as the floor's.
    write_script="$work/write.sql"
    printf '\\set g :client_id + 1\n%s;\n' "${sql//\$1/:g}" >"$write_script"
    chmod 644 "$write_script"
    start_floor floor-inline.log 20842 --database-url "$url" --db-mode inline --sql "$sql" \
        --http-port 28842
    start_floor floor-async.log 20843 --database-url "$url" --db-mode async --sql "$sql"
    echo "MakeMove floor, the $write write"
    echo
    rest_header=""
    rest_rule=""
    if [ "$do_rest" = 1 ]; then
        rest_header=' foxgeese, REST | ratio | floor: REST, inline write | ratio |'
        rest_rule='---|---|---|---|'
    fi
    echo "| clients | round | naive pgbench (TPS, median, p99) | the write alone, pgbench | ratio | foxgeese, gRPC | ratio | floor: sync client, inline write | ratio | floor: callback client, polled write | ratio |$rest_header"
    echo "|---|---|---|---|---|---|---|---|---|---|---|$rest_rule"
    # cell RESULT BASE_RATE: "rate, median, p99 | ratio |"
    cell() {
        local rate
        rate="$(field "$1" rate)"
        printf ' %.0f, %.2f ms, %.2f ms | %.2f |' "$rate" "$(field "$1" median_ms)" \
            "$(field "$1" p99_ms)" "$(awk -v a="$rate" -v b="$2" 'BEGIN { print (b > 0 ? a / b : 0) }')"
    }
    for round in $(seq 1 "$rounds"); do
        for n in $clients; do
            base="$(bench_pgbench "$n" "$warmup" "$seconds")"
            base_rate="$(field "$base" rate)"
            printf '| %s | %s | %.0f, %.2f ms, %.2f ms |' "$n" "$round" "$base_rate" \
                "$(field "$base" median_ms)" "$(field "$base" p99_ms)"
            cell "$(bench_pgbench "$n" "$warmup" "$seconds" "$write_script" "$database")" \
                "$base_rate"
            cell "$("$load_bin" --server 127.0.0.1:20841 --clients "$n" --seconds "$seconds" \
                --warmup-seconds "$warmup" | tail -1)" "$base_rate"
            for pairing in "sync 20842" "callback 20843"; do
                set -- $pairing
                cell "$("$floor_client" moves --server "127.0.0.1:$2" --clients "$n" --api "$1" \
                    --seconds "$seconds" --warmup-seconds "$warmup")" "$base_rate"
            done
            if [ "$do_rest" = 1 ]; then
                cell "$("$load_bin" --transport rest --server 127.0.0.1:28841 --clients "$n" \
                    --seconds "$seconds" --warmup-seconds "$warmup" | tail -1)" "$base_rate"
                cell "$("$floor_client" moves --server 127.0.0.1:28842 --clients "$n" --api rest \
                    --seconds "$seconds" --warmup-seconds "$warmup")" "$base_rate"
            fi
            printf '\n'
        done
    done
    echo
fi

if [ "$do_fanout" = 1 ]; then
    # Ports below the range the kernel takes clients' ports from (32768 and
    # up), which the last mix's 10,000 closed connections may still hold.
    port=30844
    for mix in $mixes; do
        grpc_streams="${mix%%:*}"
        line_streams="${mix##*:}"
        start_floor "fanout-$port.log" "$port" --lines-port "$(( port + 1000 ))"
        "$floor_client" fanout --server "127.0.0.1:$port" --lines "$(( port + 1000 ))" \
            --grpc-streams "$grpc_streams" --line-streams "$line_streams" --moves "$fanout_moves"
        kill -TERM "$bench_last_pid" 2>/dev/null || true
        port=$(( port + 1 ))
        echo
    done
fi
