#!/usr/bin/env bash
# Configures and builds foxgeese into ./build (warnings are errors).
# Extra arguments go to cmake, e.g. -DFOXGEESE_SANITIZE=ON.
set -euo pipefail
cd "$(dirname "$0")/../.."
build_dir=${FOXGEESE_BUILD_DIR:-build}
cmake -S . -B "$build_dir" -G Ninja -DFOXGEESE_WERROR=ON "$@"
cmake --build "$build_dir" --parallel "$(nproc)"
