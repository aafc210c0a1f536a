#!/usr/bin/env bash
# Builds the npm package (qif-toolkit) from web/ and packs it into a .tgz.
#   scripts/build.sh && scripts/pack.sh        → dist/npm/qif-toolkit-<version>.tgz
#   PACK_DIR=/tmp/x scripts/pack.sh            → build the package folder in /tmp/x instead
# web/ also holds the page (index.html with its scripts and styles); the package takes only the loader, its
# types, the CSV reader of estimate.readSamples (input/samples.js), the three modules (qif.wasm and qif-more.wasm, which load() loads together, and
# qif-exact.wasm that qif.exact loads on demand) and the Go
# glue, with web/package.json as its manifest, web/README.md as its README, the repository's
# LICENSE and the notices of what the modules and wasm_exec.js contain (web/THIRD_PARTY_NOTICES.txt,
# written by scripts/build.sh). The path of the .tgz is the only line printed on stdout.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

for f in qif.wasm qif-more.wasm qif-exact.wasm wasm_exec.js THIRD_PARTY_NOTICES.txt; do
  if [ ! -f "web/$f" ]; then
    echo "pack: web/$f is missing: run scripts/build.sh first" >&2
    exit 1
  fi
done

# The version is web/package.json's; the module must carry the same one as qif.version (it does
# when scripts/build.sh built it from this manifest: a stale build is caught here).
pkgVersion=$(node -p "JSON.parse(require('fs').readFileSync('web/package.json', 'utf8')).version")
# load({exact: true}) also checks that qif-more.wasm and qif-exact.wasm come from the same build as qif.wasm.
wasmVersion=$(node --input-type=module -e "const { load } = await import('./web/qif.js'); process.stdout.write((await load({ exact: true })).version)")
if [ "$pkgVersion" != "$wasmVersion" ]; then
  echo "pack: web/package.json has version $pkgVersion but web/qif.wasm reports $wasmVersion: run scripts/build.sh" >&2
  exit 1
fi

out=${PACK_DIR:-dist/npm}
case "$out" in /*) ;; *) out="$root/$out" ;; esac
rm -rf "$out"
mkdir -p "$out"
cp web/qif.js web/api.gen.js web/qif.gen.js web/qif.d.ts web/qif.wasm web/qif-more.wasm web/qif-exact.wasm web/wasm_exec.js web/package.json web/README.md web/THIRD_PARTY_NOTICES.txt LICENSE "$out/"
# estimate.readSamples is the page's CSV reader, which qif.js imports from input/ beside it.
mkdir -p "$out/input" && cp web/input/samples.js "$out/input/"

cd "$out"
# --ignore-scripts: the package has no scripts, and packing must not run the repository's.
tgz=$(npm pack --silent --ignore-scripts --pack-destination "$out" 2>/dev/null | tail -n 1)
if [ -z "$tgz" ] || [ ! -f "$out/$tgz" ]; then
  echo "pack: npm pack failed in $out" >&2
  npm pack --ignore-scripts --pack-destination "$out" >&2 || true
  exit 1
fi
echo "$out/$tgz"
