#!/usr/bin/env bash
# Runs every test of the project on a fresh clone: it installs what it needs first
# (Go modules, npm packages from package-lock.json, Debian's chromium when missing).
#   scripts/test.sh            everything
#   QUICK=1 scripts/test.sh    skip the fuzzing step
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

step() { printf '\n=== %s\n' "$*"; }

step "set-up"
go mod download
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules ]; then
  npm ci --no-audit --no-fund
fi
# Debian packages the browser tests use: chromium (headless), and pdflatex (texlive-latex-base),
# which compiles the page's LaTeX exports.
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v pdflatex >/dev/null 2>&1 || missing+=(texlive-latex-base)
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

step "build"
scripts/build.sh

step "go vet"
go vet ./...
GOOS=js GOARCH=wasm go vet ./bindings/... ./wasm/...

step "go test"
go test -count=1 ./...

if [ -z "${QUICK:-}" ]; then
  step "fuzz (brief)"
  # go test -fuzz takes one target per run: find them all.
  grep -rl --include='*_test.go' '^func Fuzz' core bindings 2>/dev/null | while read -r f; do
    pkg="./$(dirname "$f")"
    for t in $(grep -o '^func Fuzz[A-Za-z0-9_]*' "$f" | sed 's/^func //'); do
      echo "fuzz $pkg $t"
      # On a loaded machine Go's fuzzing can end a clean run with "context deadline exceeded";
      # one retry tells that apart from a finding (a crasher is saved under testdata/fuzz and
      # fails the retry at once).
      if ! go test -run='^$' -fuzz="^$t\$" -fuzztime="${FUZZTIME:-10s}" "$pkg"; then
        echo "fuzz $pkg $t: retrying once"
        go test -run='^$' -fuzz="^$t\$" -fuzztime="${FUZZTIME:-10s}" "$pkg"
      fi
    done
  done
fi

# Each suite has a time limit far above its usual duration (about 1 and 6 minutes on two cores),
# so that a process that never exits fails the run with a message instead of stalling CI.
suite() {
  local limit=$1; shift
  timeout --kill-after=10 "$limit" "$@" || {
    local rc=$?
    [ "$rc" = 124 ] && echo "test.sh: $* did not finish within $limit s" >&2
    return "$rc"
  }
}

step "node: JS API"
suite 900 node --test --test-reporter=spec tests/node/

step "browser: headless Chromium"
suite 1500 node --test --test-concurrency=1 --test-reporter=spec tests/browser/

echo
echo "all tests passed"
