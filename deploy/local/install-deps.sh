#!/usr/bin/env bash
# Installs every Debian 12 package foxgeese needs to build, test and run.
# Safe to run again: it only calls apt-get when something is missing.
set -euo pipefail

packages=(
    # toolchain
    build-essential cmake ninja-build pkg-config git ca-certificates
    # the formatting check (deploy/local/check-format.sh, run by .ci/run)
    clang-format
    # libraries
    libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler
    libpqxx-dev libpq-dev libspdlog-dev libfmt-dev libssl-dev libboost-dev
    nlohmann-json3-dev libcli11-dev libutfcpp-dev
    # share-link previews: drawing (cairo), PNG (libpng), GIF (giflib)
    libcairo2-dev libpng-dev libgif-dev
    # tests and benchmarks
    libgtest-dev libgmock-dev libbenchmark-dev
    # the database (the server's embedded default, and the tests' throwaway clusters)
    postgresql postgresql-contrib
    # load generation and the HTTP side's tests; jq reads the JSON answers in
    # the README's and docs' curl examples
    wrk curl jq
    # the web tests' browser, driven headless by playwright-core (tests/web)
    chromium
)

# Root runs apt-get itself (a fresh Debian has no sudo); anyone else asks sudo,
# and only when a package is missing.
sudo_if_needed() {
    if [ "$(id -u)" -eq 0 ]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1; then
        sudo "$@"
    else
        echo "install-deps: missing Debian packages: ${missing[*]}" >&2
        echo "install-deps: run this as root once, or install sudo, to install them" >&2
        exit 1
    fi
}

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Node.js and npm run the pinned proto linter; some machines ship Node.js from
# elsewhere, so only install Debian's when no node is present at all.
if ! command -v npm >/dev/null 2>&1; then
    missing+=(nodejs npm)
fi

if [ ${#missing[@]} -gt 0 ]; then
    echo "install-deps: installing ${missing[*]}"
    sudo_if_needed env DEBIAN_FRONTEND=noninteractive apt-get update -q
    sudo_if_needed env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# The pinned proto linter (npm packages, exactly as package-lock.json says).
repo_root="$(cd "$(dirname "$0")/../.." && pwd)"
if [ ! -x "$repo_root/tools/buf/node_modules/.bin/buf" ]; then
    (cd "$repo_root/tools/buf" && npm ci --no-audit --no-fund --loglevel=error)
fi
# npm ci in DIR unless its node_modules already holds what its lock file pins
# (npm writes node_modules/.package-lock.json on every install).
npm_ci_pinned() {
    local dir="$repo_root/$1"
    if [[ ! -f "$dir/node_modules/.package-lock.json" ||
          "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]]; then
        (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
    fi
}
# The build tools of the embedded web pages (TypeScript, openapi-typescript,
# Redoc); the build needs them.
npm_ci_pinned web
# The web tests' tools (the Redocly CLI, playwright-core) and the TypeScript
# example's own packages; the tests use these and never install anything.
# They need Node.js 20 or later, newer than Debian 12's nodejs (18), which is
# enough for the build (test.sh says so before it runs them).
npm_ci_pinned tests/web
npm_ci_pinned examples/typescript-client
