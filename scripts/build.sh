#!/usr/bin/env bash
# Builds web/qif.wasm and copies the matching wasm_exec.js.
#   scripts/build.sh          build only
#   scripts/build.sh serve    build, then serve web/ on http://localhost:${PORT:-8080}/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
GOROOT=$(go env GOROOT)
GOOS=js GOARCH=wasm go build -trimpath -ldflags="-s -w" -o web/qif.wasm ./wasm
execjs="$GOROOT/lib/wasm/wasm_exec.js"
[ -f "$execjs" ] || execjs="$GOROOT/misc/wasm/wasm_exec.js"
cp "$execjs" web/wasm_exec.js
raw=$(wc -c < web/qif.wasm)
gz=$(gzip -9 -c web/qif.wasm | wc -c)
echo "built web/qif.wasm: $raw bytes ($gz gzipped)"
if [ "${1:-}" = "serve" ]; then
  exec go run ./scripts/serve -dir web -port "${PORT:-8080}"
fi
