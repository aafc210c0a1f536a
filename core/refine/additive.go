package refine

import (
	"fmt"
	"math"

	"github.com/qif-toolkit/qif/core/argerr"
	"github.com/qif-toolkit/qif/core/channel"
	"github.com/qif-toolkit/qif/core/lp"
	"github.com/qif-toolkit/qif/core/measure"
	"gonum.org/v1/gonum/mat"
)

// MaxAdditiveMetricVariables bounds the linear program of AdditiveMetric (one variable per
// output of B and secret): 50,000 is about 220×220 channels (its time is in
// docs/design/performance.md#core-choices); larger problems are refused before anything is built.
const MaxAdditiveMetricVariables = 50_000

// AdditiveMetricResult is the answer of AdditiveMetric.
type AdditiveMetricResult struct {
	// Value is sup_g (V_g[π▷B] − V_g[π▷A]) over gain functions with values ≤ 1 that include a
	// zero-gain guess: how much more B can leak than A, for this prior. It is ≥ 0.
	Value float64
	// Gain is a gain function attaining Value: (|outputs of A| + |outputs of B| + 1) × n, rows =
	// guesses, columns = secrets. Row y < |outputs of A| is the guess made on output y of A,
	// row |outputs of A| + z the guess made on output z of B, and the last row is the
	// zero-gain guess. Rows of outputs that have probability 0 under the prior, and the
	// columns of secrets outside its support, are 0.
	Gain *mat.Dense
	// VulnerabilityA and VulnerabilityB are V_g[π▷A] and V_g[π▷B] for Gain, recomputed with
	// core/measure; their difference agrees with Value (see AdditiveMetric).
	VulnerabilityA, VulnerabilityB float64
	// LPVariables and LPConstraints give the size of the linear program solved.
	LPVariables, LPConstraints int
}

// AdditiveMetric returns the additive refinement metric of A and B for the prior π (libqif's
// definition): the supremum over gain functions g with values ≤ 1 that include a guess of gain 0
// of V_g[π▷B] − V_g[π▷A], and a gain function attaining it. It is 0 exactly when no such
// adversary prefers B, which for a prior of full support is A ⊑avg B; otherwise it says how much
// more B can leak, and Gain says to whom.
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
// and the metric is 1 − the minimum (t_y is then max(0, max_z Σ_x J_A[x][y] g_z(x)), so the
// minimum is 1 − V_g[π▷B] + V_g[π▷A]). It has |outputs of B|·|supp π| + |outputs of A|
// variables and |outputs of A|·|outputs of B| rows, against twice as many variables and rows
// twice as dense in libqif's form, and much faster (BenchmarkAdditiveMetric; the times are in
// docs/design/performance.md#core-choices).
// Outputs of probability 0 and secrets outside the support of π do not enter the program. The
// value is then recomputed from the gain with measure.PosteriorGVulnerability; when the two
// disagree by more than 1e-9·(1 + max |g|) an error is returned rather than an unverified value.
func AdditiveMetric(prior []float64, A, B mat.Matrix) (*AdditiveMetricResult, error) {
	p, err := newPair(A, B)
	if err != nil {
		return nil, err
	}
	if err := channel.ValidateDistribution("prior", prior); err != nil {
		return nil, err
	}
	n := p.n
	if len(prior) != n {
		return nil, argerr.New("prior", "has %d entries but the channels have %d rows (secrets)", len(prior), n)
	}
	var supp []int
	for x, v := range prior {
		if v > 0 {
			supp = append(supp, x)
		}
	}
	// Joint columns π_x C[x][y] over the support, for the outputs of positive probability.
	joint := func(c []float64, m int) (cols []int, j [][]float64) {
		for y := 0; y < m; y++ {
			col := make([]float64, len(supp))
			s := 0.0
			for k, x := range supp {
				col[k] = prior[x] * c[x*m+y]
				s += col[k]
			}
			if s > 0 {
				cols = append(cols, y)
				j = append(j, col)
			}
		}
		return
	}
	colsA, jA := joint(p.a, p.ma)
	colsB, jB := joint(p.b, p.mb)
	k, ga, gb := len(supp), len(colsA), len(colsB)
	if vars := float64(gb)*float64(k) + float64(ga); vars > MaxAdditiveMetricVariables {
		return nil, fmt.Errorf("A, B: the program would have %.3g variables (outputs of B × secrets), more than the limit of %d", vars, MaxAdditiveMetricVariables)
	}

	// Variables h_z = 1 − g_z ≥ 0 (the gains of B's guesses) and t_y ≥ 0 (the contribution of
	// output y of A to V_g[π▷A]); see AdditiveMetric for the program.
	m := lp.NewModel(lp.Minimize)
	H := m.AddBlock("h", gb, k)
	T := m.AddBlock("t", 1, ga)
	total := 0.0 // Σ_z p_B(z) = Σ_x π_x, which is 1 only within channel.Tolerance
	for z, col := range jB {
		for x, v := range col {
			m.SetObjective(H.At(z, x), v)
			total += v
		}
	}
	pA := make([]float64, ga)
	for y, col := range jA {
		m.SetObjective(T.At(0, y), 1)
		for _, v := range col {
			pA[y] += v
		}
	}
	terms := make([]lp.Term, 0, k+1)
	for y, col := range jA {
		for z := 0; z < gb; z++ {
			terms = append(terms[:0], lp.Term{Var: T.At(0, y), Coef: 1})
			for x, v := range col {
				if v != 0 {
					terms = append(terms, lp.Term{Var: H.At(z, x), Coef: v})
				}
			}
			m.AddGe(terms, pA[y])
		}
	}
	res, err := m.Solve(nil)
	if err != nil {
		return nil, err
	}
	if res.Status != lp.Optimal {
		return nil, fmt.Errorf("refine: the additive-metric program ended with status %v", res.Status)
	}

	// The gain: B's guesses from h, the zero guess, and for each output of A a copy of its best
	// guess among those (so that row y is the guess made on output y of A, as in libqif).
	gain := mat.NewDense(p.ma+p.mb+1, n, nil)
	big := 1.0
	for z, out := range colsB {
		for kx, x := range supp {
			v := 1 - math.Max(0, res.X[H.At(z, kx)])
			gain.Set(p.ma+out, x, v)
			big = math.Max(big, math.Abs(v))
		}
	}
	zero := p.ma + p.mb
	for y, out := range colsA {
		best, bestW := 0.0, zero
		for _, w := range colsB {
			s := 0.0
			for kx, x := range supp {
				s += jA[y][kx] * gain.At(p.ma+w, x)
			}
			if s > best {
				best, bestW = s, p.ma+w
			}
		}
		gain.SetRow(out, gain.RawRowView(bestW))
	}
	va, err := measure.PosteriorGVulnerability(gain, prior, A)
	if err != nil {
		return nil, err
	}
	vb, err := measure.PosteriorGVulnerability(gain, prior, B)
	if err != nil {
		return nil, err
	}
	value := math.Max(0, total-res.Objective)
	if math.Abs((vb-va)-value) > 1e-9*(1+big) {
		return nil, fmt.Errorf("refine: the additive metric could not be verified: the program gives %.12g but its gain function gives V_g[π▷B] − V_g[π▷A] = %.12g", value, vb-va)
	}
	return &AdditiveMetricResult{
		Value: value, Gain: gain, VulnerabilityA: va, VulnerabilityB: vb,
		LPVariables: m.NumVars(), LPConstraints: m.NumRows(),
	}, nil
}
