#!/usr/bin/env bash
# Installs every Debian 12 package foxgeese needs to build, test and run.
# Safe to run again: it only calls apt-get when something is missing.
set -euo pipefail

packages=(
    # toolchain
    build-essential cmake ninja-build pkg-config git ca-certificates
    # libraries
    libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler
    libpqxx-dev libpq-dev libspdlog-dev libfmt-dev libssl-dev libboost-dev
    nlohmann-json3-dev libcli11-dev
    # tests and benchmarks
    libgtest-dev libgmock-dev libbenchmark-dev
    # the database (the server's embedded default, and the tests' throwaway clusters)
    postgresql postgresql-contrib
    # load generation and the HTTP side's tests
    wrk curl
    # the web tests' browser, driven headless by playwright-core (tests/web)
    chromium
)

sudo_if_needed() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
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
# The build tools of the embedded web pages (TypeScript, openapi-typescript,
# Redoc), pinned by web/package-lock.json; the build needs them.
if [[ ! -f "$repo_root/web/node_modules/.package-lock.json" ||
      "$repo_root/web/package-lock.json" -nt "$repo_root/web/node_modules/.package-lock.json" ]]; then
    (cd "$repo_root/web" && npm ci --no-audit --no-fund --loglevel=error)
fi
