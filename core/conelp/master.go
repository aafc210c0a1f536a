package conelp

import (
	"math"

	"github.com/qif-toolkit/qif/core/internal/lu"
)

// master is the restricted master program of the decomposition: maximize Σ_j cost_j·λ_j subject
// to Σ_j λ_j·col_j = 1 (one row per row sum of H), λ ≥ 0, over the generated columns
// j = (w_j, cone point col_j), cost_j = Cost[w_j]·col_j. Its basis is N×N and dense (cone points
// are positive everywhere), so it is solved by a revised primal simplex with an explicit
// inverse, updated by one Gauss–Jordan step per pivot (O(N²)) and recomputed every
// reinvertEvery pivots. Rows whose basis position still holds an artificial variable keep it at
// 0 (bounds [0, 0]); the start is the basis {one constant column, artificials}, which is
// feasible because the constant vector is in every cone.
type master struct {
	n         int
	cols      [][]float64
	colW      []int
	cost      []float64
	inB       []int // basis position of a column, −1 if nonbasic
	age       []int // rounds a column has been nonbasic
	basis     []int // column in each position, −1 − y for the artificial of row y
	binv      []float64
	x         []float64 // values of the basic variables
	mu        []float64 // row prices c_B·B⁻¹
	d         []float64 // reduced costs of the columns
	u         []float64
	b         []float64 // right-hand side: the row sums, all 1
	cand      []int
	since     int  // pivots since the last reinversion
	refreshed bool // prices refreshed since the last pivot
	iters     int
}

const (
	reinvertEvery = 64
	masterPivTol  = 1e-9
	// clipTol is the largest infeasibility of a basic value (in units of the row sums, 1) that
	// cleanup clips to 0 when no pivot fixes it.
	clipTol = 1e-9
)

func newMaster(n int) *master {
	m := &master{n: n, binv: make([]float64, n*n), x: make([]float64, n), mu: make([]float64, n),
		u: make([]float64, n), basis: make([]int, n), b: make([]float64, n)}
	for y := range m.b {
		m.b[y] = 1
	}
	for y := 0; y < n; y++ {
		m.basis[y] = -1 - y
		m.binv[y*n+y] = 1
	}
	return m
}

// add appends a column and returns its index.
func (m *master) add(w int, col []float64, cost float64) int {
	m.cols = append(m.cols, col)
	m.colW = append(m.colW, w)
	m.cost = append(m.cost, cost)
	m.inB = append(m.inB, -1)
	m.age = append(m.age, 0)
	m.d = append(m.d, 0)
	return len(m.cols) - 1
}

func (m *master) basicCost(i int) float64 {
	if j := m.basis[i]; j >= 0 {
		return m.cost[j]
	}
	return 0
}

// reinvert recomputes B⁻¹, x = B⁻¹·1 and μ from scratch. It reports false when B is singular
// (B⁻¹ is then left as it was) or nearly so (condition number above 10^14): the caller then
// restarts from the artificial basis.
func (m *master) reinvert() bool {
	n := m.n
	b := make([]float64, n*n) // row-major B: column i is the column in basis position i
	for i, j := range m.basis {
		if j >= 0 {
			for y, v := range m.cols[j] {
				b[y*n+i] = v
			}
		} else {
			b[(-1-j)*n+i] = 1
		}
	}
	f, err := lu.Factorize(n, b)
	if err != nil {
		return false
	}
	e := make([]float64, n)
	for y := 0; y < n; y++ {
		e[y] = 1
		col := f.Solve(e) // column y of B⁻¹
		e[y] = 0
		for i, v := range col {
			m.binv[i*n+y] = v
		}
	}
	m.since = 0
	m.computeX()
	m.computeMu()
	return f.Cond() < 1e14
}

// computeX sets x = B⁻¹·b, with two steps of iterative refinement (the basis can be badly
// conditioned: cone points of nearby shapes are nearly parallel).
func (m *master) computeX() {
	n := m.n
	for i := 0; i < n; i++ {
		m.x[i] = dot(m.binv[i*n:(i+1)*n], m.b)
	}
	r := make([]float64, n)
	for step := 0; step < 2; step++ {
		copy(r, m.b)
		for i, j := range m.basis {
			if j < 0 {
				r[-1-j] -= m.x[i]
				continue
			}
			xi := m.x[i]
			for y, v := range m.cols[j] {
				r[y] -= xi * v
			}
		}
		for i := 0; i < n; i++ {
			m.x[i] += dot(m.binv[i*n:(i+1)*n], r)
		}
	}
}

// computeMu sets μ = c_B·B⁻¹ (the row prices), with two steps of iterative refinement on
// μ·B = c_B.
func (m *master) computeMu() {
	n := m.n
	for y := range m.mu {
		m.mu[y] = 0
	}
	m.addTimesInverse(m.mu, m.basicCost)
	r := make([]float64, n)
	for step := 0; step < 2; step++ {
		for i, j := range m.basis {
			if j < 0 {
				r[i] = -m.mu[-1-j]
			} else {
				r[i] = m.cost[j] - dot(m.mu, m.cols[j])
			}
		}
		m.addTimesInverse(m.mu, func(i int) float64 { return r[i] })
	}
}

// addTimesInverse adds v·B⁻¹ to out, v given entrywise.
func (m *master) addTimesInverse(out []float64, v func(int) float64) {
	n := m.n
	for i := 0; i < n; i++ {
		vi := v(i)
		if vi == 0 {
			continue
		}
		row := m.binv[i*n : (i+1)*n]
		for y, b := range row {
			out[y] += vi * b
		}
	}
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i, v := range a {
		s += v * b[i]
	}
	return s
}

// optimize runs primal simplex pivots until no column has reduced cost above tol, or stop()
// says so; it returns false when stopped. Pricing is partial: a full pass over the columns
// keeps the candidates of largest reduced cost, and pivots choose among them (their reduced
// costs recomputed) until none is left; then a new full pass.
func (m *master) optimize(tol float64, stop func() bool) bool {
	const keep = 24
	for {
		if m.since >= reinvertEvery {
			m.reinvert()
		}
		m.cand = m.cand[:0]
		for j, col := range m.cols {
			if m.inB[j] >= 0 {
				continue
			}
			dj := m.cost[j] - dot(m.mu, col)
			if dj <= tol {
				continue
			}
			if len(m.cand) < keep {
				m.cand = append(m.cand, j)
				m.d[j] = dj
				continue
			}
			worst := 0
			for i, c := range m.cand {
				if m.d[c] < m.d[m.cand[worst]] {
					worst = i
				}
			}
			if dj > m.d[m.cand[worst]] {
				m.cand[worst] = j
				m.d[j] = dj
			}
		}
		if len(m.cand) == 0 {
			if m.since > 0 && !m.refreshed {
				// Updated prices and values drift: refresh them from the inverse (refined)
				// and look again.
				m.computeX()
				m.computeMu()
				m.refreshed = true
				continue
			}
			return true
		}
		for {
			q, best := -1, tol
			for _, j := range m.cand {
				if m.inB[j] >= 0 {
					continue
				}
				if dj := m.cost[j] - dot(m.mu, m.cols[j]); dj > best {
					q, best = j, dj
				}
			}
			if q < 0 {
				break
			}
			if m.iters%32 == 0 && stop() {
				return false
			}
			if !m.enter(q) {
				break
			}
			if m.since >= reinvertEvery {
				m.reinvert()
			}
		}
	}
}

// enter pivots column q into the basis (ratio test with Harris' two passes). Artificials are
// fixed at 0: any nonzero entry of u blocks them at ratio 0, and they are preferred on ties so
// that they leave the basis.
func (m *master) enter(q int) bool {
	n := m.n
	col := m.cols[q]
	for i := 0; i < n; i++ {
		m.u[i] = dot(m.binv[i*n:(i+1)*n], col)
	}
	const harris = 1e-12
	theta := math.Inf(1)
	for i := 0; i < n; i++ {
		ui := m.u[i]
		switch {
		case m.basis[i] < 0 && math.Abs(ui) > masterPivTol:
			theta = math.Min(theta, harris/math.Abs(ui))
		case m.basis[i] >= 0 && ui > masterPivTol:
			theta = math.Min(theta, (math.Max(m.x[i], 0)+harris)/ui)
		}
	}
	r, bestU := -1, 0.0
	for i := 0; i < n; i++ {
		ui := m.u[i]
		var ratio, size float64
		switch {
		case m.basis[i] < 0 && math.Abs(ui) > masterPivTol:
			ratio, size = 0, 10*math.Abs(ui)
		case m.basis[i] >= 0 && ui > masterPivTol:
			ratio, size = math.Max(m.x[i], 0)/ui, ui
		default:
			continue
		}
		if ratio <= theta && size > bestU {
			r, bestU = i, size
		}
	}
	if r < 0 {
		// Unbounded cannot happen (every λ_j ≤ 1/max col_j); numerically, refresh.
		m.reinvert()
		return false
	}
	step := 0.0
	if m.basis[r] >= 0 {
		step = math.Max(m.x[r], 0) / m.u[r]
	}
	m.pivot(r, q, step)
	return true
}

// cleanup recomputes the inverse and the basic values and restores primal feasibility (basic
// columns ≥ 0, artificials at 0) by dual simplex pivots, which keep the basis dual feasible.
// It returns false if that takes more than maxPivots pivots.
func (m *master) cleanup(maxPivots int) bool {
	n := m.n
	m.reinvert()
	checked := 0
	m.since = 1 // confirm on a fresh inverse at the end in any case
	for it := 0; ; it++ {
		// The most infeasible basic variable: a column below 0 or an artificial off 0.
		r, worst := -1, 1e-13
		for i := 0; i < n; i++ {
			v := -m.x[i]
			if m.basis[i] < 0 {
				v = math.Abs(m.x[i])
			}
			if v > worst {
				r, worst = i, v
			}
		}
		if r < 0 {
			if m.since > 0 && checked < 3 {
				// Confirm on a fresh inverse: the updates may have drifted.
				checked++
				m.reinvert()
				continue
			}
			for i := range m.x {
				if m.basis[i] < 0 || m.x[i] < 0 {
					m.x[i] = 0
				}
			}
			return true
		}
		if it >= maxPivots {
			return false
		}
		// Entering: a column whose entry α_rj in row r of B⁻¹A moves x_r towards 0 as it
		// increases (α_rj of the sign of x_r), with the smallest |d_j|/|α_rj| (d_j ≤ 0 for all,
		// the basis being optimal), so that the basis stays dual feasible; among ratios within
		// a small tolerance of the smallest, the largest |α_rj| (Harris' two passes).
		rho := m.binv[r*n : (r+1)*n]
		sgn := 1.0
		if m.x[r] < 0 {
			sgn = -1
		}
		// The pivot tolerance is relative to the row: in a badly conditioned basis a whole row
		// of B⁻¹A can be small.
		big := 0.0
		for j, col := range m.cols {
			if m.inB[j] < 0 {
				m.d[j] = sgn * dot(rho, col)
				big = math.Max(big, m.d[j])
			}
		}
		pivTol := math.Max(1e-7*big, 1e-14)
		m.cand = m.cand[:0]
		bound := math.Inf(1)
		for j, col := range m.cols {
			if m.inB[j] >= 0 {
				continue
			}
			arj := m.d[j]
			if arj <= pivTol {
				continue
			}
			m.cand = append(m.cand, j)
			dj := math.Max(dot(m.mu, col)-m.cost[j], 0)
			bound = math.Min(bound, (dj+1e-12)/arj)
		}
		q, bestA := -1, 0.0
		for _, j := range m.cand {
			dj := math.Max(dot(m.mu, m.cols[j])-m.cost[j], 0)
			if dj/m.d[j] <= bound && m.d[j] > bestA {
				q, bestA = j, m.d[j]
			}
		}
		if q < 0 {
			if math.Abs(m.x[r]) <= clipTol {
				// No pivot of a reasonable size fixes a rounding-size infeasibility.
				m.x[r] = 0
				continue
			}
			return false
		}
		col := m.cols[q]
		for i := 0; i < n; i++ {
			m.u[i] = dot(m.binv[i*n:(i+1)*n], col)
		}
		m.pivot(r, q, m.x[r]/m.u[r])
		if m.since >= reinvertEvery {
			m.reinvert()
		}
	}
}

// pivot brings column q into position r with value step.
func (m *master) pivot(r, q int, step float64) {
	n := m.n
	for i := 0; i < n; i++ {
		m.x[i] -= step * m.u[i]
	}
	m.x[r] = step
	if old := m.basis[r]; old >= 0 {
		m.inB[old] = -1
		m.age[old] = 0
	}
	m.basis[r] = q
	m.inB[q] = r
	// Gauss–Jordan update of B⁻¹: row r /= u_r; row i −= u_i·row r.
	rowR := m.binv[r*n : (r+1)*n]
	inv := 1 / m.u[r]
	for y := range rowR {
		rowR[y] *= inv
	}
	for i := 0; i < n; i++ {
		if i == r {
			continue
		}
		ui := m.u[i]
		if ui == 0 {
			continue
		}
		row := m.binv[i*n : (i+1)*n]
		for y, v := range rowR {
			row[y] -= ui * v
		}
	}
	// μ ← μ + d_q·(row r of the new B⁻¹)
	dq := m.cost[q] - dot(m.mu, m.cols[q])
	for y, v := range rowR {
		m.mu[y] += dq * v
	}
	m.since++
	m.iters++
	m.refreshed = false
}

// objective is Σ cost_j·x_j over the basis.
func (m *master) objective() float64 {
	s := 0.0
	for i := range m.basis {
		s += m.basicCost(i) * m.x[i]
	}
	return s
}

// purge removes nonbasic columns that have stayed nonbasic for maxAge rounds, when there are
// more than keep columns. Column 0, the constant column, always stays: with it the master is
// feasible.
func (m *master) purge(maxAge, keep int) {
	if len(m.cols) <= keep {
		return
	}
	w := 0
	for j := range m.cols {
		if m.inB[j] < 0 && m.age[j] >= maxAge && j > 0 {
			continue
		}
		m.cols[w], m.colW[w], m.cost[w], m.inB[w], m.age[w], m.d[w] = m.cols[j], m.colW[j], m.cost[j], m.inB[j], m.age[j], m.d[j]
		if m.inB[w] >= 0 {
			m.basis[m.inB[w]] = w
		}
		w++
	}
	m.cols, m.colW, m.cost, m.inB, m.age, m.d = m.cols[:w], m.colW[:w], m.cost[:w], m.inB[:w], m.age[:w], m.d[:w]
}
