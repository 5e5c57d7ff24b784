#!/usr/bin/env bash
# Lints the foxgeese protos with the buf CLI pinned in package.json.
# Usage: tools/buf/lint.sh [extra buf lint flags]
# Exits with buf's status: 0 when clean, non-zero on any finding or failure.
set -euo pipefail

tools_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
proto_dir="$(cd "${tools_dir}/../../proto" && pwd)"
buf_bin="${tools_dir}/node_modules/.bin/buf"

if [[ ! -x "${buf_bin}" ]]; then
  # Install exactly what package-lock.json pins; quiet so test logs stay short.
  (cd "${tools_dir}" && npm ci --no-audit --no-fund --loglevel=error) >&2
fi

# Run from the module root so buf picks up proto/buf.yaml and reports paths
# relative to it.
cd "${proto_dir}"
exec "${buf_bin}" lint "$@"
