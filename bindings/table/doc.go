// Package table holds the vocabulary of the API tables and their interpreter, shared by the
// WebAssembly modules: the main module (package bindings, web/qif.wasm) and the exact mode's
// (package bindings/exactapi, web/qif-exact.wasm). Keeping it apart from the tables lets each
// module link only the core packages its own table calls.
//
// A table is a []Func per namespace: each Func describes one function of the JS API as data
// (parameters by Kind, with checks, defaults and options; the result's Type; doc, formula and
// source) plus Call, the Go code that runs it on decoded arguments. NewModule links the tables
// of one module and fixes their wire ids.
//
// The interpreter is split in two. args.go (plain Go) decodes wire values into Go values by
// kind, fills defaults, enforces checks, runs Call and turns a panic into an error; js.go (js &&
// wasm only) reads js.Values into wire values, encodes results and serves a Module to the
// loader web/qif.js, which reads each argument by the same kinds into plain wire values —
// numbers, strings, functions and byte arrays copied in bulk, never a caller's object.
//
// The interpreter reads the kinds every module may take (numbers, vectors, matrices, options,
// ...); a kind that only some modules take has its decoder registered by each module that takes
// it (RegisterKind, kinds.go): the exact mode's (rational, ratVector, ratMatrix, ratMetric, which
// cross as text) by the exact module, the LP problem, labels and samples by the second module,
// the graph by both. So the first module links no rational arithmetic, no LP solver and no
// estimator; a test checks that every module registers the kinds its functions take. See package bindings for the conventions every
// function follows and how to add one.
package table
