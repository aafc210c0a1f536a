package exact

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/qif-toolkit/qif/core/argerr"
	"github.com/qif-toolkit/qif/core/exact/ratlp"
	"github.com/qif-toolkit/qif/core/graph"
)

// MaxMechanismVariables bounds n·|W|, the entries of an exact optimal mechanism, 32×32. Every
// exact pivot factorizes a basis of up to that size in rationals. Measured natively: the 6×6
// grid (1,296 entries) is certified in 0.5 s and the clique on 40 answers in 1.7 s, both with
// no exact pivot, but the path on 40 answers needed 130 pivots after the floating-point basis
// and took 11 s; hence the limit, and progress and cancellation for what remains.
const MaxMechanismVariables = 1024

// MechanismSpec describes an optimal-mechanism problem for OptimalMechanism. Exactly one of
// Graph and Metric is set, and at most one of Gain and Loss.
type MechanismSpec struct {
	// Graph is the adjacency of the true answers 0..n−1: H[y][z] ≤ e^ε·H[y'][z] for every
	// edge y∼y' and output z.
	Graph *graph.Graph
	// Metric is an n×n distance matrix (symmetric, zero diagonal, entries ≥ 0; a nil entry
	// is +∞, no constraint): H[y][z] ≤ e^{ε·d(y,y')}·H[y'][z]. e^{ε·d} = ExpEpsilon^d must be
	// rational: integer distances always are, and d = p/q when ExpEpsilon is a q-th power.
	Metric *Matrix
	// ExpEpsilon is e^ε > 1 as a rational (2 for ε = ln 2).
	ExpEpsilon *big.Rat
	// Prior on the true answers; nil means uniform.
	Prior Vector
	// Gain is |W|×n (rows = guesses, columns = true answers); nil (with Loss nil) is the
	// binary gain. Loss, when set, is minimized instead.
	Gain, Loss *Matrix
	// Context cancels the solve; nil means context.Background().
	Context context.Context
	// Progress, when set, is called when each stage starts, during the floating-point solve and
	// after every exact pivot; returning false cancels.
	Progress func(MechanismProgress) bool
}

// MechanismProgress is what MechanismSpec.Progress receives.
type MechanismProgress struct {
	Stage      string // "floating point" (the solve that finds the basis) or "exact" (pivots)
	Iterations int    // simplex iterations of the floating-point solves so far
	Rounds     int    // correction rounds of the floating-point stage so far (see ratlp.RefinedStart)
	Pivots     int    // exact pivots so far
}

// OptimalResult is the certified answer of OptimalMechanism.
type OptimalResult struct {
	// Utility is the exact optimum: the expected gain (or loss) of Mechanism with the best
	// guess, equal to the optimal value of the linear program.
	Utility *big.Rat
	// Mechanism is H, n×|W|, rows the true answers and columns the reported answers (the
	// guesses themselves; see mechanism.OptimalLP).
	Mechanism *Matrix
	// Certificate is the dual solution that proves Utility optimal.
	Certificate Certificate
	// Certified is true: the primal point and the dual prices were checked to satisfy every
	// constraint and sign exactly, with equal values (ratlp.Verify).
	Certified bool
	// FloatIterations is the iteration count of the floating-point solve, Pivots the number of
	// exact pivots needed after it (0 when its basis was optimal as given) and Repaired the
	// number of variables its basis lost because it was singular in exact arithmetic.
	FloatIterations, Pivots, Repaired int
	// Rounds is the number of correction solves of iterative refinement after the first
	// floating-point solve (ratlp.RefinedStart).
	Rounds int
	// Variables and Constraints give the size of the linear program.
	Variables, Constraints int
}

// Certificate is the dual solution of the optimal-mechanism program: a price for every row
// sum and for every privacy row. By LP duality, for every mechanism H satisfying the privacy
// rows, Σ_y RowSums[y] bounds its expected gain (from above; from below for a loss), and the
// bound is Utility. Every reduced cost π_y·gain[w][y] − RowSums[y] − Σ (privacy prices × their
// coefficients of H[y][w]) is ≤ 0 (≥ 0 for a loss).
type Certificate struct {
	RowSums Vector         // price of Σ_w H[y][w] = 1, one per true answer y
	Privacy []PrivacyPrice // the privacy rows with a nonzero price
}

// PrivacyPrice is the price of one privacy row H[From][Output] − Factor·H[To][Output] ≤ 0:
// ≥ 0 for a gain, ≤ 0 for a loss. For points at distance 0 the row is an equality (Factor 1)
// and its price may have either sign.
type PrivacyPrice struct {
	From, To, Output int
	Factor, Price    *big.Rat
}

// OptimalMechanism finds the optimal ε-private mechanism of mechanism.OptimalLP in exact
// arithmetic and certifies it: the program is stated in rationals (with e^ε = ExpEpsilon),
// solved in floating point with every coefficient rounded to the nearest float64 (so that its
// final basis is the basis of the rational program whenever rounding does not change the
// answer), and that basis is re-solved and, where needed, pivoted on exactly (core/exact/ratlp)
// until the primal point and the dual prices satisfy every constraint and sign exactly. The
// result is the exact optimum, the exact mechanism and the dual certificate.
//
// Programs with more than MaxMechanismVariables variables are refused.
func OptimalMechanism(spec MechanismSpec) (*OptimalResult, error) {
	n, w, err := checkMechanismSpec(&spec)
	if err != nil {
		return nil, err
	}
	prior := spec.Prior
	if prior == nil {
		prior = make(Vector, n)
		for i := range prior {
			prior[i] = big.NewRat(1, int64(n))
		}
	}
	pairs, err := exactPairs(&spec, n)
	if err != nil {
		return nil, err
	}
	p, labels := mechanismProgram(&spec, prior, pairs, n, w)
	ctx := spec.Context
	if ctx == nil {
		ctx = context.Background()
	}
	cancelled := func() bool { return ctx.Err() != nil }
	progress := func(mp MechanismProgress) bool {
		return spec.Progress == nil || spec.Progress(mp)
	}

	out := &OptimalResult{Variables: n * w, Constraints: len(p.Rows)}
	// Each stage starts with a report, so that a caller can cancel between stages even when
	// neither reports on its own (a short floating-point solve, no exact pivot).
	if !progress(MechanismProgress{Stage: "floating point"}) {
		return nil, fmt.Errorf("optimal mechanism: cancelled before the floating-point solve")
	}
	var start *ratlp.Basis
	ref, err := ratlp.RefinedStart(p, &ratlp.RefineOptions{Context: ctx, Progress: func(round, it int) bool {
		return progress(MechanismProgress{Stage: "floating point", Iterations: it, Rounds: round})
	}})
	if err != nil {
		return nil, err
	}
	if ref.Cancelled || cancelled() {
		return nil, fmt.Errorf("optimal mechanism: cancelled during the floating-point solve")
	}
	out.FloatIterations, out.Rounds, start = ref.Iterations, ref.Rounds, ref.Basis
	// Refinement usually ends at the optimal basis, but a correction round can also end
	// elsewhere (a round the floating-point simplex gives up on keeps the last basis): start
	// the exact pivots from whichever of the first and the refined basis is closer to optimal.
	if ref.First != nil && ref.Basis != ref.First {
		a, errA := ratlp.Infeasibilities(p, ref.Basis)
		b, errB := ratlp.Infeasibilities(p, ref.First)
		if errA == nil && errB == nil && b < a {
			start = ref.First
		}
	}
	if !progress(MechanismProgress{Stage: "exact", Iterations: out.FloatIterations}) {
		return nil, fmt.Errorf("optimal mechanism: cancelled before the exact pivots")
	}
	res, err := ratlp.Solve(p, start, &ratlp.Options{Context: ctx, Progress: func(q ratlp.Progress) bool {
		return progress(MechanismProgress{Stage: "exact", Iterations: out.FloatIterations, Pivots: q.Pivots})
	}})
	if errors.Is(err, ratlp.ErrCancelled) {
		return nil, fmt.Errorf("optimal mechanism: cancelled during the exact pivots")
	}
	if err != nil {
		return nil, err
	}
	if res.Status != ratlp.Optimal {
		// The uniform mechanism is feasible and utilities are bounded: cannot happen.
		return nil, fmt.Errorf("optimal mechanism: internal error: the exact program is %v", res.Status)
	}
	out.Pivots, out.Repaired = res.Pivots, res.Repaired
	out.Mechanism = &Matrix{Rows: n, Cols: w, Data: res.X}
	out.Utility = res.Objective
	// The program's value is the mechanism's utility with the best guess (see
	// mechanism.OptimalLP); recomputing it checks the statement of the program.
	var u *big.Rat
	if spec.Loss != nil {
		u, err = ExpectedLoss(prior, out.Mechanism, spec.Loss)
	} else {
		u, err = Utility(prior, out.Mechanism, spec.Gain)
	}
	if err != nil {
		return nil, err
	}
	if u.Cmp(out.Utility) != 0 {
		return nil, fmt.Errorf("optimal mechanism: internal error: utility %s of the mechanism differs from the optimum %s", inMessage(u), inMessage(out.Utility))
	}
	out.Certificate.RowSums = res.Duals[:n]
	for i := n; i < len(res.Duals); i++ {
		if res.Duals[i].Sign() != 0 {
			l := labels[i-n]
			out.Certificate.Privacy = append(out.Certificate.Privacy, PrivacyPrice{From: l.from, To: l.to, Output: l.output, Factor: l.factor, Price: res.Duals[i]})
		}
	}
	out.Certified = true
	return out, nil
}

// checkMechanismSpec validates spec and returns the numbers of answers n and outputs |W|.
func checkMechanismSpec(spec *MechanismSpec) (n, w int, err error) {
	if err := checkExpEpsilon(spec.ExpEpsilon); err != nil {
		return 0, 0, err
	}
	switch {
	case spec.Graph != nil && spec.Metric != nil:
		return 0, 0, fmt.Errorf("graph, metric: give one of them, not both")
	case spec.Graph != nil:
		g := spec.Graph
		if g.N < 1 || len(g.Adj) != g.N {
			return 0, 0, argerr.New("graph", "empty or malformed (N = %d, %d adjacency lists)", g.N, len(g.Adj))
		}
		for v, nb := range g.Adj {
			for _, u := range nb {
				if u < 0 || u >= g.N || u == v {
					return 0, 0, argerr.New("graph", "vertex %d has an invalid neighbour %d (build graphs with graph.New)", v, u)
				}
			}
		}
		n = g.N
	case spec.Metric != nil:
		if err := validateMetric("metric", spec.Metric); err != nil {
			return 0, 0, err
		}
		n = spec.Metric.Rows
	default:
		return 0, 0, fmt.Errorf("graph, metric: one of them is required (the adjacency or the distances of the answers)")
	}
	if spec.Prior != nil {
		if err := ValidateDistribution("prior", spec.Prior); err != nil {
			return 0, 0, err
		}
		if len(spec.Prior) != n {
			return 0, 0, argerr.New("prior", "has %d entries but there are %d answers", len(spec.Prior), n)
		}
	}
	if spec.Gain != nil && spec.Loss != nil {
		return 0, 0, fmt.Errorf("gain, loss: give one of them, not both")
	}
	w = n
	for _, s := range []struct {
		name string
		m    *Matrix
	}{{"gain", spec.Gain}, {"loss", spec.Loss}} {
		if s.m != nil {
			if err := gainFor(s.name, s.m, n); err != nil {
				return 0, 0, err
			}
			w = s.m.Rows
		}
	}
	if n*w > MaxMechanismVariables {
		return 0, 0, fmt.Errorf("graph, metric: the exact program would have %d×%d = %d variables, more than the limit of %d for exact arithmetic (use the floating-point optimalLP)", n, w, n*w, MaxMechanismVariables)
	}
	return n, w, nil
}

// validateMetric checks a distance matrix (nil entries +∞): square, entries ≥ 0, zero
// diagonal, symmetric.
func validateMetric(name string, d *Matrix) error {
	if d == nil || d.Rows < 1 || d.Rows != d.Cols || len(d.Data) != d.Rows*d.Cols {
		return argerr.New(name, "must be a non-empty square distance matrix")
	}
	if d.Rows > MaxMechanismVariables {
		return argerr.New(name, "%d points, more than the limit of %d", d.Rows, MaxMechanismVariables)
	}
	for i := 0; i < d.Rows; i++ {
		for j := 0; j < d.Rows; j++ {
			v, u := d.At(i, j), d.At(j, i)
			switch {
			case i == j && (v == nil || v.Sign() != 0):
				return argerr.New(name, "diagonal entry [%d][%d] must be 0", i, i)
			case v != nil && v.Sign() < 0:
				return argerr.Cell(name, i, j, "is %s, expected a distance ≥ 0", inMessage(v))
			case (v == nil) != (u == nil) || (v != nil && v.Cmp(u) != 0):
				return argerr.New(name, "not symmetric at [%d][%d] and [%d][%d]", i, j, j, i)
			}
		}
	}
	return nil
}

// exactPair is one constrained pair: H[A][w] ≤ Factor·H[B][w] and H[B][w] ≤ Factor·H[A][w].
type exactPair struct {
	a, b   int
	factor *big.Rat
}

// exactPairs lists the constrained pairs of spec, the exact twin of the floating-point
// mechanism program's: the edges of the graph with factor e^ε, or the pairs of points at
// finite distance with no point strictly between them (see mechanism.OptimalLP), with factor
// e^{ε·d}.
func exactPairs(spec *MechanismSpec, n int) ([]exactPair, error) {
	var pairs []exactPair
	if spec.Graph != nil {
		for _, e := range spec.Graph.Edges() {
			pairs = append(pairs, exactPair{e.A, e.B, spec.ExpEpsilon})
		}
		return pairs, nil
	}
	d := spec.Metric
	sum := new(big.Rat)
	for a := 0; a < n; a++ {
	pair:
		for b := a + 1; b < n; b++ {
			dab := d.At(a, b)
			if dab == nil {
				continue
			}
			for w := 0; w < n; w++ {
				daw, dwb := d.At(a, w), d.At(w, b)
				if daw == nil || dwb == nil || daw.Sign() <= 0 || dwb.Sign() <= 0 || daw.Cmp(dab) >= 0 || dwb.Cmp(dab) >= 0 {
					continue
				}
				if sum.Add(daw, dwb).Cmp(dab) <= 0 {
					continue pair
				}
			}
			f, err := ratPow(spec.ExpEpsilon, dab)
			if err != nil {
				return nil, argerr.Cell("metric", a, b, ": %v", err)
			}
			pairs = append(pairs, exactPair{a, b, f})
		}
	}
	return pairs, nil
}

// maxFactorBits bounds the size of e^{ε·d} = expEpsilon^d.
const maxFactorBits = 1 << 17

// ratPow returns e^d for a rational d ≥ 0, when it is rational: d = p/q in lowest terms needs
// e's numerator and denominator to be exact q-th powers.
func ratPow(e, d *big.Rat) (*big.Rat, error) {
	p, q := d.Num(), d.Denom()
	if !q.IsInt64() || q.Int64() > 64 {
		return nil, fmt.Errorf("distance %s: expEpsilon^d is not rational for this denominator (use integer distances)", inMessage(d))
	}
	k := int(q.Int64())
	num, ok1 := intRoot(e.Num(), k)
	den, ok2 := intRoot(e.Denom(), k)
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("distance %s: expEpsilon^d = %s^(%s) is not rational (use integer distances, or an expEpsilon that is a %d-th power)", inMessage(d), inMessage(e), inMessage(d), k)
	}
	root := new(big.Rat).SetFrac(num, den)
	if !p.IsInt64() || float64(p.Int64())*float64(bits([]*big.Rat{root})) > maxFactorBits {
		return nil, fmt.Errorf("distance %s: expEpsilon^d has more than %d bits", inMessage(d), maxFactorBits)
	}
	return new(big.Rat).SetFrac(new(big.Int).Exp(num, p, nil), new(big.Int).Exp(den, p, nil)), nil
}

// intRoot returns the k-th root of x ≥ 0 and whether it is exact.
func intRoot(x *big.Int, k int) (*big.Int, bool) {
	if k == 1 {
		return new(big.Int).Set(x), true
	}
	// Bisection on [0, 2^(⌈bits/k⌉+1)).
	lo, hi := big.NewInt(0), new(big.Int).Lsh(big.NewInt(1), uint(x.BitLen()/k+2))
	kk := big.NewInt(int64(k))
	mid, pw := new(big.Int), new(big.Int)
	for new(big.Int).Sub(hi, lo).Cmp(big.NewInt(1)) > 0 {
		mid.Add(lo, hi).Rsh(mid, 1)
		if pw.Exp(mid, kk, nil).Cmp(x) <= 0 {
			lo.Set(mid)
		} else {
			hi.Set(mid)
		}
	}
	return lo, pw.Exp(lo, kk, nil).Cmp(x) == 0
}

// rowLabel names a privacy row of the program.
type rowLabel struct {
	from, to, output int
	factor           *big.Rat
}

// mechanismProgram states the program of mechanism.OptimalLP in rationals, rows in the same
// order: the n row sums, then for each pair and output the two privacy rows (one equality at
// distance 0). labels names the privacy rows.
func mechanismProgram(spec *MechanismSpec, prior Vector, pairs []exactPair, n, w int) (*ratlp.Problem, []rowLabel) {
	p := &ratlp.Problem{Sense: ratlp.Maximize, Objective: make([]*big.Rat, n*w)}
	score := spec.Gain
	if spec.Loss != nil {
		p.Sense, score = ratlp.Minimize, spec.Loss
	}
	for y := 0; y < n; y++ {
		for z := 0; z < w; z++ {
			c := new(big.Rat)
			switch {
			case score != nil:
				c.Mul(prior[y], score.At(z, y))
			case y == z:
				c.Set(prior[y])
			}
			p.Objective[y*w+z] = c
		}
	}
	oneR, minusOne := big.NewRat(1, 1), big.NewRat(-1, 1)
	for y := 0; y < n; y++ {
		terms := make([]ratlp.Term, w)
		for z := range terms {
			terms[z] = ratlp.Term{Var: y*w + z, Coef: oneR}
		}
		p.Rows = append(p.Rows, ratlp.Row{Terms: terms, Op: ratlp.Equal, RHS: oneR})
	}
	var labels []rowLabel
	zero := new(big.Rat)
	for _, pr := range pairs {
		neg := new(big.Rat).Neg(pr.factor)
		for z := 0; z < w; z++ {
			if pr.factor.Cmp(oneR) == 0 {
				p.Rows = append(p.Rows, ratlp.Row{Terms: []ratlp.Term{{Var: pr.a*w + z, Coef: oneR}, {Var: pr.b*w + z, Coef: minusOne}}, Op: ratlp.Equal, RHS: zero})
				labels = append(labels, rowLabel{pr.a, pr.b, z, pr.factor})
				continue
			}
			p.Rows = append(p.Rows,
				ratlp.Row{Terms: []ratlp.Term{{Var: pr.a*w + z, Coef: oneR}, {Var: pr.b*w + z, Coef: neg}}, Op: ratlp.LessEq, RHS: zero},
				ratlp.Row{Terms: []ratlp.Term{{Var: pr.b*w + z, Coef: oneR}, {Var: pr.a*w + z, Coef: neg}}, Op: ratlp.LessEq, RHS: zero})
			labels = append(labels, rowLabel{pr.a, pr.b, z, pr.factor}, rowLabel{pr.b, pr.a, z, pr.factor})
		}
	}
	return p, labels
}
