// Package core is the root of the pure-Go numerical code of the QIF/DP toolkit.
//
// Every package below core/ builds natively and for GOOS=js GOARCH=wasm and never imports
// syscall/js. Matrices are gonum *mat.Dense values with the conventions of docs/mathematics.md: a
// channel C is n×m and row-stochastic with C[x][y] = p(y|x); a gain matrix G is |W|×|X|. Entropies
// and leakages are in bits, privacy parameters ε in nats.
package core
