// Package program computes the channel a program denotes, exactly.
//
// "We can regard a computational system as an information-theoretic channel, where the secrets
// are the inputs, and the observables are the outputs" (Alvim, Andrés, Chatzikokolakis,
// Palamidessi, Quantitative Information Flow and Applications to Differential Privacy, FOSAD
// 2011). This package makes that literal for a small imperative language with secret
// declarations and observations, in the spirit of Kuifje (hyper-distribution semantics), QUAIL
// (secret declarations, exhaustive analysis) and LeakWatch (secret()/observe()):
//
//	secret guess in bits(3)        # the row labels: every list of 3 bits
//	password = [1, 1, 0]
//	out = "OK"
//	i = 0
//	while i < 3 and out == "OK" {
//	    if guess[i] != password[i] { out = "Fail" }
//	    i = i + 1
//	}
//	observe out                    # the column labels
//
// The language (docs/program-language.md has the reference): statements separated by newlines
// or `;`, blocks in braces, `#` comments; `secret NAME in DOMAIN` (a range `a..b`, a list,
// weights `{v: w, …}` for a prior, bits(n), perms(list)); assignments `x = e` and `x[i] = e`;
// `observe e`; `if`/`else if`/`else`, `while`, `for x in a..b` and `for x in list`; integers of
// any size, exact rationals (`/`, decimals), `//` and `%` (floor), booleans with `and or not
// xor`, strings, lists and tuples; built-ins len, min, max, abs, sum, bit, str; random choices
// flip(p), uniform(a..b), uniform(list) and choose {v: w, …}, with exact probabilities.
//
// # Semantics
//
// For each value of the secret the program runs on a distribution over states (the variables
// and the sequence observed so far), with exact rational probabilities (math/big). Equal states
// are merged after every statement and every loop iteration, so that 60 coin flips summed into
// a counter are 61 states, not 2^60 paths. C[x][o] is the probability that the run on secret x
// observes the sequence o. Rows are the secret values in their domains' order (several secrets:
// their tuple, the first varying slowest), with the declared prior (uniform by default);
// columns appear in order of first appearance, secrets taken in row order, and a distribution
// keeps its states in order of first appearance (choose in the order written, uniform in its
// domain's order, flip(p) as choose {1: p, 0: 1 − p}). A while loop runs on the whole
// distribution one iteration at a time, and the states that leave it come out in the order
// they leave (the first iteration's first).
//
// # Limits
//
// Nothing a program does can hang the engine or exhaust its memory: a step budget (loop
// iterations per secret value, summed over its merged states; DefaultStepBudget) and a state
// budget (distinct states of a distribution; DefaultStateBudget), both options, end runaway
// programs with an error naming the loop's line; integers, probabilities, strings, lists,
// observations, rows and the channel's size are bounded (limits.go). Options.Progress and
// Options.Context report progress and cancel.
//
// # Errors
//
// Compile and Check return an ErrorList; a run fails with an *Error. Each has a line and a
// column (from 1) and a message for a student: "line 4, column 12: `pw` is not defined — did
// you mean `pwd`?". Syntax errors, undefined variables and functions, type errors that can be
// seen without running, misplaced secrets, ranges and weights are found by the checker; index
// out of range, division by zero, weights that do not sum to 1, empty domains and the budgets
// while running (the message then names the secret value).
package program
