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
# -l for bindings/ only: its glue code has no hot loops, and not inlining there saves 7 KB of
# the gzipped module (issue 4's transfer target is 1.2 MB).
GOOS=js GOARCH=wasm go build -trimpath -ldflags="-s -w" -gcflags='github.com/qif-toolkit/qif/bindings=-l' -o "$tmp" ./wasm
mv "$tmp" web/qif.wasm
execjs="$GOROOT/lib/wasm/wasm_exec.js"
[ -f "$execjs" ] || execjs="$GOROOT/misc/wasm/wasm_exec.js"
cp "$execjs" "web/.wasm_exec.js.$$" && mv "web/.wasm_exec.js.$$" web/wasm_exec.js
raw=$(wc -c < web/qif.wasm)
gz=$(gzip -9 -c web/qif.wasm | wc -c)
echo "built web/qif.wasm: $raw bytes ($gz gzipped)"
# KaTeX (formulas on the page) is served from web/vendor/, never from a CDN. A fresh clone has
# no node_modules yet: install the locked versions first.
[ -d node_modules/katex ] || npm ci --no-audit --no-fund
vendor="web/.vendor.$$"
mkdir -p "$vendor/katex/fonts"
cp node_modules/katex/dist/katex.min.js node_modules/katex/dist/katex.min.css "$vendor/katex/"
# katex.min.css lists woff2 first; every browser that runs the wasm reads woff2.
cp node_modules/katex/dist/fonts/*.woff2 "$vendor/katex/fonts/"
cp node_modules/katex/LICENSE "$vendor/katex/" 2>/dev/null || true
rm -rf web/vendor.old && { [ ! -d web/vendor ] || mv web/vendor web/vendor.old; } && mv "$vendor" web/vendor && rm -rf web/vendor.old
node scripts/singlefile.mjs # dist/qif-toolkit.html (works from file://) and web/sw-manifest.js (offline cache list)
if [ "${1:-}" = "serve" ]; then
  exec go run ./scripts/serve -dir web -port "${PORT:-8080}"
fi
