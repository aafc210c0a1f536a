// Package moreapi is the table of the toolkit's second module, web/qif-more.wasm: everything
// of the floating-point API that a page showing a channel and its measures does not need —
// metrics and the Kantorovich distance, differential privacy, graphs, mechanisms (the LP solver
// and the optimal mechanisms), refinement, information privacy, estimation from samples, the LP
// solver itself, and the functions of the channel namespace that search for a channel by linear
// programming or draw samples (channel.factorize, channel.leftFactorize, channel.fromMetric,
// channel.sample).
//
// It is a package of its own, not a part of package bindings, so that the first module,
// web/qif.wasm (package bindings: channels, measures, debug), links none of it: the first module
// is what a lesson with one channel widget downloads before its first number. The loader
// web/qif.js loads both modules at once by default (load()), or this one on first use
// (load({ lazy: true }), as the page's worker and the widgets do). The vocabulary and the
// interpreter are package bindings/table's, dot-imported so that the table reads as package
// bindings' does; bindings/apigen writes all modules into one set of generated files.
package moreapi
