//go:build js && wasm

// Command more is the entry point of web/qif-more.wasm, the toolkit's second module: the table of
// package bindings/moreapi (LP, mechanisms, refinement, information privacy, metrics, estimation,
// ...), served to the loader web/qif.js (see table.Serve), which loads it with the first module
// by default, or on first use in lazy mode.
package main

import (
	"github.com/qif-toolkit/qif/bindings/moreapi"
	"github.com/qif-toolkit/qif/bindings/table"
)

func main() { table.Serve(moreapi.More) }
