#!/usr/bin/env bash
# The formatting check: every C++ file in the repository as the project's own
# .clang-format says (clang-format 14, Debian 12's). A dry run that fails on
# any difference and names the lines; `deploy/local/check-format.sh --fix` formats
# the files in place instead.
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v clang-format > /dev/null || { echo "clang-format is missing: run deploy/local/install-deps.sh" >&2; exit 2; }
mapfile -t files < <(git ls-files '*.h' '*.cpp')
if [ "${1:-}" = --fix ]; then
    clang-format -i "${files[@]}"
else
    clang-format --dry-run --Werror "${files[@]}"
    echo "${#files[@]} C++ files formatted as .clang-format says"
fi
