// Package bindings exposes the core packages to JavaScript through syscall/js.
//
// It is the only package that knows about JavaScript. Each file registers the functions of one
// namespace of the JavaScript API (qif.channel, qif.measure, ...; docs/api.md) with Register in an
// init function; Export builds the object that wasm/main.go hands to web/qif.js.
//
// Marshaling: matrices arrive as nested arrays or {rows, cols, data} and vectors as arrays or
// typed arrays. The loader (web/qif.js) flattens any matrix into one Float64Array in JavaScript,
// so that Go copies it across the boundary in one bulk copy rather than one call per entry.
// Results go back as {rows, cols, data: Float64Array} and Float64Array, copied in bulk too.
//
// Errors never cross the boundary as panics: every registered function runs under recover,
// and errors are returned to the loader as JS Error values, which it throws.
package bindings
