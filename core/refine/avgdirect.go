package refine

import (
	"math"

	"github.com/qif-toolkit/qif/core/channel"
	"gonum.org/v1/gonum/mat"
)

// maxDirectCond is the largest condition number of the reduced A for which avgDirect trusts
// its least-squares solution; beyond it the linear program decides.
const maxDirectCond = 1e8

// avgDirect is the fast path of Avg for an A whose reduced form has full column rank (square
// invertible channels, the truncated geometric, randomized response, ...). Then A·R = B has
// at most one solution, R̂ = A⁺B (least squares), and:
//
//   - if R̂ clipped to a channel has residual ρ ≤ tol, A ⊑avg B with that witness;
//   - otherwise H = (B − A·R̂) + X, where X is the minimum-norm solution of Aᵀ·X = −max(−R̂, 0),
//     separates B from {A·R}: ⟨H, B⟩ − Σ_y max_z (AᵀH)[y][z] = ‖B − AR̂‖² + ‖max(−R̂,0)‖² > 0
//     in exact arithmetic. The separation is recomputed with the original A and B; when it
//     certifies ρ > tol the counterexample is returned.
//
// In any other case (wide or ill-conditioned A, a certificate too weak to decide) ok is false
// and the linear program decides.
func avgDirect(p *pair, tol float64) (res *AvgResult, ok bool, err error) {
	n := p.n
	red, err := channel.ReduceColumns(mat.NewDense(n, p.ma, p.a))
	if err != nil {
		return nil, false, nil
	}
	k := len(red.Columns)
	if k > n {
		return nil, false, nil
	}
	ar := red.Channel.RawMatrix()
	ad := make([]float64, n*k) // contiguous rows whatever the stride
	for x := 0; x < n; x++ {
		copy(ad[x*k:(x+1)*k], ar.Data[x*ar.Stride:])
	}
	qr := newHouseholderQR(n, k, ad)
	if c := qr.cond(); !(c <= maxDirectCond) {
		return nil, false, nil
	}
	rh := qr.leastSquares(p.b, p.mb) // R̂, k×mb

	// Candidate witness: R̂ clipped to a channel, each reduced row copied to the columns of A
	// merged into it.
	W := mat.NewDense(p.ma, p.mb, nil)
	wd := W.RawMatrix().Data
	row := make([]float64, p.mb)
	for g, cols := range red.Columns {
		s := 0.0
		for z := range row {
			row[z] = math.Max(rh[g*p.mb+z], 0)
			s += row[z]
		}
		if !(s > 0) || math.IsInf(s, 0) {
			return nil, false, nil
		}
		for _, y := range cols {
			for z, v := range row {
				wd[y*p.mb+z] = v / s
			}
		}
	}
	covered := make([]bool, p.ma)
	for _, cols := range red.Columns {
		for _, y := range cols {
			covered[y] = true
		}
	}
	for y, c := range covered {
		if !c {
			wd[y*p.mb+p.colB[0]] = 1 // A never produces y: any row will do
		}
	}
	res = &AvgResult{Method: "least squares", Residual: residual(p, wd), OutputsB: append([]int(nil), p.colB...)}
	if res.Residual <= tol {
		res.Holds, res.Witness = true, W
		return res, true, nil
	}

	// Certificate: H = E + X with E = B − A_r·R̂ and A_rᵀ·X = −max(−R̂, 0).
	E := append([]float64(nil), p.b...)
	for x := 0; x < n; x++ {
		for g := 0; g < k; g++ {
			if v := ad[x*k+g]; v != 0 {
				for z := 0; z < p.mb; z++ {
					E[x*p.mb+z] -= v * rh[g*p.mb+z]
				}
			}
		}
	}
	M := make([]float64, k*p.mb)
	for i, v := range rh {
		M[i] = math.Min(v, 0)
	}
	X := qr.minNormTransposed(M, p.mb)
	k2 := len(p.colB)
	H := make([]float64, n*k2)
	for x := 0; x < n; x++ {
		for z, cz := range p.colB {
			H[x*k2+z] = E[x*p.mb+cz] + X[x*p.mb+cz]
		}
	}
	res.ResidualLowerBound = separation(p, H)
	if !(res.ResidualLowerBound > tol) {
		return nil, false, nil
	}
	if err := res.setCounterexample(p, H, tol); err != nil {
		return nil, false, nil
	}
	return res, true, nil
}
