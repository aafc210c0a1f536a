package bindings

import "github.com/qif-toolkit/qif/bindings/table"

// Limits are the sizes web/qif.js checks before it copies anything (written into web/api.gen.js).
var Limits = map[string]int{"maxEntries": table.MaxEntries}

// Namespaces lists the namespaces of the first module in the order of the reference and the
// wire ids. The channel namespace is shared with the module of package bindings/moreapi, which
// serves its functions that need linear programming or sampling.
var Namespaces = []string{"channel", "measure", "debug"}

// The table is data: one []Func literal per namespace (api_*.go), statically initialized, so that
// a hundred descriptions cost the WebAssembly module bytes of data, not code that builds them.
var tables = [][]Func{channelAPI, measureAPI, debugAPI}

// Main is the module of web/qif.wasm, the page's first module: channels and measures.
var Main = table.NewModule("main", Namespaces, tables...)

// Functions returns the table of the first module: every function, grouped by namespace in the
// order of Namespaces and by name within each. The index of a function in this list is its wire id.
func Functions() []*Func { return Main.Functions() }

// Lookup returns the function of the first module named "<ns>.<name>", or nil.
func Lookup(qualified string) *Func { return Main.Lookup(qualified) }
