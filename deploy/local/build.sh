#!/usr/bin/env bash
# Configures and builds foxgeese into ./build (warnings are errors).
# Extra arguments go to cmake, e.g. -DFOXGEESE_SANITIZE=ON. A build directory
# configured before is only built: the build re-runs CMake by itself when a
# CMakeLists.txt changed, so a second run says nothing it said the first time.
# FOXGEESE_BUILD_TARGETS (space-separated) builds only those targets and what
# they need; unset, everything, the tests included.
set -euo pipefail
cd "$(dirname "$0")/../.."
build_dir=${FOXGEESE_BUILD_DIR:-build}
if [[ $# -gt 0 || ! -f "$build_dir/CMakeCache.txt" ]]; then
    cmake -S . -B "$build_dir" -G Ninja -DFOXGEESE_WERROR=ON "$@"
fi
targets=()
for target in ${FOXGEESE_BUILD_TARGETS:-}; do targets+=(--target "$target"); done
cmake --build "$build_dir" --parallel "$(nproc)" "${targets[@]}"
