#!/usr/bin/env bash
# Renders one kustomization under deploy/k8s with `kubectl kustomize`.
# Usage: tests/deploy/render.sh overlays/prod
# Exits 77 (CTest's skip) when kubectl is missing: nothing can render then.
set -euo pipefail
dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../deploy/k8s" && pwd)/$1"
if ! command -v kubectl >/dev/null 2>&1; then
  echo "SKIP: kubectl is not installed, so the manifests cannot be rendered"
  exit 77
fi
rendered=$(kubectl kustomize "$dir")
objects=$(grep -c '^kind:' <<<"$rendered" || true)
if [[ "$objects" -eq 0 ]]; then
  echo "$1 rendered no objects" >&2
  exit 1
fi
echo "$1 renders $objects objects"
