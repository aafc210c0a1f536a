#!/usr/bin/env bash
# Builds web/qif.wasm and copies the matching wasm_exec.js.
#   scripts/build.sh          build only
#   scripts/build.sh serve    build, then serve web/ on http://localhost:${PORT:-8080}/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
GOROOT=$(go env GOROOT)
# Build to a temporary file and rename, so that a page or test never sees a half-written module.
tmp="web/.qif.wasm.$$"
GOOS=js GOARCH=wasm go build -trimpath -ldflags="-s -w" -o "$tmp" ./wasm
mv "$tmp" web/qif.wasm
execjs="$GOROOT/lib/wasm/wasm_exec.js"
[ -f "$execjs" ] || execjs="$GOROOT/misc/wasm/wasm_exec.js"
cp "$execjs" "web/.wasm_exec.js.$$" && mv "web/.wasm_exec.js.$$" web/wasm_exec.js
raw=$(wc -c < web/qif.wasm)
gz=$(gzip -9 -c web/qif.wasm | wc -c)
echo "built web/qif.wasm: $raw bytes ($gz gzipped)"
if [ "${1:-}" = "serve" ]; then
  exec go run ./scripts/serve -dir web -port "${PORT:-8080}"
fi
