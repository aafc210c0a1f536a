//go:build js && wasm

// Command wasm is the entry point of the WebAssembly build web/qif.wasm: the main table of
// package bindings, served to the loader web/qif.js (see table.Serve). The exact mode is a module
// of its own, wasm/exact.
package main

import (
	"github.com/qif-toolkit/qif/bindings"
	"github.com/qif-toolkit/qif/bindings/table"
)

func main() { table.Serve(bindings.Main) }
