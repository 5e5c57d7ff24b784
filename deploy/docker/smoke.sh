#!/usr/bin/env bash
# Proves the image, not only its Dockerfile: builds deploy/docker/Dockerfile
# with podman, starts a throwaway PostgreSQL, runs the image's `migrate` and
# then `serve` the way deploy/k8s runs them (read-only root filesystem, a
# tmpfs on /tmp only, the image's own unprivileged user, no capabilities),
# plays a short game over REST with curl, and stops the server with SIGTERM,
# which must end it cleanly within its drain time. Ends with PASS or FAIL (and
# a non-zero exit). Everything it starts is removed on exit, failure or not.
#
# Run it from anywhere when the Dockerfile or the dependencies change
# (install-deps.sh, the Debian packages, a new library); it takes as long as a
# full build. Needs podman, curl, jq and PostgreSQL's server binaries (Debian
# `postgresql`); as root the cluster runs as `postgres`, since PostgreSQL
# refuses root.
#
#   deploy/docker/smoke.sh [--keep-image | --image IMAGE]
#
# --keep-image keeps the built image (foxgeese-server:smoke) for a look;
# --image IMAGE skips the build and proves IMAGE (one built before, or a
# release's), which it leaves in place.
# PG_BIN names PostgreSQL's bin directory (default: the newest under
# /usr/lib/postgresql). Base images come through podman's usual pull (a
# machine without a registry loads debian:12 and debian:12-slim beforehand);
# podman's machine settings (runtime, cgroup manager) belong in its
# containers.conf, not here.
#
# Host networking, for the build and the runs: the build downloads packages,
# and the container then reaches the throwaway PostgreSQL on 127.0.0.1 and
# curl reaches the server there, with no port publishing or bridge network
# (which rootless podman and some machines lack). So every port is picked
# free on the host.
set -euo pipefail

image=localhost/foxgeese-server:smoke
build=true
keep_image=false
usage() {
    echo "usage: $0 [--keep-image | --image IMAGE]" >&2
    exit 2
}
while [ $# -gt 0 ]; do
    case "$1" in
        --keep-image) keep_image=true ;;
        --image)
            [ $# -ge 2 ] || usage
            image="$2" build=false keep_image=true
            shift
            ;;
        *) usage ;;
    esac
    shift
done

repo_root="$(cd "$(dirname "$0")/../.." && pwd)"
run_id="foxgeese-smoke-$$"
drain_seconds=10
work=""
pg_data=""
containers=()
watch_pid=""

say() { printf '== %s\n' "$*"; }
fail() {
    printf 'smoke: %s\n' "$*" >&2
    exit 1
}

# As root, PostgreSQL's programs run as `postgres`; otherwise as the caller.
as_pg() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

cleanup() {
    local status=$?
    set +e
    [ -n "$watch_pid" ] && kill "$watch_pid" 2>/dev/null && wait "$watch_pid" 2>/dev/null
    local name
    for name in "${containers[@]}"; do podman rm -f -t 0 "$name" >/dev/null 2>&1; done
    if [ -n "$pg_data" ] && [ -f "$pg_data/postmaster.pid" ]; then
        as_pg "$PG_BIN/pg_ctl" -D "$pg_data" -m immediate -w stop >/dev/null 2>&1
    fi
    if [ "$keep_image" = false ]; then podman rmi -f "$image" >/dev/null 2>&1; fi
    [ -n "$work" ] && rm -rf "$work"
    if [ "$status" = 0 ]; then
        echo "PASS: $image migrates, serves a game read-only as its user and stops cleanly on SIGTERM"
    else
        echo "FAIL: deploy/docker/smoke.sh (see above)"
    fi
    exit "$status"
}
trap cleanup EXIT
trap 'echo "smoke: interrupted" >&2; exit 130' INT TERM

for tool in podman curl jq ss; do
    command -v "$tool" >/dev/null || fail "$tool is not installed"
done
if [ -z "${PG_BIN:-}" ]; then
    PG_BIN="$(printf '%s\n' /usr/lib/postgresql/*/bin | sort -V | tail -n 1)"
fi
[ -x "${PG_BIN:-}/initdb" ] || fail "no PostgreSQL server binaries (set PG_BIN)"

work="$(mktemp -d /tmp/foxgeese-smoke.XXXXXX)"
chmod 755 "$work"

# free_port: a TCP port nothing on the host listens on.
free_port() {
    local port
    for _ in $(seq 1 100); do
        port=$((20000 + RANDOM % 40000))
        if ! ss -Htln "sport = :$port" | grep -q .; then
            echo "$port"
            return
        fi
    done
    fail "no free port found"
}

# --- the image ----------------------------------------------------------------
build_seconds=0
if [ "$build" = true ]; then
    say "building $image from deploy/docker/Dockerfile (log: $work/build.log)"
    build_start=$(date +%s)
    set +e
    # Docker's image format, as a docker build makes: the OCI format has no
    # HEALTHCHECK, and podman would drop the Dockerfile's.
    (cd "$repo_root" && podman build --format docker --network host -f deploy/docker/Dockerfile -t "$image" .) \
        >"$work/build.log" 2>&1 &
    build_pid=$!
    # One line per Dockerfile step while it builds.
    tail -n +1 -f --pid "$build_pid" "$work/build.log" | grep --line-buffered -E '^(\[[0-9/]+\] )?STEP [0-9]+/' &
    wait "$build_pid"
    build_status=$?
    wait
    set -e
    build_seconds=$(($(date +%s) - build_start))
    if [ "$build_status" != 0 ]; then
        tail -n 40 "$work/build.log" >&2
        fail "podman build failed"
    fi
    say "built in $((build_seconds / 60)) min $((build_seconds % 60)) s"
fi
image_bytes=$(podman image inspect -f '{{.Size}}' "$image") || fail "no image $image"
image_user=$(podman image inspect -f '{{.Config.User}}' "$image")
say "image $image: $((image_bytes / 1000000)) MB, USER $image_user"
[[ "$image_user" =~ ^[1-9][0-9]*(:[0-9]+)?$ ]] || fail "the image's USER is '$image_user', not a numeric non-root uid"

# --- a throwaway PostgreSQL -------------------------------------------------------
pg_port=$(free_port)
pg_data="$work/pg"
pg_password="smoke-$RANDOM$RANDOM$RANDOM"
mkdir "$pg_data"
printf '%s\n' "$pg_password" >"$work/pwfile"
if [ "$(id -u)" = 0 ]; then chown postgres: "$pg_data" "$work/pwfile"; fi
say "starting a throwaway PostgreSQL on 127.0.0.1:$pg_port ($("$PG_BIN/postgres" --version))"
as_pg "$PG_BIN/initdb" -D "$pg_data" -U foxgeese --pwfile="$work/pwfile" \
    --auth-local=trust --auth-host=scram-sha-256 >"$work/initdb.log" 2>&1 ||
    { cat "$work/initdb.log" >&2; fail "initdb failed"; }
as_pg "$PG_BIN/pg_ctl" -D "$pg_data" -l "$pg_data/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $pg_port -k $pg_data" start >/dev/null ||
    { cat "$pg_data/server.log" >&2; fail "PostgreSQL did not start"; }
as_pg "$PG_BIN/psql" -h "$pg_data" -p "$pg_port" -U foxgeese -d postgres -qAt \
    -c "CREATE DATABASE foxgeese" >/dev/null
# Passed to podman through its environment, so it shows in no command line.
export DATABASE_URL="postgresql://foxgeese:$pg_password@127.0.0.1:$pg_port/foxgeese"

# run_flags: how deploy/k8s runs the image (securityContext and the /tmp
# emptyDir), on the host's network.
run_flags=(--network host --read-only --read-only-tmpfs=false --tmpfs "/tmp:rw,size=64m"
           --cap-drop ALL --security-opt no-new-privileges -e DATABASE_URL)

# --- migrate -------------------------------------------------------------------
say "podman run $image migrate (read-only, as the image's user)"
containers+=("$run_id-migrate")
podman run --name "$run_id-migrate" "${run_flags[@]}" "$image" migrate >"$work/migrate.log" 2>&1 ||
    { cat "$work/migrate.log" >&2; fail "migrate failed"; }
migrations=$(as_pg "$PG_BIN/psql" -h "$pg_data" -p "$pg_port" -U foxgeese -d foxgeese -qAt \
    -c "SELECT count(*) FROM schema_migrations")
[ "$migrations" -gt 0 ] || fail "migrate recorded no migrations"
say "migrate applied $migrations migrations"

# --- serve ---------------------------------------------------------------------
grpc_port=$(free_port)
http_port=$(free_port)
base="http://127.0.0.1:$http_port"
say "podman run $image serve on 127.0.0.1:$http_port (gRPC $grpc_port), not migrating on start"
containers+=("$run_id-serve")
podman run -d --name "$run_id-serve" "${run_flags[@]}" \
    -e FOXGEESE_LISTEN_ADDRESS=127.0.0.1 -e FOXGEESE_HTTP_PORT="$http_port" \
    -e FOXGEESE_GRPC_PORT="$grpc_port" -e FOXGEESE_MIGRATE_ON_START=false \
    -e FOXGEESE_DRAIN_SECONDS="$drain_seconds" "$image" serve >/dev/null 2>"$work/run.err" ||
    { cat "$work/run.err" >&2; fail "podman run failed"; }
server_log() { podman logs "$run_id-serve" 2>&1 | tail -n 30 >&2; }
ready=false
for _ in $(seq 1 600); do
    if curl -fs -o /dev/null "$base/readyz"; then ready=true; break; fi
    [ "$(podman container inspect -f '{{.State.Running}}' "$run_id-serve")" = true ] || break
    sleep 0.1
done
[ "$ready" = true ] || { server_log; fail "the server never became ready"; }
say "ready"

# PID 1 is the server (ENTRYPOINT in exec form); its real uid, as the container sees it.
uid=$(podman exec "$run_id-serve" grep '^Uid:' /proc/1/status | awk '{ print $2 }')
[ "$uid" = "${image_user%%:*}" ] || fail "the server runs as '$uid', not as the image's user ${image_user%%:*}"
if podman exec "$run_id-serve" touch /smoke 2>/dev/null; then fail "the root filesystem is writable"; fi
# Run once by hand: podman's timers for it need systemd, which may be absent
# (podman run then logs errors about it, kept in run.err).
podman healthcheck run "$run_id-serve" >/dev/null || fail "the image's HEALTHCHECK failed"
say "runs as uid $uid, root filesystem read-only, HEALTHCHECK passes"

# --- a game over REST ----------------------------------------------------------------
# call METHOD PATH [BODY [TOKEN]]: the response body; fails unless 2xx.
call() {
    local method="$1" path="$2" body="${3:-}" token="${4:-}" args=(-sS -X "$1")
    [ -n "$body" ] && args+=(-H 'content-type: application/json' -d "$body")
    [ -n "$token" ] && args+=(-H "authorization: Bearer $token")
    curl "${args[@]}" -w '\n%{http_code}' "$base$path" >"$work/response" ||
        fail "$method $path: curl failed"
    local code
    code=$(tail -n 1 "$work/response")
    sed '$d' "$work/response"
    [[ "$code" == 2* ]] || { sed '$d' "$work/response" >&2; fail "$method $path: HTTP $code"; }
}
# expect JSON FILTER WANT: the jq FILTER of JSON is WANT.
expect() {
    local got
    got=$(jq -r "$2" <<<"$1")
    [ "$got" = "$3" ] || fail "$2 is '$got', want '$3'"
}

say "creating a game as the fox"
created=$(call POST /v1/games '{"variant":"standard","seat":"SEAT_CHOICE_FOX"}')
game=$(jq -r .game.gameId <<<"$created")
fox=$(jq -r .seatToken <<<"$created")
expect "$created" .seat SEAT_FOX
expect "$created" .game.state GAME_STATE_WAITING

curl -sSN "$base/v1/games/$game:watch" >"$work/watch.ndjson" 2>"$work/watch.err" &
watch_pid=$!

say "joining game $game as the geese"
joined=$(call POST "/v1/games/$game:join" "$(jq -nc --arg c "$(jq -r .inviteCode <<<"$created")" '{inviteCode: $c}')")
geese=$(jq -r .seatToken <<<"$joined")
expect "$joined" .seat SEAT_GEESE
expect "$joined" .game.state GAME_STATE_ACTIVE

# The fox moves first: a move by the geese is refused with its reason.
refused=$(curl -sS -X POST "$base/v1/games/$game/moves" -H 'content-type: application/json' \
    -H "authorization: Bearer $geese" -d '{"move":"a3-a4","expectedPly":0}' -w '\n%{http_code}')
[ "$(tail -n 1 <<<"$refused")" = 400 ] || fail "a move out of turn got HTTP $(tail -n 1 <<<"$refused"), want 400"
refused=$(sed '$d' <<<"$refused")
expect "$refused" '.details[] | select(."@type" | endswith("ErrorInfo")) | .reason' NOT_YOUR_TURN

game_json=$(jq -c .game <<<"$joined")
played=()
for ply in 1 2 3 4; do
    side=$(jq -r .sideToMove <<<"$game_json")
    case "$side" in
        SIDE_FOX) token="$fox" ;;
        SIDE_GEESE) token="$geese" ;;
        *) fail "side to move is '$side'" ;;
    esac
    move=$(jq -r '.legalMoves[0]' <<<"$game_json")
    moved=$(call POST "/v1/games/$game/moves" \
        "$(jq -nc --arg m "$move" --argjson p $((ply - 1)) '{move: $m, expectedPly: $p}')" "$token")
    expect "$moved" .move.ply "$ply"
    expect "$moved" .move.notation "$move"
    game_json=$(jq -c .game <<<"$moved")
    played+=("$move")
    say "ply $ply: $side plays $move"
done

say "reading the game back"
read_back=$(call GET "/v1/games/$game")
expect "$read_back" .game.ply 4
expect "$read_back" .game.state GAME_STATE_ACTIVE
expect "$read_back" .game.position "$(jq -r .position <<<"$game_json")"
replay=$(call GET "/v1/games/$game/moves")
expect "$replay" '[.moves[].notation] | join(" ")' "${played[*]}"
record=$(call GET "/v1/games/$game/record")
grep -q "^1\. ${played[0]}" <<<"$record" || fail "the record lacks '1. ${played[0]}': $record"
say "the game, its moves and its record agree: ${played[*]}"

# --- SIGTERM ---------------------------------------------------------------------
# The watch stream saw every move; SIGTERM ends it and then the server.
for _ in $(seq 1 100); do
    [ "$(grep -c '"moveMade"' "$work/watch.ndjson")" = 4 ] && break
    sleep 0.1
done
[ "$(grep -c '"moveMade"' "$work/watch.ndjson")" = 4 ] ||
    fail "the watch stream did not see the four moves: $(cat "$work/watch.ndjson")"
say "sending SIGTERM (drain time ${drain_seconds} s, a watch stream open)"
stop_start=$(date +%s%N)
podman kill --signal TERM "$run_id-serve" >/dev/null
exit_code=$(timeout $((drain_seconds + 30)) podman wait "$run_id-serve") ||
    { server_log; fail "the server did not exit after SIGTERM"; }
stop_ms=$((($(date +%s%N) - stop_start) / 1000000))
wait "$watch_pid" || true
watch_pid=""
say "exited with status $exit_code after $stop_ms ms"
[ "$exit_code" = 0 ] || { server_log; fail "the server exited with status $exit_code"; }
[ "$stop_ms" -le $((drain_seconds * 1000)) ] ||
    fail "the server took $stop_ms ms to stop, over its drain time of $drain_seconds s"
if podman logs "$run_id-serve" 2>&1 | grep -qF "$pg_password"; then fail "the server logged the database password"; fi
built="not built here"
[ "$build" = true ] && built="built in $((build_seconds / 60)) min $((build_seconds % 60)) s"
say "image $((image_bytes / 1000000)) MB, $built, stopped in $stop_ms ms"
