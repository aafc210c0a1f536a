package refine

import (
	"fmt"
	"math"
	"math/big"

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
	// zero-gain guess: how much more B can leak than A, for this prior. It is ≥ 0, and it is
	// the exact supremum (computed in rationals) rounded to float64.
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
	// LPVariables and LPConstraints give the size of the linear program solved.
	LPVariables, LPConstraints int
	// Pivots is the number of exact simplex pivots made after the floating-point solve (0 when
	// its final basis was optimal as given).
	Pivots int
}

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
// Floating point is not enough: the optimal vertex can have h of the order of 1/(smallest
// entry), e.g. 1e52 for truncated geometric mechanisms with ε = 40 and 60 nats, where a
// tolerance-based simplex stops at a vertex worth 0 or reports trouble. So the program is
// solved in floating point (core/lp) for a starting basis only, and then exactly in rationals
// (core/exact/ratlp), which re-solves that basis, pivots on while it is not optimal, and
// certifies the optimum by its duals. The gain is rounded to float64, both vulnerabilities
// of the rounded gain are computed exactly, and their difference must agree with the exact
// optimum within 1e-9 (rounding a gain entry g moves V_g by at most 2⁻⁵²·J·|g| ≤ 2⁻⁵² per
// term, since J_B·h ≤ 1 at an optimum); otherwise, or when the gain does not fit in float64,
// an error is returned rather than an unverified value. Outputs of probability 0 and
// secrets outside the support of π do not enter the program.
func AdditiveMetric(prior []float64, A, B mat.Matrix) (*AdditiveMetricResult, error) {
	return AdditiveMetricWith(prior, A, B, nil)
}

// AdditiveMetricWith is AdditiveMetric with options: a context for cancellation (Tolerance is
// not used; the value is exact).
func AdditiveMetricWith(prior []float64, A, B mat.Matrix, opt *Options) (*AdditiveMetricResult, error) {
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
	var supp []int
	for x, v := range prior {
		if v > 0 {
			supp = append(supp, x)
		}
	}
	ra, rb := exactRows(A), exactRows(B)
	pi := make([]*big.Rat, n)
	for x, v := range prior {
		pi[x] = new(big.Rat).SetFloat64(v)
	}
	// Joint columns π_x C[x][y] over the support, for the outputs of positive probability.
	joint := func(c [][]*big.Rat, m int) (cols []int, j [][]*big.Rat) {
		for y := 0; y < m; y++ {
			col := make([]*big.Rat, len(supp))
			pos := false
			for k, x := range supp {
				col[k] = new(big.Rat).Mul(pi[x], c[x][y])
				pos = pos || col[k].Sign() > 0
			}
			if pos {
				cols = append(cols, y)
				j = append(j, col)
			}
		}
		return
	}
	k := len(supp)
	// The size check comes before the joint matrices: it needs only the counts of outputs.
	if vars := float64(mb)*float64(k) + float64(ma); vars > MaxAdditiveMetricVariables {
		return nil, fmt.Errorf("A, B: the program would have %.3g variables (outputs of B × secrets in the support of the prior + outputs of A), more than the limit of %d for exact arithmetic", vars, MaxAdditiveMetricVariables)
	}
	colsA, jA := joint(ra, ma)
	colsB, jB := joint(rb, mb)
	ga, gb := len(colsA), len(colsB)

	// Variables h_z(x) = 1 − g_z(x) ≥ 0 at z·k + x (the gains of B's guesses) and t_y ≥ 0 at
	// gb·k + y (the contribution of output y of A to V_g[π▷A]); see AdditiveMetric.
	hv := func(z, x int) int { return z*k + x }
	tv := func(y int) int { return gb*k + y }
	prob := &ratlp.Problem{Sense: ratlp.Minimize, Objective: make([]*big.Rat, gb*k+ga)}
	total := new(big.Rat) // Σ_z p_B(z) = Σ_x π_x, which is 1 only within channel.Tolerance
	for z, col := range jB {
		for x, v := range col {
			prob.Objective[hv(z, x)] = v
			total.Add(total, v)
		}
	}
	one := big.NewRat(1, 1)
	pA := make([]*big.Rat, ga)
	for y, col := range jA {
		prob.Objective[tv(y)] = one
		pA[y] = new(big.Rat)
		for _, v := range col {
			pA[y].Add(pA[y], v)
		}
	}
	for y, col := range jA {
		for z := 0; z < gb; z++ {
			terms := make([]ratlp.Term, 0, k+1)
			terms = append(terms, ratlp.Term{Var: tv(y), Coef: one})
			for x, v := range col {
				if v.Sign() != 0 {
					terms = append(terms, ratlp.Term{Var: hv(z, x), Coef: v})
				}
			}
			prob.Rows = append(prob.Rows, ratlp.Row{Terms: terms, Op: ratlp.GreaterEq, RHS: pA[y]})
		}
	}
	ctx := opt.ctx()
	var start *ratlp.Basis
	if fp, kept, ok := prob.Float(); ok {
		// Only a starting basis is wanted: an error or a status other than optimal (the
		// program is always feasible and bounded, so that means rounding trouble) leaves the
		// exact solver to start from whatever basis was reached, or from the slack basis.
		if fres, err := lp.Solve(fp, &lp.Options{Context: ctx}); err == nil {
			start = ratlp.StartFrom(prob, kept, fres)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("refine additive metric: cancelled: %w", err)
	}
	res, err := ratlp.Solve(prob, start, &ratlp.Options{Context: ctx})
	if err != nil {
		return nil, fmt.Errorf("refine additive metric: %w", err)
	}
	if res.Status != ratlp.Optimal {
		return nil, fmt.Errorf("refine additive metric: internal error: the program is %v (it is always feasible and bounded)", res.Status)
	}
	exactValue := new(big.Rat).Sub(total, res.Objective)

	// The gain: B's guesses from h, the zero guess, and for each output of A a copy of its best
	// guess among those (so that row y is the guess made on output y of A, as in libqif).
	gain := mat.NewDense(ma+mb+1, n, nil)
	g := new(big.Rat)
	for z, out := range colsB {
		for kx, x := range supp {
			g.Sub(one, res.X[hv(z, kx)])
			v, _ := g.Float64()
			if math.IsInf(v, 0) {
				return nil, fmt.Errorf("A, B: the gain function attaining the supremum needs an entry of %s, beyond the range of float64 (the channels have entries too small for a float64 gain to exploit)", new(big.Float).SetRat(g).Text('g', 3))
			}
			gain.Set(ma+out, x, v)
		}
	}
	zero := ma + mb
	for y, out := range colsA {
		best, bestW := new(big.Rat), zero
		s := new(big.Rat)
		for _, w := range colsB {
			s.SetInt64(0)
			for kx, x := range supp {
				s.Add(s, new(big.Rat).Mul(jA[y][kx], new(big.Rat).SetFloat64(gain.At(ma+w, x))))
			}
			if s.Cmp(best) > 0 {
				best.Set(s)
				bestW = ma + w
			}
		}
		gain.SetRow(out, gain.RawRowView(bestW))
	}
	va := exactPosteriorGVulnerability(gain, pi, ra)
	vb := exactPosteriorGVulnerability(gain, pi, rb)
	diff, _ := new(big.Rat).Sub(new(big.Rat).Sub(vb, va), exactValue).Float64()
	value, _ := exactValue.Float64()
	if math.Abs(diff) > 1e-9 {
		return nil, fmt.Errorf("refine additive metric: internal error: the exact supremum is %.12g but the float64 gain function attains it only within %.3g", value, diff)
	}
	fa, _ := va.Float64()
	fb, _ := vb.Float64()
	return &AdditiveMetricResult{
		Value: math.Max(0, value), Gain: gain, VulnerabilityA: fa, VulnerabilityB: fb,
		LPVariables: len(prob.Objective), LPConstraints: len(prob.Rows), Pivots: res.Pivots,
	}, nil
}

// exactPosteriorGVulnerability is V_g[π▷C] = Σ_y max_w Σ_x π_x C[x][y] g[w][x], in rationals:
// with gains of 1e50 and channel entries of 1e-50 the terms cancel in floating point. For
// speed each sum is first taken in float64 with a bound on its rounding error, and only the
// guesses whose interval reaches the best lower bound are summed exactly.
func exactPosteriorGVulnerability(gain *mat.Dense, pi []*big.Rat, c [][]*big.Rat) *big.Rat {
	w, n := gain.Dims()
	g := make([]*big.Rat, w*n)
	for i := range g {
		g[i] = new(big.Rat).SetFloat64(gain.At(i/n, i%n))
	}
	total := new(big.Rat)
	joint, s, t := make([]*big.Rat, n), new(big.Rat), new(big.Rat)
	jf := make([]float64, n)
	lo, hi := make([]float64, w), make([]float64, w)
	for y := range c[0] {
		filter := true
		for x := 0; x < n; x++ {
			joint[x] = new(big.Rat).Mul(pi[x], c[x][y])
			jf[x], _ = joint[x].Float64()
			// Near the subnormal range the relative error bound below does not hold.
			filter = filter && (jf[x] == 0 || math.Abs(jf[x]) > 1e-290)
		}
		bestLo := math.Inf(-1)
		for i := 0; i < w; i++ {
			sum, abs := 0.0, 0.0
			for x := 0; x < n; x++ {
				v := jf[x] * gain.At(i, x)
				sum += v
				abs += math.Abs(v)
			}
			// Each joint entry is rounded once, each product and sum once more: the error is
			// at most (n + 2)·2⁻⁵²·Σ|terms|, doubled for safety.
			e := 2 * float64(n+2) * 0x1p-52 * abs
			lo[i], hi[i] = sum-e, sum+e
			bestLo = math.Max(bestLo, lo[i])
		}
		var best *big.Rat
		for i := 0; i < w; i++ {
			if filter && hi[i] < bestLo {
				continue
			}
			s.SetInt64(0)
			for x := 0; x < n; x++ {
				if joint[x].Sign() != 0 && g[i*n+x].Sign() != 0 {
					s.Add(s, t.Mul(joint[x], g[i*n+x]))
				}
			}
			if best == nil || s.Cmp(best) > 0 {
				best = new(big.Rat).Set(s)
			}
		}
		total.Add(total, best)
	}
	return total
}
