package bindings

import (
	"github.com/qif-toolkit/qif/bindings/table"
	"github.com/qif-toolkit/qif/core/lp"
)

// Limits are the sizes web/qif.js checks before it copies anything (written into web/api.gen.js).
var Limits = map[string]int{"maxEntries": table.MaxEntries, "lpMaxNonzeros": lp.MaxNonzeros}

// Namespaces lists the namespaces in the order of the reference and the wire ids.
var Namespaces = []string{"channel", "measure", "metric", "privacy", "graph", "mechanism", "refine", "infoPrivacy", "estimate", "lp", "debug"}

// The table is data: one []Func literal per namespace (api_*.go), statically initialized, so that
// a hundred descriptions cost the WebAssembly module bytes of data, not code that builds them.
var tables = [][]Func{channelAPI, measureAPI, metricAPI, privacyAPI, graphAPI, mechanismAPI, refineAPI, infoPrivacyAPI, estimateAPI, lpAPI, debugAPI}

// Main is the module of web/qif.wasm: every function of the tables above.
var Main = table.NewModule("main", Namespaces, tables...)

// Functions returns the table: every exported function, grouped by namespace in the order of
// Namespaces and by name within each. The index of a function in this list is its wire id.
func Functions() []*Func { return Main.Functions() }

// Lookup returns the function named "<ns>.<name>", or nil.
func Lookup(qualified string) *Func { return Main.Lookup(qualified) }
