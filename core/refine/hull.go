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
	c := newCorral(a, k, d, b)
	if !c.minimize() {
		return nil, 0, 0, errHullIterations
	}
	c.setX()
	xx := c.xx()
	dist = math.Sqrt(xx)
	if dist > 0 {
		lo := math.Inf(1)
		for i := 0; i < k; i++ {
			lo = math.Min(lo, c.dotX(i))
		}
		lower = math.Max(0, lo/dist)
	}
	lambda = make([]float64, k)
	for i, j := range c.S {
		lambda[j] += c.lam[i]
	}
	return lambda, dist, lower, nil
}

// corral is the state of Wolfe's algorithm: the translated points q_i = a_i − b, the corral S
// with its weights, the Cholesky factor of Q_S Q_Sᵀ + 11ᵀ and the current point x = Σ λ_i q_S(i).
type corral struct {
	k, d, maxS int
	q          []float64 // k×d, row-major
	norm2      []float64 // ‖q_i‖²
	best       int       // the point of least norm, where the corral starts
	S          []int     // the corral
	lam        []float64 // its weights
	L          []float64 // Cholesky factor of Q_S Q_Sᵀ + 11ᵀ, row-major, stride maxS
	x          []float64
	alpha, tmp []float64
}

func newCorral(a []float64, k, d int, b []float64) *corral {
	maxS := d + 2
	c := &corral{k: k, d: d, maxS: maxS, q: make([]float64, k*d), norm2: make([]float64, k),
		S: make([]int, 0, maxS), lam: make([]float64, 0, maxS), L: make([]float64, maxS*maxS),
		x: make([]float64, d), alpha: make([]float64, maxS), tmp: make([]float64, maxS)}
	for i := 0; i < k; i++ {
		qi := c.q[i*d : (i+1)*d]
		s := 0.0
		for t := range qi {
			qi[t] = a[i*d+t] - b[t]
			s += qi[t] * qi[t]
		}
		c.norm2[i] = s
		if s < c.norm2[c.best] {
			c.best = i
		}
	}
	return c
}

// dot is ⟨q_i, q_j⟩; dotX is ⟨x, q_i⟩; xx is ‖x‖².
func (c *corral) dot(i, j int) float64 {
	qi, qj := c.q[i*c.d:(i+1)*c.d], c.q[j*c.d:(j+1)*c.d]
	s := 0.0
	for t, v := range qi {
		s += v * qj[t]
	}
	return s
}

func (c *corral) dotX(i int) float64 {
	qi := c.q[i*c.d : (i+1)*c.d]
	s := 0.0
	for t, v := range c.x {
		s += v * qi[t]
	}
	return s
}

func (c *corral) xx() float64 {
	s := 0.0
	for _, v := range c.x {
		s += v * v
	}
	return s
}

// addPoint extends the Cholesky factor by point j; false when j is affinely dependent.
func (c *corral) addPoint(j int) bool {
	s, maxS, L := len(c.S), c.maxS, c.L
	if s >= maxS {
		return false
	}
	row := L[s*maxS : s*maxS+s+1]
	for i := 0; i < s; i++ {
		v := c.dot(c.S[i], j) + 1
		for t := 0; t < i; t++ {
			v -= L[i*maxS+t] * row[t]
		}
		row[i] = v / L[i*maxS+i]
	}
	piv := c.norm2[j] + 1
	for t := 0; t < s; t++ {
		piv -= row[t] * row[t]
	}
	if piv <= hullPivot*(c.norm2[j]+1) {
		return false
	}
	row[s] = math.Sqrt(piv)
	c.S = append(c.S, j)
	return true
}

// refactor factors the corral anew; false when it has become affinely dependent.
func (c *corral) refactor() bool {
	old := append([]int(nil), c.S...)
	c.S = c.S[:0]
	for _, j := range old {
		if !c.addPoint(j) {
			return false
		}
	}
	return true
}

// setX recomputes x from the corral and its weights.
func (c *corral) setX() {
	clear(c.x)
	for i, j := range c.S {
		w := c.lam[i]
		for t, v := range c.q[j*c.d : (j+1)*c.d] {
			c.x[t] += w * v
		}
	}
}

// affine solves L Lᵀ α' = 1 and normalizes α = α'/Σα' (the affine minimum-norm point of the
// corral); false when the sum is not positive.
func (c *corral) affine() bool {
	s, maxS, L, alpha, tmp := len(c.S), c.maxS, c.L, c.alpha, c.tmp
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

// minimize runs the major cycles from the point of least norm. It reports false when the
// iteration limit is reached first; every other stop (the gap met, or no progress possible in
// floating point) leaves a feasible x and reports true.
func (c *corral) minimize() bool {
	c.addPoint(c.best)
	c.lam = append(c.lam, 1)
	c.setX()
	maxIter := 50*(c.k+c.d) + 100
	for it := 0; it < maxIter; it++ {
		xx := c.xx()
		if math.Sqrt(xx) <= hullZero {
			return true
		}
		j, dj := -1, math.Inf(1)
		for i := 0; i < c.k; i++ {
			if s := c.dotX(i); s < dj {
				j, dj = i, s
			}
		}
		if xx-dj <= hullGap*xx {
			return true
		}
		for _, i := range c.S {
			if i == j {
				return true // no progress possible in floating point
			}
		}
		if !c.addPoint(j) {
			return true
		}
		c.lam = append(c.lam, 0)
		if !c.minorCycles() {
			return true
		}
		c.setX()
	}
	return false
}

// minorCycles moves the weights towards the corral's affine minimum-norm point, dropping the
// points whose weight would turn negative, until that point lies inside the corral's hull. It
// reports false on a stall (x is then kept, feasible).
func (c *corral) minorCycles() bool {
	for minor := 0; ; minor++ {
		if minor > c.maxS+5 || !c.affine() {
			return false
		}
		s := len(c.S)
		allPos := true
		for i := 0; i < s; i++ {
			if c.alpha[i] <= 0 {
				allPos = false
				break
			}
		}
		if allPos {
			copy(c.lam, c.alpha[:s])
			return true
		}
		theta := 1.0
		for i := 0; i < s; i++ {
			if c.alpha[i] <= 0 && c.lam[i]-c.alpha[i] > 0 {
				theta = math.Min(theta, c.lam[i]/(c.lam[i]-c.alpha[i]))
			}
		}
		drop := -1
		worst := math.Inf(1)
		for i := 0; i < s; i++ {
			c.lam[i] = (1-theta)*c.lam[i] + theta*c.alpha[i]
			if c.lam[i] < worst {
				drop, worst = i, c.lam[i]
			}
		}
		keepS, keepL := c.S[:0:0], c.lam[:0:0]
		for i := 0; i < s; i++ {
			if i != drop && c.lam[i] > hullWeight {
				keepS = append(keepS, c.S[i])
				keepL = append(keepL, c.lam[i])
			}
		}
		c.S = append(c.S[:0], keepS...)
		c.lam = append(c.lam[:0], keepL...)
		sum := 0.0
		for _, v := range c.lam {
			sum += v
		}
		for i := range c.lam {
			c.lam[i] /= sum
		}
		if !c.refactor() {
			c.setX()
			return false
		}
	}
}
