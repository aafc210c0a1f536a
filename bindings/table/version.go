package table

// Version is the toolkit's version, returned to JavaScript as qif.version.
//
// It has one source of truth, the "version" of web/package.json: scripts/build.sh stamps it
// here at link time with -ldflags "-X github.com/qif-toolkit/qif/bindings/table.Version=…", and the
// same value goes into the npm package, the page footer and the rendered documentation
// (scripts/release.sh checks that they agree). A build without the stamp (go build ./wasm by
// hand) reports "dev".
var Version = "dev"
