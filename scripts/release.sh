#!/usr/bin/env bash
# Builds the release artifacts of the current version (web/package.json's "version") and checks
# that every one of them carries that version:
#   dist/release/qif-toolkit-<version>.tgz          the npm package (scripts/pack.sh)
#   dist/release/qif-toolkit-<version>.html         the whole page in one file (scripts/singlefile.mjs)
#   dist/release/qif-toolkit-docs-<version>.tar.gz  the documentation as HTML pages, with the single
#                                                   file as its index.html (the "tool" link of the pages)
#
#   scripts/release.sh                      build (scripts/build.sh), pack, archive, check
#   SKIP_BUILD=1 scripts/release.sh         reuse the outputs of an earlier scripts/build.sh
#   RELEASE_DIR=/tmp/r scripts/release.sh   write the artifacts elsewhere
# The check (scripts/release-check.mjs) loads the module of the npm package and the one inside the
# single file and compares their qif.version, reads the version of every documentation page, the
# notices, CHANGELOG.md and CITATION.cff; any disagreement fails the release. The last line
# printed on stdout is the folder of the artifacts.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

if [ -z "${SKIP_BUILD:-}" ]; then
  scripts/build.sh >&2
fi
version=$(node -p "JSON.parse(require('fs').readFileSync('web/package.json', 'utf8')).version")
for f in dist/qif-toolkit.html web/docs/index.html web/THIRD_PARTY_NOTICES.txt; do
  if [ ! -f "$f" ]; then
    echo "release: $f is missing: run scripts/build.sh first" >&2
    exit 1
  fi
done

out=${RELEASE_DIR:-dist/release}
case "$out" in /*) ;; *) out="$root/$out" ;; esac
rm -rf "$out"
mkdir -p "$out"

# The npm package.
tgz=$(PACK_DIR="$out/.npm" scripts/pack.sh)
mv "$tgz" "$out/"
rm -rf "$out/.npm"

# The single file.
cp dist/qif-toolkit.html "$out/qif-toolkit-$version.html"

# The documentation: web/docs/ with the stylesheets and fonts its pages use, the notices its
# footer links to, and the single file as the tool its header links to.
name="qif-toolkit-docs-$version"
stage="$out/.docs/$name"
mkdir -p "$stage/vendor/katex"
cp -R web/docs "$stage/docs"
cp web/style.css web/docs.css web/THIRD_PARTY_NOTICES.txt LICENSE "$stage/"
cp web/vendor/katex/katex.min.css "$stage/vendor/katex/"
cp -R web/vendor/katex/fonts "$stage/vendor/katex/fonts"
cp dist/qif-toolkit.html "$stage/index.html"
tar -czf "$out/$name.tar.gz" -C "$out/.docs" "$name"
rm -rf "$out/.docs"

node scripts/release-check.mjs "$out" "$version" >&2
echo "$out"
