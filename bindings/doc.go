// Package bindings exposes the core packages to JavaScript: one declarative table, interpreted
// by package bindings/table. This package holds the table of web/qif.wasm, the page's first
// module: channels, measures and debug.
//
// The table (api_*.go, one []Func per namespace) describes every function of the JS API as
// data: namespace and name, parameters by kind (vector, matrix, graph, number, integer, enum,
// options with their keys, callback, ...) with constraints and defaults, the result's shape, a
// one-line doc, the formula in TeX and the paper it comes from, and Call, the Go code that runs
// it on decoded arguments. It is plain Go without a build tag, so that it is tested natively and
// read by the generator, and statically initialized, so that it costs the WebAssembly module
// data, not code. Main is this table as a module. The rest of the floating-point API (metrics,
// privacy, graphs, mechanisms, refinement, information privacy, estimation, lp, and the channel
// functions that need linear programming or sampling) is a second module with a table of its
// own, package bindings/moreapi, built into web/qif-more.wasm: load() loads both, and the page's
// worker and the widgets load it on first use, so that a page showing a channel does not
// download the LP solver first. The exact mode (qif.exact) is a third, package
// bindings/exactapi, built into web/qif-exact.wasm and loaded on demand, so that no other
// module carries rational arithmetic. A namespace may be split between modules (channel is):
// bindings/apigen/split.go says which module serves each of its functions, and each function's
// module is in web/api.gen.js.
//
// The vocabulary of the table (Func, Param, Kind, Args, ...) and the interpreter live in package
// bindings/table, shared by both modules; aliases.go gives them their short names here. On the
// JS side, web/qif.js reads each argument by the same kinds into plain wire values — numbers,
// strings, functions and byte arrays copied in bulk, never a caller's object — and rejects
// unknown option keys before anything reaches Go, so that Go never calls back into JS to read
// an argument.
//
// Conventions the interpreter enforces for every function:
//   - every error message starts with "<ns>.<name>: " and then names the argument
//     ("mechanism.utility: prior: ..."); web/qif.js throws it, so the caller's frame is in the stack;
//   - an options object with an unknown key throws, naming the key and listing the valid ones;
//   - a Check (positive, non-negative, ...) refuses 0, negatives and NaN by one rule and message;
//   - a function with an onProgress callback is cancelled when it returns false: Invoke returns a
//     *Cancelled whatever Call returned (its result, if any, becomes error.partial in JS), and JS
//     throws an Error named "AbortError" with the message "<ns>.<name>: cancelled";
//   - nothing panics across the boundary, and the module keeps working after any error.
//
// Generated from the tables of both modules by go generate ./bindings (bindings/apigen), never by
// hand: web/qif.d.ts, docs/api.md, web/api.gen.js (the tables as data, which qif.describe()
// returns and the page's worker client reads) and web/qif.gen.js (one wrapper per function with
// its own name and parameters). A test fails when they differ from the tables.
//
// # Adding a function
//
//  1. Write the Go function in core/ (errors name the argument; no panics on bad input).
//  2. Add one Func to the []Func of its namespace in api_<namespace>.go of the module that
//     should serve it — this package only for what a page showing a channel needs at once,
//     bindings/moreapi otherwise, bindings/exactapi for the exact mode (a new namespace also goes
//     into that package's Namespaces and tables, and into floatOrder in bindings/apigen; a function of
//     the channel namespace, which two modules serve, also goes into bindings/apigen/split.go,
//     the one list of which module serves which): Params with their kinds, Checks and defaults,
//     Result (a Type with Fields for an object), Doc, TeX, Source ("Alvim et al. (ICALP 2011)
//     §6"), and Call, which reads the arguments by name (a.Mat("C"), a.Vec("prior"), a.Float,
//     a.Int, a.Has, a.Progress("onProgress")) and returns a float64, int, bool, string, []float64,
//     []int, *mat.Dense, *graph.Graph, or an Obj of these.
//  3. Run go generate ./bindings and scripts/build.sh; go test ./bindings/... calls every
//     function natively and checks the generated files.
//
// A long computation takes {Name: "onProgress", Kind: KindCallback, CallArgs: [...]} among its
// options and hands a.Progress("onProgress") to the core's progress hook; returning the partial
// result from Call makes it error.partial on cancellation. Nested inputs that no kind describes
// (an LP problem) get a kind of their own: its wire width in bindings/table (Kind.Width), a
// reader in web/qif.js, and a decoder that the module taking it registers (table.RegisterKind in
// the module's kinds.go), so that no other module links it.
package bindings

//go:generate go run ./apigen
