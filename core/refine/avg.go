package refine

import (
	"fmt"
	"math"

	"github.com/qif-toolkit/qif/core/lp"
	"github.com/qif-toolkit/qif/core/measure"
	"gonum.org/v1/gonum/mat"
)

// AvgTolerance is the decision tolerance of Avg: A ⊑avg B is reported when the residual
// ρ = min_R (1/n) Σ_{x,z} |(A·R)[x][z] − B[x][z]| over row-stochastic R is at most 1e-9. ρ is the
// mean, over the n secrets, of the L1 distance between a row of B and the same row of A·R;
// it is also exactly the advantage V_g[u▷B] − V_g[u▷A] of the best adversary with gains in
// [−1, 1] under the uniform prior u (LP duality), so the tolerance reads as "no adversary gains
// more than 1e-9". Rounding in B = A·R computed in float64 gives ρ ≈ 1e-16; noise of 1e-12 per
// entry gives ρ ≤ 1e-12·|outputs of B|.
const AvgTolerance = 1e-9

// VerifyTolerance is the margin by which a counterexample must win when it is checked by
// recomputation: V_g[π▷B] > V_g[π▷A] + VerifyTolerance (gains in [0, 2]), and for Max the
// certified lower bound of the distance to the hull must exceed MaxTolerance.
const VerifyTolerance = 1e-12

// GainCounterexample is an adversary who prefers B to A in the average case: a gain matrix
// and a prior with V_g[π▷B] > V_g[π▷A], both vulnerabilities computed by
// measure.PosteriorGVulnerability.
type GainCounterexample struct {
	// Gain is |W|×n (rows = guesses, columns = secrets) with entries in [0, 2]. Guess w stands
	// for "output OutputsB[w] of B was the one observed" — the guesses are B's non-zero outputs.
	Gain *mat.Dense
	// Prior is the uniform prior.
	Prior []float64
	// VulnerabilityA and VulnerabilityB are V_g[π▷A] and V_g[π▷B].
	VulnerabilityA, VulnerabilityB float64
}

// AvgResult is the verdict of Avg.
type AvgResult struct {
	// Holds reports A ⊑avg B: B = A·R for a row-stochastic R, within the tolerance.
	Holds bool
	// Residual is ρ = (1/n) Σ |A·R − B| for the best R found (see AvgTolerance), recomputed from
	// the witness after clipping it to a channel; it is an upper bound on the true minimum.
	Residual float64
	// ResidualLowerBound, when !Holds, is a certified lower bound on the minimum residual,
	// given by the separating direction behind the counterexample (greater than the tolerance).
	ResidualLowerBound float64
	// Witness, when Holds, is the row-stochastic R (|outputs of A| × |outputs of B|) with
	// A·R = B within Residual. Rows of all-zero columns of A are set to a point mass.
	Witness *mat.Dense
	// Counterexample, when !Holds, is a gain function and prior preferring B (verified).
	Counterexample *GainCounterexample
	// OutputsB lists the outputs of B behind the guesses of the counterexample's gain.
	OutputsB []int
	// Method is "least squares" when the fast path for a full-column-rank A decided, or
	// "linear program".
	Method string
	// LPVariables and LPConstraints give the size of the linear program solved (0 when the
	// least-squares path decided).
	LPVariables, LPConstraints int
}

// Avg decides A ⊑avg B (docs/mathematics.md#refinement): whether B is a post-processing B = A·R of
// A by a row-stochastic R, equivalently whether V_g[π▷B] ≤ V_g[π▷A] for every prior π and gain g. A
// and B must be channels on the same secrets; their numbers of outputs may differ and they may have
// all-zero or proportional columns.
//
// It solves one linear program: minimize ρ = (1/n) Σ_{x,z} (s⁺[x][z] + s⁻[x][z]) subject to
// A·R + s⁺ − s⁻ = B, R row-stochastic, s± ≥ 0. It always has a solution; the verdict is
// ρ ≤ AvgTolerance. When it fails, the duals H of the rows A·R + s⁺ − s⁻ = B (|H| ≤ 1/n) give a
// separating hyperplane: ⟨H, B⟩ − max_R ⟨H, A·R⟩ = ρ, which reads as the gain function
// G[z][x] = n·H[x][z] (one guess per non-zero output z of B), shifted by a constant to lie in
// [0, 2], with V_g[u▷B] − V_g[u▷A] ≥ ρ under the uniform prior u. Both vulnerabilities are then
// computed with core/measure and the counterexample is returned only when B wins by more than
// VerifyTolerance; otherwise an error is returned rather than an unverified claim.
func Avg(A, B mat.Matrix) (*AvgResult, error) { return AvgWith(A, B, nil) }

// AvgWith is Avg with options (a context for cancellation, a different tolerance).
func AvgWith(A, B mat.Matrix, opt *Options) (*AvgResult, error) {
	if err := checkOptions(opt); err != nil {
		return nil, err
	}
	p, err := newPair(A, B)
	if err != nil {
		return nil, err
	}
	return avgPair(p, opt)
}

// avgPair decides p.A ⊑avg p.B: least squares when it can, the linear program otherwise.
func avgPair(p *pair, opt *Options) (*AvgResult, error) {
	tol := opt.tol(AvgTolerance)
	if res, ok, err := avgDirect(p, tol); err != nil || ok {
		return res, err
	}
	return avgLP(p, tol, opt)
}

// avgLP decides A ⊑avg B with the linear program described at Avg.
func avgLP(p *pair, tol float64, opt *Options) (*AvgResult, error) {
	n, k1, k2 := p.n, len(p.colA), len(p.colB)

	m := lp.NewModel(lp.Minimize)
	R := m.AddBlock("R", k1, k2)
	over := m.AddBlock("over", n, k2)
	under := m.AddBlock("under", n, k2)
	inv := 1 / float64(n)
	for x := 0; x < n; x++ {
		for z := 0; z < k2; z++ {
			m.SetObjective(over.At(x, z), inv)
			m.SetObjective(under.At(x, z), inv)
		}
	}
	row := make([]lp.Term, 0, max(k1, k2)+2)
	for y := 0; y < k1; y++ {
		row = row[:0]
		for z := 0; z < k2; z++ {
			row = append(row, lp.Term{Var: R.At(y, z), Coef: 1})
		}
		m.AddEq(row, 1)
	}
	coupling := make([]int, n*k2)
	for x := 0; x < n; x++ {
		arow := p.a[x*p.ma : (x+1)*p.ma]
		for z, cz := range p.colB {
			row = row[:0]
			for y, cy := range p.colA {
				if v := arow[cy]; v != 0 {
					row = append(row, lp.Term{Var: R.At(y, z), Coef: v})
				}
			}
			row = append(row, lp.Term{Var: over.At(x, z), Coef: 1}, lp.Term{Var: under.At(x, z), Coef: -1})
			coupling[x*k2+z] = m.AddEq(row, p.b[x*p.mb+cz])
		}
	}
	res := &AvgResult{Method: "linear program", LPVariables: m.NumVars(), LPConstraints: m.NumRows(), OutputsB: append([]int(nil), p.colB...)}
	sol, err := m.Solve(&lp.Options{Context: opt.ctx()})
	if err != nil {
		return nil, fmt.Errorf("refine: avg: %w", err)
	}
	if sol.Status != lp.Optimal {
		return nil, fmt.Errorf("refine: avg: the linear program stopped: %v", sol.Status)
	}

	// Witness on the original outputs, clipped to a channel.
	W := mat.NewDense(p.ma, p.mb, nil)
	wd := W.RawMatrix().Data
	isCol := make([]bool, p.ma)
	for y, cy := range p.colA {
		isCol[cy] = true
		s := 0.0
		for z, cz := range p.colB {
			v := math.Max(sol.X[R.At(y, z)], 0)
			wd[cy*p.mb+cz] = v
			s += v
		}
		if s == 0 {
			wd[cy*p.mb+p.colB[0]], s = 1, 1
		}
		for _, cz := range p.colB {
			wd[cy*p.mb+cz] /= s
		}
	}
	for y := 0; y < p.ma; y++ {
		if !isCol[y] {
			wd[y*p.mb+p.colB[0]] = 1 // A never produces y: any row will do
		}
	}
	res.Residual = residual(p, wd)
	if res.Residual <= tol {
		res.Holds = true
		res.Witness = W
		return res, nil
	}

	// Counterexample from the duals of the coupling rows.
	H := make([]float64, n*k2)
	for i, r := range coupling {
		H[i] = sol.Duals[r]
	}
	res.ResidualLowerBound = separation(p, H)
	if err := res.setCounterexample(p, H, tol); err != nil {
		return nil, err
	}
	return res, nil
}

// setCounterexample turns a separating direction H (n×|non-zero outputs of B|, row-major)
// into a gain function with entries in [0, 2], computes both vulnerabilities and checks that B
// wins by more than VerifyTolerance.
func (res *AvgResult) setCounterexample(p *pair, H []float64, tol float64) error {
	n, k2 := p.n, len(p.colB)
	scale := 0.0
	for _, h := range H {
		scale = math.Max(scale, math.Abs(h))
	}
	if scale == 0 {
		return fmt.Errorf("refine: avg: residual %.3g exceeds the tolerance %.3g but no separating gain function was found", res.Residual, tol)
	}
	G := mat.NewDense(k2, n, nil)
	gd := G.RawMatrix().Data
	for x := 0; x < n; x++ {
		for z := 0; z < k2; z++ {
			// Shifting every gain by 1 shifts V_g by 1 on both channels: the gains lie in
			// [0, 2] and the advantage of B is unchanged.
			gd[z*n+x] = H[x*k2+z]/scale + 1
		}
	}
	prior := uniform(n)
	// Computed on the row-normalized channels: with rows that sum to 1 ± 1e-6, as validation
	// allows, the shift by 1 would otherwise move V_g by up to 1e-6 differently on A and B.
	va, err := measure.PosteriorGVulnerability(G, prior, mat.NewDense(n, p.ma, p.a))
	if err != nil {
		return err
	}
	vb, err := measure.PosteriorGVulnerability(G, prior, mat.NewDense(n, p.mb, p.b))
	if err != nil {
		return err
	}
	if !(vb > va+VerifyTolerance) {
		return fmt.Errorf("refine: avg: residual %.3g exceeds the tolerance %.3g but the dual gain function does not separate (V_g[B] − V_g[A] = %.3g); the problem is too ill-conditioned to decide", res.Residual, tol, vb-va)
	}
	res.Counterexample = &GainCounterexample{Gain: G, Prior: prior, VulnerabilityA: va, VulnerabilityB: vb}
	return nil
}

// separation is the certified lower bound on the residual given by a direction H
// (n×|non-zero outputs of B|): (⟨H, B⟩ − Σ_y max_z (Aᵀ·H)[y][z]) / (n·max|H|). For every
// row-stochastic R, ⟨H, A·R⟩ ≤ Σ_y max_z (AᵀH)[y][z], so the numerator is at most
// ⟨H, B − A·R⟩ ≤ max|H|·Σ|B − A·R| = n·max|H|·ρ(R).
func separation(p *pair, H []float64) float64 {
	n, k2 := p.n, len(p.colB)
	scale, inner := 0.0, 0.0
	for x := 0; x < n; x++ {
		for z, cz := range p.colB {
			h := H[x*k2+z]
			scale = math.Max(scale, math.Abs(h))
			inner += h * p.b[x*p.mb+cz]
		}
	}
	if scale == 0 {
		return 0
	}
	at := make([]float64, k2)
	best := 0.0
	for y := 0; y < p.ma; y++ {
		for z := range at {
			at[z] = 0
		}
		for x := 0; x < n; x++ {
			if v := p.a[x*p.ma+y]; v != 0 {
				for z, h := range H[x*k2 : (x+1)*k2] {
					at[z] += v * h
				}
			}
		}
		mx := math.Inf(-1)
		for _, v := range at {
			mx = math.Max(mx, v)
		}
		best += mx
	}
	return math.Max(0, (inner-best)/(float64(n)*scale))
}

// residual is (1/n) Σ_{x,z} |(A·R)[x][z] − B[x][z]| for the row-major witness r.
func residual(p *pair, r []float64) float64 {
	n, ma, mb := p.n, p.ma, p.mb
	acc := make([]float64, mb)
	total := 0.0
	for x := 0; x < n; x++ {
		for z := range acc {
			acc[z] = 0
		}
		for y, v := range p.a[x*ma : (x+1)*ma] {
			if v == 0 {
				continue
			}
			for z, w := range r[y*mb : (y+1)*mb] {
				acc[z] += v * w
			}
		}
		for z, v := range p.b[x*mb : (x+1)*mb] {
			total += math.Abs(acc[z] - v)
		}
	}
	return total / float64(n)
}
