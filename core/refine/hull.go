package refine

import (
	"errors"
	"math"
)

// Tolerances of the min-norm-point algorithm (Wolfe 1976) behind Max. Points are probability
// vectors, so every difference has norm at most √2 and absolute tolerances are meaningful.
const (
	// hullGap stops a major cycle when ‖x‖² − min_j ⟨x, q_j⟩ ≤ hullGap·‖x‖²: the certified
	// lower bound min_j ⟨x, q_j⟩/‖x‖ is then within a relative 1e-12 of ‖x‖.
	hullGap = 1e-12
	// hullZero is the norm below which the nearest point is the origin itself (rounding level).
	hullZero = 1e-15
	// hullPivot is the relative Cholesky pivot below which a new point is affinely dependent on
	// the corral (no further progress is possible in floating point).
	hullPivot = 1e-13
	// hullWeight is the weight below which a corral point is dropped.
	hullWeight = 1e-15
)

var errHullIterations = errors.New("refine: the min-norm-point iteration did not converge")

// hullProjection returns the point of conv{a_0, …, a_{k−1}} nearest to b in the Euclidean norm:
// its convex weights lambda (length k), the distance ‖Σλ_i a_i − b‖ and a certified lower
// bound on the distance, min_i ⟨x, a_i − b⟩/‖x‖ with x = Σλ_i a_i − b (every point of the hull
// lies on the far side of the hyperplane ⟨x, · − b⟩ = that value). a is k×d row-major.
//
// It is Wolfe's min-norm-point algorithm on the translated points q_i = a_i − b: a corral of
// affinely independent points, the affine minimum-norm point of the corral from a Cholesky
// factor of Q Qᵀ + 11ᵀ (positive definite exactly when the corral is affinely independent),
// and minor cycles that drop points whose weight would turn negative. It terminates in finitely
// many steps in exact arithmetic; in floating point it stops at the tolerances above, and the
// distance is then exact to about 1e-15 absolute when b is in the hull and to a relative
// 1e-12 otherwise (the returned lower bound says how close).
func hullProjection(a []float64, k, d int, b []float64) (lambda []float64, dist, lower float64, err error) {
	q := make([]float64, k*d)
	norm2 := make([]float64, k)
	best := 0
	for i := 0; i < k; i++ {
		qi := q[i*d : (i+1)*d]
		s := 0.0
		for t := range qi {
			qi[t] = a[i*d+t] - b[t]
			s += qi[t] * qi[t]
		}
		norm2[i] = s
		if s < norm2[best] {
			best = i
		}
	}
	dot := func(i, j int) float64 {
		qi, qj := q[i*d:(i+1)*d], q[j*d:(j+1)*d]
		s := 0.0
		for t, v := range qi {
			s += v * qj[t]
		}
		return s
	}
	maxS := d + 2
	S := make([]int, 0, maxS)       // corral
	lam := make([]float64, 0, maxS) // its weights
	L := make([]float64, maxS*maxS) // Cholesky factor of Q_S Q_Sᵀ + 11ᵀ, row-major, stride maxS
	x := make([]float64, d)
	dots := make([]float64, k)
	alpha := make([]float64, maxS)
	tmp := make([]float64, maxS)

	// addPoint extends the Cholesky factor by point j; false when j is affinely dependent.
	addPoint := func(j int) bool {
		s := len(S)
		if s >= maxS {
			return false
		}
		row := L[s*maxS : s*maxS+s+1]
		for i := 0; i < s; i++ {
			v := dot(S[i], j) + 1
			for t := 0; t < i; t++ {
				v -= L[i*maxS+t] * row[t]
			}
			row[i] = v / L[i*maxS+i]
		}
		piv := norm2[j] + 1
		for t := 0; t < s; t++ {
			piv -= row[t] * row[t]
		}
		if piv <= hullPivot*(norm2[j]+1) {
			return false
		}
		row[s] = math.Sqrt(piv)
		S = append(S, j)
		return true
	}
	refactor := func() bool {
		old := append([]int(nil), S...)
		S = S[:0]
		for _, j := range old {
			if !addPoint(j) {
				return false
			}
		}
		return true
	}
	setX := func() {
		for t := range x {
			x[t] = 0
		}
		for i, j := range S {
			w := lam[i]
			for t, v := range q[j*d : (j+1)*d] {
				x[t] += w * v
			}
		}
	}
	// affine solves L Lᵀ α' = 1 and normalizes α = α'/Σα'; false when the sum is not positive.
	affine := func() bool {
		s := len(S)
		for i := 0; i < s; i++ {
			v := 1.0
			for t := 0; t < i; t++ {
				v -= L[i*maxS+t] * tmp[t]
			}
			tmp[i] = v / L[i*maxS+i]
		}
		for i := s - 1; i >= 0; i-- {
			v := tmp[i]
			for t := i + 1; t < s; t++ {
				v -= L[t*maxS+i] * alpha[t]
			}
			alpha[i] = v / L[i*maxS+i]
		}
		sum := 0.0
		for i := 0; i < s; i++ {
			sum += alpha[i]
		}
		if !(sum > 0) || math.IsInf(sum, 0) {
			return false
		}
		for i := 0; i < s; i++ {
			alpha[i] /= sum
		}
		return true
	}

	addPoint(best)
	lam = append(lam, 1)
	setX()
	maxIter := 50*(k+d) + 100
	converged := false
major:
	for it := 0; it < maxIter; it++ {
		xx := 0.0
		for _, v := range x {
			xx += v * v
		}
		if math.Sqrt(xx) <= hullZero {
			converged = true
			break
		}
		j, dj := -1, math.Inf(1)
		for i := 0; i < k; i++ {
			qi := q[i*d : (i+1)*d]
			s := 0.0
			for t, v := range x {
				s += v * qi[t]
			}
			dots[i] = s
			if s < dj {
				j, dj = i, s
			}
		}
		if xx-dj <= hullGap*xx {
			converged = true
			break
		}
		for _, i := range S {
			if i == j {
				converged = true // no progress possible in floating point
				break major
			}
		}
		if !addPoint(j) {
			converged = true
			break
		}
		lam = append(lam, 0)
		for minor := 0; ; minor++ {
			if minor > maxS+5 || !affine() {
				converged = true // stall: keep the current (feasible) x
				break major
			}
			s := len(S)
			allPos := true
			for i := 0; i < s; i++ {
				if alpha[i] <= 0 {
					allPos = false
					break
				}
			}
			if allPos {
				copy(lam, alpha[:s])
				break
			}
			theta := 1.0
			for i := 0; i < s; i++ {
				if alpha[i] <= 0 && lam[i]-alpha[i] > 0 {
					theta = math.Min(theta, lam[i]/(lam[i]-alpha[i]))
				}
			}
			drop := -1
			worst := math.Inf(1)
			for i := 0; i < s; i++ {
				lam[i] = (1-theta)*lam[i] + theta*alpha[i]
				if lam[i] < worst {
					drop, worst = i, lam[i]
				}
			}
			keepS, keepL := S[:0:0], lam[:0:0]
			for i := 0; i < s; i++ {
				if i != drop && lam[i] > hullWeight {
					keepS = append(keepS, S[i])
					keepL = append(keepL, lam[i])
				}
			}
			S = append(S[:0], keepS...)
			lam = append(lam[:0], keepL...)
			sum := 0.0
			for _, v := range lam {
				sum += v
			}
			for i := range lam {
				lam[i] /= sum
			}
			if !refactor() {
				setX()
				converged = true
				break major
			}
		}
		setX()
	}
	if !converged {
		return nil, 0, 0, errHullIterations
	}
	setX()
	xx := 0.0
	for _, v := range x {
		xx += v * v
	}
	dist = math.Sqrt(xx)
	if dist > 0 {
		lo := math.Inf(1)
		for i := 0; i < k; i++ {
			qi := q[i*d : (i+1)*d]
			s := 0.0
			for t, v := range x {
				s += v * qi[t]
			}
			lo = math.Min(lo, s)
		}
		lower = math.Max(0, lo/dist)
	}
	lambda = make([]float64, k)
	for i, j := range S {
		lambda[j] += lam[i]
	}
	return lambda, dist, lower, nil
}
