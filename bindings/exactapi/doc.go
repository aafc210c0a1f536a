// Package exactapi is the table of the exact mode, qif.exact in JavaScript: the rational-valued
// quantities of core/exact — measures, hyper-distributions, compositions, mechanisms with a
// rational e^ε, certified optimal mechanisms and exact refinement — with arguments given as
// numbers or fraction strings and results as reduced fractions ("2/7"), matrices as
// {rows, cols, data: string[]}.
//
// It is a module of its own (Module), served by web/qif-exact.wasm (wasm/exact), which the
// loader web/qif.js fetches the first time the exact mode is asked for: rational arithmetic and
// the exact simplex stay out of the page's module, web/qif.wasm. The vocabulary and the
// interpreter are package bindings/table's, shared with the main module; this package adds the
// decoder of the exact kinds (kinds.go). bindings/apigen writes both modules into one set of
// generated files (web/qif.d.ts, docs/api.md, web/api.gen.js, web/qif.gen.js).
//
// Every exact function has a floating-point twin of the same name without "exact."
// (exact.measure.bayesVulnerability and measure.bayesVulnerability), with the same parameters
// except that e^ε is given as a rational expEpsilon instead of ε; the reference takes the
// formula and the source from the twin. Errors follow the conventions of package bindings and
// name the row and its exact sum when a distribution does not sum to exactly 1
// ("exact.measure.bayesVulnerability: prior: sums to 11/12, expected exactly 1").
package exactapi
