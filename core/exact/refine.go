package exact

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/qif-toolkit/qif/core/argerr"
	"github.com/qif-toolkit/qif/core/exact/ratlp"
	"github.com/qif-toolkit/qif/core/lp"
)

// MaxRefineVariables bounds |outputs of A|·|outputs of B|, the entries of the witness R that
// RefineAvg looks for in exact arithmetic. The rows A·R = B are dense, and so is the exact
// factorization of the basis: measured natively, 20×20 channels take 0.2 s, 35×35 7 s and
// 50×50 over a minute, so the limit is 25×25.
const MaxRefineVariables = 625

// AvgResult is the exact verdict of RefineAvg.
type AvgResult struct {
	// Holds reports A ⊑avg B: B = A·R for a row-stochastic R.
	Holds bool
	// Witness, when Holds, is R (|outputs of A| × |outputs of B|), row-stochastic with
	// A·R = B exactly.
	Witness *Matrix
	// Counterexample, when not Holds, is a gain function and a prior under which B leaks
	// more than A, with both vulnerabilities exact.
	Counterexample *GainCounterexample
	// FloatIterations and Pivots count the floating-point iterations and the exact pivots
	// that followed.
	FloatIterations, Pivots int
}

// GainCounterexample is an adversary who prefers B to A: V_g[π▷B] > V_g[π▷A], both computed
// exactly by PosteriorGVulnerability.
type GainCounterexample struct {
	// Gain is |outputs of B| × n with entries in [0, 2]: guess z stands for "B's output was
	// z".
	Gain *Matrix
	// Prior is the uniform prior.
	Prior Vector
	// VulnerabilityA and VulnerabilityB are V_g[π▷A] < V_g[π▷B].
	VulnerabilityA, VulnerabilityB *big.Rat
}

// RefineOptions carries cancellation and progress for RefineAvg; nil gives none.
type RefineOptions struct {
	Context context.Context
	// Progress, when set, is called when each stage starts, during the floating-point solve and
	// after every exact pivot; returning false cancels.
	Progress func(MechanismProgress) bool
}

// RefineAvg decides A ⊑avg B in exact arithmetic: whether B = A·R for a row-stochastic R
// (equivalently, V_g[π▷B] ≤ V_g[π▷A] for every prior and gain). The feasibility program
// A·R = B, R·1 = 1, R ≥ 0 is solved in floating point for a basis and then exactly
// (core/exact/ratlp). When it is feasible the exact basic solution is the witness; when it is
// not, the exact Farkas certificate (H for the rows A·R = B, v for the row sums) gives the
// counterexample: with G[z][x] = H[x][z] and the uniform prior, n·V_g[B] ≥ ⟨H, B⟩ > −Σ v ≥
// n·V_g[A]. The gain is scaled and shifted into [0, 2] (which moves both vulnerabilities by
// the same amount), both vulnerabilities are recomputed exactly, and the answer is returned
// only when B's is larger.
func RefineAvg(A, B *Matrix, opt *RefineOptions) (*AvgResult, error) {
	if err := ValidateChannel("A", A); err != nil {
		return nil, err
	}
	if err := ValidateChannel("B", B); err != nil {
		return nil, err
	}
	if A.Rows != B.Rows {
		return nil, argerr.New("B", "has %d rows but A has %d (both are channels on the same secrets)", B.Rows, A.Rows)
	}
	n, ma, mb := A.Rows, A.Cols, B.Cols
	if ma*mb > MaxRefineVariables {
		return nil, fmt.Errorf("A, B: the witness would have %d×%d = %d entries, more than the limit of %d for exact arithmetic (use the floating-point refine.avg)", ma, mb, ma*mb, MaxRefineVariables)
	}
	if err := checkWork("A, B", float64(n)*float64(ma)*float64(mb), bits(A.Data)+bits(B.Data)); err != nil {
		return nil, err
	}
	o := RefineOptions{}
	if opt != nil {
		o = *opt
	}
	if o.Context == nil {
		o.Context = context.Background()
	}
	progress := func(mp MechanismProgress) bool { return o.Progress == nil || o.Progress(mp) }

	p := &ratlp.Problem{Sense: ratlp.Minimize, Objective: make([]*big.Rat, ma*mb)}
	for j := range p.Objective {
		p.Objective[j] = new(big.Rat)
	}
	for x := 0; x < n; x++ {
		for z := 0; z < mb; z++ {
			var terms []ratlp.Term
			for y, a := range A.Row(x) {
				if a.Sign() != 0 {
					terms = append(terms, ratlp.Term{Var: y*mb + z, Coef: a})
				}
			}
			p.Rows = append(p.Rows, ratlp.Row{Terms: terms, Op: ratlp.Equal, RHS: B.At(x, z)})
		}
	}
	oneR := big.NewRat(1, 1)
	for y := 0; y < ma; y++ {
		terms := make([]ratlp.Term, mb)
		for z := range terms {
			terms[z] = ratlp.Term{Var: y*mb + z, Coef: oneR}
		}
		p.Rows = append(p.Rows, ratlp.Row{Terms: terms, Op: ratlp.Equal, RHS: oneR})
	}
	out := &AvgResult{}
	if !progress(MechanismProgress{Stage: "floating point"}) {
		return nil, fmt.Errorf("refine avg: cancelled before the floating-point solve")
	}
	var start *ratlp.Basis
	if fp, kept, ok := p.Float(); ok {
		fres, err := lp.Solve(fp, &lp.Options{Context: o.Context, Progress: func(q lp.Progress) bool {
			return progress(MechanismProgress{Stage: "floating point", Iterations: q.Iteration})
		}})
		if err != nil {
			return nil, err
		}
		if fres.Status == lp.Cancelled || o.Context.Err() != nil {
			return nil, fmt.Errorf("refine avg: cancelled during the floating-point solve")
		}
		out.FloatIterations = fres.Iterations
		start = ratlp.StartFrom(p, kept, fres)
	}
	if !progress(MechanismProgress{Stage: "exact", Iterations: out.FloatIterations}) {
		return nil, fmt.Errorf("refine avg: cancelled before the exact pivots")
	}
	res, err := ratlp.Solve(p, start, &ratlp.Options{Context: o.Context, Progress: func(q ratlp.Progress) bool {
		return progress(MechanismProgress{Stage: "exact", Iterations: out.FloatIterations, Pivots: q.Pivots})
	}})
	if errors.Is(err, ratlp.ErrCancelled) {
		return nil, fmt.Errorf("refine avg: cancelled during the exact pivots")
	}
	if err != nil {
		return nil, err
	}
	out.Pivots = res.Pivots
	switch res.Status {
	case ratlp.Optimal:
		R := &Matrix{Rows: ma, Cols: mb, Data: res.X}
		AR, err := Cascade(A, R)
		if err != nil || !equalMatrices(AR, B) {
			return nil, fmt.Errorf("refine avg: internal error: the exact witness does not give B (%v)", err)
		}
		out.Holds, out.Witness = true, R
		return out, nil
	case ratlp.Infeasible:
		ce, err := gainFromFarkas(A, B, res.Farkas)
		if err != nil {
			return nil, err
		}
		out.Counterexample = ce
		return out, nil
	}
	return nil, fmt.Errorf("refine avg: internal error: the feasibility program is %v", res.Status)
}

// gainFromFarkas turns the multipliers H (n×|outputs of B|, the first rows) of an
// infeasibility certificate into a counterexample and checks it.
func gainFromFarkas(A, B *Matrix, y []*big.Rat) (*GainCounterexample, error) {
	n, mb := A.Rows, B.Cols
	scale := new(big.Rat)
	for _, h := range y[:n*mb] {
		if a := new(big.Rat).Abs(h); a.Cmp(scale) > 0 {
			scale = a
		}
	}
	if scale.Sign() == 0 {
		return nil, fmt.Errorf("refine avg: internal error: the infeasibility certificate has no gain part")
	}
	G := NewMatrix(mb, n)
	for x := 0; x < n; x++ {
		for z := 0; z < mb; z++ {
			g := G.Data[z*n+x]
			g.Quo(y[x*mb+z], scale)
			g.Add(g, one)
		}
	}
	prior := make(Vector, n)
	for i := range prior {
		prior[i] = big.NewRat(1, int64(n))
	}
	va, err := PosteriorGVulnerability(G, prior, A)
	if err != nil {
		return nil, err
	}
	vb, err := PosteriorGVulnerability(G, prior, B)
	if err != nil {
		return nil, err
	}
	if vb.Cmp(va) <= 0 {
		return nil, fmt.Errorf("refine avg: internal error: the certificate's gain does not separate (V_g[B] = %s, V_g[A] = %s)", inMessage(vb), inMessage(va))
	}
	return &GainCounterexample{Gain: G, Prior: prior, VulnerabilityA: va, VulnerabilityB: vb}, nil
}

func equalMatrices(a, b *Matrix) bool {
	if a.Rows != b.Rows || a.Cols != b.Cols {
		return false
	}
	for k := range a.Data {
		if a.Data[k].Cmp(b.Data[k]) != 0 {
			return false
		}
	}
	return true
}
