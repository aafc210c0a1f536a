package refine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"time"

	"github.com/qif-toolkit/qif/core/argerr"
	"github.com/qif-toolkit/qif/core/channel"
	"github.com/qif-toolkit/qif/core/exact/ratlp"
	"github.com/qif-toolkit/qif/core/lp"
	"gonum.org/v1/gonum/mat"
)

// MaxAdditiveMetricVariables bounds the linear program of AdditiveMetric (one variable per
// output of B and secret in the support of the prior, plus one per output of A). The program
// is solved exactly in rationals (see AdditiveMetric), which is affordable for the channels of
// a page or a paper — 20×20 has 420 variables, 30×30 930 — and not for hundreds of outputs; larger
// problems are refused before anything is built.
const MaxAdditiveMetricVariables = 1_000

// AdditiveMetricResult is the answer of AdditiveMetric.
type AdditiveMetricResult struct {
	// Value is sup_g (V_g[π▷B] − V_g[π▷A]) over gain functions with values ≤ 1 that include a
	// zero-gain guess: how much more B can leak than A, for this prior. It is ≥ 0: the value
	// V_g[π▷B] − V_g[π▷A] of Gain, computed exactly, which is within AdditiveMetricTolerance
	// below the supremum (certified by UpperBound) — never a rounding artefact.
	Value float64
	// Gain is a gain function attaining Value: (|outputs of A| + |outputs of B| + 1) × n, rows =
	// guesses, columns = secrets. Row y < |outputs of A| is the guess made on output y of A,
	// row |outputs of A| + z the guess made on output z of B, and the last row is the
	// zero-gain guess. Rows of outputs that have probability 0 under the prior, and the
	// columns of secrets outside its support, are 0.
	//
	// The class is unbounded below, and the supremum may need very negative gains: when B
	// separates secrets by outputs of probability 1e-50 that A gives 1e-30, a gain of −1e50 on
	// the wrong secret is what turns that into an advantage. Entries of the order of the
	// reciprocal of the smallest channel entries are normal; V_g for such a gain must then be
	// evaluated with care (in floating point the terms cancel), which is why VulnerabilityA
	// and VulnerabilityB are computed exactly.
	Gain *mat.Dense
	// VulnerabilityA and VulnerabilityB are V_g[π▷A] and V_g[π▷B] for Gain (as rounded to
	// float64), computed exactly in rationals on the normalized channels and then rounded;
	// their difference agrees with Value within 1e-9 (checked).
	VulnerabilityA, VulnerabilityB float64
	// UpperBound is a certified upper bound on the supremum: Value itself when the program
	// was solved exactly, otherwise the bound of an exactly feasible dual point, at most
	// AdditiveMetricTolerance above Value.
	UpperBound float64
	// Method is "certified floating point" (the floating-point solution, evaluated and
	// bounded exactly, was within the tolerance) or "exact" (the rational simplex).
	Method string
	// LPVariables and LPConstraints give the size of the linear program solved.
	LPVariables, LPConstraints int
	// Pivots is the number of exact simplex pivots made after the floating-point solve (0 when
	// its final basis was optimal as given, or when the exact solver was not needed).
	Pivots int
}

// DefaultAdditiveMetricTimeLimit bounds the exact phase of AdditiveMetric by default. It is
// needed only when the floating-point bracket is wider than AdditiveMetricTolerance, which
// happens for channels with entries far below 1e-9 (geometric mechanisms with ε of several
// nats per step); the exact simplex then makes tens to hundreds of pivots, each refactorizing
// its basis in rationals whose size grows with the exponents of those entries: truncated
// geometric mechanisms on 4 values with ε = 40 and 60 take 60 ms, on 8 values about a minute.
const DefaultAdditiveMetricTimeLimit = 10 * time.Second

// AdditiveMetricTolerance is how far below the supremum AdditiveMetric's value may be: the
// floating-point answer is accepted only when an exactly evaluated gain and an exactly
// feasible dual point bracket the supremum within it, and the exact answer must be attained
// within it by the gain rounded to float64.
const AdditiveMetricTolerance = 1e-9

// AdditiveMetric returns the additive refinement metric of A and B for the prior π (libqif's
// definition): the supremum over gain functions g with values ≤ 1 that include a guess of gain 0
// of V_g[π▷B] − V_g[π▷A], and a gain function attaining it. It is 0 exactly when no such
// adversary prefers B, which for a prior of full support is A ⊑avg B; otherwise it says how much
// more B can leak, and Gain says to whom.
//
// The channels are normalized like everywhere in this package: each row divided by its sum,
// here exactly, in rationals (the float64 entries are read as the exact binary fractions they
// are). The prior is used as given (both vulnerabilities are linear in it).
//
// The linear program. libqif's program has one guess per output of A and of B and asks each
// guess of A to be the best on its output. A smaller equivalent one is solved: keep only the
// guesses of B (one per output z, which suffice for V_g[π▷B]; dropping any other guess only
// lowers V_g[π▷A]) and the zero guess, and let t_y be what output y of A is worth to the
// adversary. With J the joint matrices and h_z = 1 − g_z ≥ 0,
//
//	minimize   Σ_z Σ_x J_B[x][z] h_z(x) + Σ_y t_y
//	subject to t_y + Σ_x J_A[x][y] h_z(x) ≥ p_A(y)   for every output y of A and z of B,
//	           h, t ≥ 0,
//
// and the metric is Σ_x π_x − the minimum (t_y is then max(0, max_z Σ_x J_A[x][y] g_z(x)), so
// the minimum is Σ π − V_g[π▷B] + V_g[π▷A]). It has |outputs of B|·|supp π| + |outputs of A|
// variables and |outputs of A|·|outputs of B| rows, against twice as many variables and rows
// twice as dense in libqif's form. The minimum is finite (h = 0, t = p_A is feasible and the
// objective is ≥ 0), so it is attained at a vertex, and the supremum is a maximum.
//
// Floating point alone is not enough: the optimal vertex can have h of the order of
// 1/(smallest entry), e.g. 1e52 for truncated geometric mechanisms with ε = 40 and 60 nats,
// where a tolerance-based simplex stops at a vertex worth 0 or reports trouble. So the answer
// of the floating-point solve (core/lp) is only accepted when it is certified: its primal point
// gives a gain whose V_g[π▷B] − V_g[π▷A] is computed exactly (a lower bound on the supremum),
// its duals, repaired into an exactly feasible dual point, give an upper bound (weak duality),
// and the two must be within AdditiveMetricTolerance. This settles the channels of a page at
// float speed. When they are not (entries far below 1e-9), the program is solved exactly in
// rationals (core/exact/ratlp) from the float basis, which pivots while it is not optimal and
// certifies the optimum by its duals; that phase is bounded by Options.TimeLimit, and running
// out of time is an error that gives the certified bracket. The gain is rounded to float64,
// both vulnerabilities of the rounded gain are computed exactly, and on the exact path their
// difference must agree with the optimum within AdditiveMetricTolerance (rounding a gain entry g
// moves V_g by at most 2⁻⁵²·J·|g| ≤ 2⁻⁵² per term, since J_B·h ≤ 1 at an optimum); otherwise, or
// when the gain does not fit in float64, an error is returned rather than an unverified value.
// Outputs of probability 0 and secrets outside the support of π do not enter the program.
func AdditiveMetric(prior []float64, A, B mat.Matrix) (*AdditiveMetricResult, error) {
	return AdditiveMetricWith(prior, A, B, nil)
}

// AdditiveMetricWith is AdditiveMetric with options: a context for cancellation (Tolerance is
// not used; the value is exact).
func AdditiveMetricWith(prior []float64, A, B mat.Matrix, opt *Options) (*AdditiveMetricResult, error) {
	ap, err := newAdditiveProgram(prior, A, B, opt)
	if err != nil {
		return nil, err
	}
	ctx := opt.ctx()
	out := &AdditiveMetricResult{LPVariables: len(ap.prob.Objective), LPConstraints: len(ap.prob.Rows)}
	start, bracket, done := ap.floatPhase(ctx, out)
	if done {
		return out, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("refine additive metric: cancelled: %w", err)
	}
	if err := ap.exactPhase(ctx, opt, start, bracket, out); err != nil {
		return nil, err
	}
	return out, nil
}

// additiveProgram is the linear program of AdditiveMetricWith (see AdditiveMetric) with what
// its steps share: the support of the prior, the channels' rows in rationals, the joint
// columns of the outputs of positive probability.
type additiveProgram struct {
	n, ma, mb    int
	supp         []int
	pi           []*big.Rat
	ra, rb       [][]*big.Rat
	colsA, colsB []int          // the outputs of positive probability
	jA, jB       [][]*big.Rat   // their joint columns π_x C[x][y] over the support
	k, ga, gb    int            // |supp|, len(colsA), len(colsB)
	prob         *ratlp.Problem // variables h_z(x) at z·k + x, t_y at gb·k + y
	total        *big.Rat       // Σ_z p_B(z) = Σ_x π_x, which is 1 only within channel.Tolerance
	pA           []*big.Rat     // p_A(y)
}

// newAdditiveProgram validates the arguments and builds the program.
func newAdditiveProgram(prior []float64, A, B mat.Matrix, opt *Options) (*additiveProgram, error) {
	if err := checkOptions(opt); err != nil {
		return nil, err
	}
	if _, err := newPair(A, B); err != nil {
		return nil, err
	}
	if err := channel.ValidateDistribution("prior", prior); err != nil {
		return nil, err
	}
	n, ma := A.Dims()
	_, mb := B.Dims()
	if len(prior) != n {
		return nil, argerr.New("prior", "has %d entries but the channels have %d rows (secrets)", len(prior), n)
	}
	ap := &additiveProgram{n: n, ma: ma, mb: mb}
	for x, v := range prior {
		if v > 0 {
			ap.supp = append(ap.supp, x)
		}
	}
	ap.k = len(ap.supp)
	// The size check comes before the joint matrices: it needs only the counts of outputs.
	if vars := float64(mb)*float64(ap.k) + float64(ma); vars > MaxAdditiveMetricVariables {
		return nil, fmt.Errorf("A, B: the program would have %.3g variables (outputs of B × secrets in the support of the prior + outputs of A), more than the limit of %d for exact arithmetic", vars, MaxAdditiveMetricVariables)
	}
	ap.ra, ap.rb = exactRows(A), exactRows(B)
	ap.pi = make([]*big.Rat, n)
	for x, v := range prior {
		ap.pi[x] = new(big.Rat).SetFloat64(v)
	}
	ap.colsA, ap.jA = ap.joint(ap.ra, ma)
	ap.colsB, ap.jB = ap.joint(ap.rb, mb)
	ap.ga, ap.gb = len(ap.colsA), len(ap.colsB)
	ap.build()
	return ap, nil
}

// joint returns the outputs of c of positive probability and their joint columns.
func (ap *additiveProgram) joint(c [][]*big.Rat, m int) (cols []int, j [][]*big.Rat) {
	for y := 0; y < m; y++ {
		col := make([]*big.Rat, len(ap.supp))
		pos := false
		for k, x := range ap.supp {
			col[k] = new(big.Rat).Mul(ap.pi[x], c[x][y])
			pos = pos || col[k].Sign() > 0
		}
		if pos {
			cols = append(cols, y)
			j = append(j, col)
		}
	}
	return
}

// hv and tv are the indices of the variables h_z(x) = 1 − g_z(x) ≥ 0 (the gains of B's
// guesses) and t_y ≥ 0 (the contribution of output y of A to V_g[π▷A]).
func (ap *additiveProgram) hv(z, x int) int { return z*ap.k + x }
func (ap *additiveProgram) tv(y int) int    { return ap.gb*ap.k + y }

// build writes the objective and the rows t_y + Σ_x J_A[x][y] h_z(x) ≥ p_A(y).
func (ap *additiveProgram) build() {
	k, gb := ap.k, ap.gb
	prob := &ratlp.Problem{Sense: ratlp.Minimize, Objective: make([]*big.Rat, gb*k+ap.ga)}
	ap.total = new(big.Rat)
	for z, col := range ap.jB {
		for x, v := range col {
			prob.Objective[ap.hv(z, x)] = v
			ap.total.Add(ap.total, v)
		}
	}
	one := big.NewRat(1, 1)
	ap.pA = make([]*big.Rat, ap.ga)
	for y, col := range ap.jA {
		prob.Objective[ap.tv(y)] = one
		ap.pA[y] = new(big.Rat)
		for _, v := range col {
			ap.pA[y].Add(ap.pA[y], v)
		}
	}
	for y, col := range ap.jA {
		for z := 0; z < gb; z++ {
			terms := make([]ratlp.Term, 0, k+1)
			terms = append(terms, ratlp.Term{Var: ap.tv(y), Coef: one})
			for x, v := range col {
				if v.Sign() != 0 {
					terms = append(terms, ratlp.Term{Var: ap.hv(z, x), Coef: v})
				}
			}
			prob.Rows = append(prob.Rows, ratlp.Row{Terms: terms, Op: ratlp.GreaterEq, RHS: ap.pA[y]})
		}
	}
	ap.prob = prob
}

// makeGain builds the gain from B's guesses g_z(x) = gz(z, kx) (float64), the zero guess, and
// for each output of A a copy of its best guess among those (so that row y is the guess made
// on output y of A, as in libqif), and computes both vulnerabilities exactly.
func (ap *additiveProgram) makeGain(gz func(z, kx int) float64) (gain *mat.Dense, va, vb *big.Rat) {
	n, ma, mb := ap.n, ap.ma, ap.mb
	gain = mat.NewDense(ma+mb+1, n, nil)
	for z, o := range ap.colsB {
		for kx, x := range ap.supp {
			gain.Set(ma+o, x, gz(z, kx))
		}
	}
	gr := ratEntries(gain)
	joint, jf := make([]*big.Rat, n), make([]float64, n)
	for x := range joint {
		joint[x] = new(big.Rat)
	}
	for y, o := range ap.colsA {
		for kx, x := range ap.supp {
			joint[x] = ap.jA[y][kx]
		}
		// The rows of A's guesses are still 0, like the zero guess: a best row among them
		// means the zero guess.
		if w, _ := bestRow(gain, gr, joint, jf); w >= ma {
			gain.SetRow(o, gain.RawRowView(w))
		}
	}
	return gain, exactPosteriorGVulnerability(gain, ap.pi, ap.ra), exactPosteriorGVulnerability(gain, ap.pi, ap.rb)
}

// setResult writes the gain, both vulnerabilities, the value and the upper bound into out.
func setResult(out *AdditiveMetricResult, gain *mat.Dense, va, vb *big.Rat, upper float64) {
	out.Gain = gain
	out.VulnerabilityA, _ = va.Float64()
	out.VulnerabilityB, _ = vb.Float64()
	out.Value, _ = new(big.Rat).Sub(vb, va).Float64()
	out.UpperBound = upper
}

// additiveBracket is the best certified bracket of the floating-point phase, for the message
// when the exact phase runs out of time (nil ends when there is none).
type additiveBracket struct{ lower, upper *big.Rat }

// floatPhase solves the program in floating point. That gives a starting basis for the exact
// solve, and first a chance to finish at once: its primal point is a gain (a lower bound,
// evaluated exactly) and its duals, repaired into an exactly feasible dual point, an upper
// bound. When the two meet within AdditiveMetricTolerance the answer is certified without
// exact pivoting, which on noisy channels (entries with 53-bit mantissas) is slow: done is then
// true and out is the result. The default tolerances first; then, when the bracket is wider
// (channels with entries far below 1e-9, which those tolerances do not resolve), tolerances
// of 1e-14, whose basis also leaves the exact solver fewer pivots (measured: 176 → 56 on
// geometric mechanisms with ε = 3 and 5 on 14 values). Otherwise the exact solver takes over.
func (ap *additiveProgram) floatPhase(ctx context.Context, out *AdditiveMetricResult) (start *ratlp.Basis, br additiveBracket, done bool) {
	fp, kept, ok := ap.prob.Float()
	if !ok {
		return nil, br, false
	}
	for _, tol := range []float64{0, 1e-14} {
		fres, err := lp.Solve(fp, &lp.Options{Context: ctx, FeasibilityTol: tol, OptimalityTol: tol})
		if err != nil || ctx.Err() != nil {
			break
		}
		if b := ratlp.StartFrom(ap.prob, kept, fres); b != nil {
			start = b
		}
		if len(fres.X) != len(ap.prob.Objective) || len(kept) != len(ap.prob.Rows) || len(fres.Duals) != len(kept) {
			continue
		}
		gain, va, vb := ap.makeGain(func(z, kx int) float64 { return 1 - math.Max(0, fres.X[ap.hv(z, kx)]) })
		lower := new(big.Rat).Sub(vb, va)
		upper := dualBound(ap.total, ap.pA, ap.jA, ap.jB, ap.gb, fres.Duals)
		if br.lower == nil || lower.Cmp(br.lower) > 0 {
			br.lower = lower
		}
		if br.upper == nil || upper.Cmp(br.upper) < 0 {
			br.upper = upper
		}
		if gap, _ := new(big.Rat).Sub(upper, lower).Float64(); gap <= AdditiveMetricTolerance {
			if lower.Sign() < 0 { // the zero gain does better: value 0
				gain, va, vb = mat.NewDense(ap.ma+ap.mb+1, ap.n, nil), new(big.Rat), new(big.Rat)
			}
			u, _ := upper.Float64()
			out.Method = "certified floating point"
			setResult(out, gain, va, vb, u)
			return start, br, true
		}
	}
	return start, br, false
}

// exactPhase solves the program in rationals from start within the time limit, rounds the
// optimal gain to float64 and checks that the rounded gain attains the exact optimum.
func (ap *additiveProgram) exactPhase(ctx context.Context, opt *Options, start *ratlp.Basis, br additiveBracket, out *AdditiveMetricResult) error {
	limit := DefaultAdditiveMetricTimeLimit
	if opt != nil && opt.TimeLimit != 0 {
		limit = opt.TimeLimit
	}
	exactCtx := ctx
	if limit > 0 {
		var cancel context.CancelFunc
		exactCtx, cancel = context.WithTimeout(ctx, limit)
		defer cancel()
	}
	res, err := ratlp.Solve(ap.prob, start, &ratlp.Options{Context: exactCtx})
	if err != nil && ctx.Err() == nil && errors.Is(exactCtx.Err(), context.DeadlineExceeded) {
		bracket := ""
		if br.lower != nil {
			lo, _ := br.lower.Float64()
			hi, _ := br.upper.Float64()
			bracket = fmt.Sprintf("; the supremum is certified to lie in [%.12g, %.12g]", math.Max(0, lo), hi)
		}
		return fmt.Errorf("A, B: the exact simplex did not finish within the time limit of %v: floating point does not resolve channels with entries this far below 1e-9, and the exact pivots grow with them%s; give a larger timeLimit (or Infinity)", limit, bracket)
	}
	if err != nil {
		return fmt.Errorf("refine additive metric: %w", err)
	}
	if res.Status != ratlp.Optimal {
		return fmt.Errorf("refine additive metric: internal error: the program is %v (it is always feasible and bounded)", res.Status)
	}
	exactValue := new(big.Rat).Sub(ap.total, res.Objective)
	one := big.NewRat(1, 1)
	g := new(big.Rat)
	var huge *big.Rat
	gain, va, vb := ap.makeGain(func(z, kx int) float64 {
		g.Sub(one, res.X[ap.hv(z, kx)])
		v, _ := g.Float64()
		if math.IsInf(v, 0) && huge == nil {
			huge = new(big.Rat).Set(g)
		}
		return v
	})
	if huge != nil {
		return fmt.Errorf("A, B: the gain function attaining the supremum needs an entry of %s, beyond the range of float64 (the channels have entries too small for a float64 gain to exploit)", new(big.Float).SetRat(huge).Text('g', 3))
	}
	diff, _ := new(big.Rat).Sub(new(big.Rat).Sub(vb, va), exactValue).Float64()
	value, _ := exactValue.Float64()
	if math.Abs(diff) > AdditiveMetricTolerance {
		return fmt.Errorf("refine additive metric: internal error: the exact supremum is %.12g but the float64 gain function attains it only within %.3g", value, diff)
	}
	out.Method, out.Pivots = "exact", res.Pivots
	setResult(out, gain, va, vb, value)
	return nil
}

// dualBound turns the row prices λ_yz of the floating-point solve into a dual point that is
// feasible exactly — λ ≥ 0, Σ_z λ_yz ≤ 1 for every y, Σ_y J_A[x][y]·λ_yz ≤ J_B[x][z] for every
// x and z — by clipping negatives and scaling columns and then rows down (all terms are
// nonnegative, so scaling down keeps what already holds), and returns the upper bound
// Σ π − Σ_{y,z} p_A(y)·λ_yz on the metric that it proves (weak duality).
func dualBound(total *big.Rat, pA []*big.Rat, jA, jB [][]*big.Rat, gb int, duals []float64) *big.Rat {
	ga, k := len(jA), 0
	if ga > 0 {
		k = len(jA[0])
	}
	lam := make([][]*big.Rat, ga)
	for y := range lam {
		lam[y] = make([]*big.Rat, gb)
		for z := range lam[y] {
			lam[y][z] = new(big.Rat).SetFloat64(math.Max(0, duals[y*gb+z]))
		}
	}
	s, t := new(big.Rat), new(big.Rat)
	for z := 0; z < gb; z++ {
		f := big.NewRat(1, 1) // the largest factor ≤ 1 that makes column z feasible
		for x := 0; x < k; x++ {
			s.SetInt64(0)
			for y := 0; y < ga; y++ {
				if lam[y][z].Sign() != 0 && jA[y][x].Sign() != 0 {
					s.Add(s, t.Mul(jA[y][x], lam[y][z]))
				}
			}
			if s.Sign() > 0 && s.Cmp(jB[z][x]) > 0 {
				if q := new(big.Rat).Quo(jB[z][x], s); q.Cmp(f) < 0 {
					f = q
				}
			}
		}
		if f.Cmp(ratOne) != 0 {
			for y := 0; y < ga; y++ {
				lam[y][z].Mul(lam[y][z], f)
			}
		}
	}
	obj := new(big.Rat)
	for y := 0; y < ga; y++ {
		s.SetInt64(0)
		for z := 0; z < gb; z++ {
			s.Add(s, lam[y][z])
		}
		row := new(big.Rat).Mul(pA[y], s)
		if s.Cmp(ratOne) > 0 {
			row.Quo(row, s)
		}
		obj.Add(obj, row)
	}
	return obj.Sub(total, obj)
}

// exactPosteriorGVulnerability is V_g[π▷C] = Σ_y max_w Σ_x π_x C[x][y] g[w][x], in rationals:
// with gains of 1e50 and channel entries of 1e-50 the terms cancel in floating point.
func exactPosteriorGVulnerability(gain *mat.Dense, pi []*big.Rat, c [][]*big.Rat) *big.Rat {
	_, n := gain.Dims()
	gr := ratEntries(gain)
	total := new(big.Rat)
	joint, jf := make([]*big.Rat, n), make([]float64, n)
	for y := range c[0] {
		for x := 0; x < n; x++ {
			joint[x] = new(big.Rat).Mul(pi[x], c[x][y])
		}
		_, best := bestRow(gain, gr, joint, jf)
		total.Add(total, best)
	}
	return total
}

// ratEntries returns the entries of g as exact rationals, row-major.
func ratEntries(g *mat.Dense) []*big.Rat {
	w, n := g.Dims()
	out := make([]*big.Rat, w*n)
	for i := range out {
		out[i] = new(big.Rat).SetFloat64(g.At(i/n, i%n))
	}
	return out
}

// bestRow returns a row w of the gain maximizing Σ_x joint[x]·g[w][x], and that maximum,
// exactly (gr holds the gain's entries as rationals; jf is work space). For speed each sum is
// first taken in float64 with a bound on its rounding error, and only the rows whose interval
// reaches the best lower bound are summed exactly.
func bestRow(gain *mat.Dense, gr, joint []*big.Rat, jf []float64) (int, *big.Rat) {
	w, n := gain.Dims()
	filter := true
	for x := 0; x < n; x++ {
		jf[x], _ = joint[x].Float64()
		// Near the subnormal range the relative error bound below does not hold.
		filter = filter && (jf[x] == 0 || math.Abs(jf[x]) > 1e-290)
	}
	lo, hi := make([]float64, w), make([]float64, w)
	bestLo := math.Inf(-1)
	for i := 0; i < w; i++ {
		sum, abs := 0.0, 0.0
		for x, g := range gain.RawRowView(i) {
			v := jf[x] * g
			sum += v
			abs += math.Abs(v)
		}
		// Each joint entry is rounded once, each product and sum once more: the error is at
		// most (n + 2)·2⁻⁵²·Σ|terms|, doubled for safety.
		e := 2 * float64(n+2) * 0x1p-52 * abs
		lo[i], hi[i] = sum-e, sum+e
		bestLo = math.Max(bestLo, lo[i])
	}
	var best *big.Rat
	at := -1
	s, t := new(big.Rat), new(big.Rat)
	for i := 0; i < w; i++ {
		if filter && hi[i] < bestLo {
			continue
		}
		s.SetInt64(0)
		for x := 0; x < n; x++ {
			if joint[x].Sign() != 0 && gr[i*n+x].Sign() != 0 {
				s.Add(s, t.Mul(joint[x], gr[i*n+x]))
			}
		}
		if best == nil || s.Cmp(best) > 0 {
			best, at = new(big.Rat).Set(s), i
		}
	}
	return at, best
}

var ratOne = big.NewRat(1, 1)
