//go:build js && wasm

// Command exact is the entry point of web/qif-exact.wasm, the exact mode's module: the table of
// package bindings/exactapi, served to the loader web/qif.js (see table.Serve), which loads it
// the first time qif.exact is asked for.
package main

import (
	"github.com/qif-toolkit/qif/bindings/exactapi"
	"github.com/qif-toolkit/qif/bindings/table"
)

func main() { table.Serve(exactapi.Module) }
