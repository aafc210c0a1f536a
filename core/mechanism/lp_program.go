package mechanism

import (
	"math"

	"github.com/qif-toolkit/qif/core/lp"
)

// dropExponent: a pair with ε·d above it (a factor e^{εd} above 2^60) is left out of the linear
// program. Its constraints still hold in the returned mechanism — the privacy repair enforces
// them (see repairPrivacy) — and enforcing them afterwards moves no entry by more than
// e^{−εd} < 2^−60 times a probability, far below the solver's tolerances; inside the program
// their coefficients would be below the precision of the others.
const dropExponent = 60 * math.Ln2

// lpPair is a constrained pair of answers with its exponent ε·d(a, b) (finite, ≥ 0).
type lpPair struct {
	a, b int
	ed   float64
}

// inProgram reports whether the pair's constraints are rows of the linear program.
func (p lpPair) inProgram() bool { return p.ed <= dropExponent }

// mechProgram is the optimal-mechanism program of OptimalLP in its own units: H[y][z] are
// probabilities, the objective is in utility units, and the privacy rows are written in mass
// form, e^{−εd}·H[x][z] − H[t][z] ≤ 0 (the least probability H[t][z] may have given H[x][z]).
type mechProgram struct {
	n, w  int
	loss  bool      // the objective is a loss (minimized); c holds its negation
	c     []float64 // maximized objective, n×w row-major: π_y·gain[z][y] or −π_y·loss[z][y]
	pairs []lpPair
	adj   [][]privacyArc // both directions of every pair, cost ε·d (0 below mergeExponent)
}

// newMechProgram states the program of spec (validated, n answers).
func newMechProgram(spec *LPSpec, n int) *mechProgram {
	return newMechProgramPairs(spec, n, constrainedPairs(spec, n))
}

// newMechProgramPairs states the program of spec with the given constrained pairs.
func newMechProgramPairs(spec *LPSpec, n int, pairs []lpPair) *mechProgram {
	score := spec.score()
	w := n
	if score != nil {
		w, _ = score.Dims()
	}
	prior := spec.Prior
	if prior == nil {
		prior = uniformPrior(n)
	}
	p := &mechProgram{n: n, w: w, loss: spec.Loss != nil, c: make([]float64, n*w)}
	for y := 0; y < n; y++ {
		for z := 0; z < w; z++ {
			var g float64
			switch {
			case score == nil:
				if y == z {
					g = 1
				}
			case p.loss:
				g = -score.At(z, y)
			default:
				g = score.At(z, y)
			}
			p.c[y*w+z] = prior[y] * g
		}
	}
	p.pairs = pairs
	p.adj = make([][]privacyArc, n)
	for _, q := range p.pairs {
		ed := q.ed
		if ed < mergeExponent {
			ed = 0 // the repair gives such pairs equal rows (see repairPrivacy)
		}
		p.adj[q.a] = append(p.adj[q.a], privacyArc{to: q.b, ed: ed})
		p.adj[q.b] = append(p.adj[q.b], privacyArc{to: q.a, ed: ed})
	}
	return p
}

// constrainedPairs lists the constrained pairs of spec (see OptimalLP) with their exponents ε·d.
func constrainedPairs(spec *LPSpec, n int) []lpPair {
	if spec.Graph != nil {
		var pairs []lpPair
		for _, e := range spec.Graph.Edges() {
			pairs = append(pairs, lpPair{e.A, e.B, spec.Epsilon})
		}
		return pairs
	}
	dist := make([][]float64, n)
	for a := range dist {
		dist[a] = spec.Metric.RawRowView(a)
	}
	var pairs []lpPair
	for a := 0; a < n; a++ {
		ra := dist[a]
	pair:
		for b := a + 1; b < n; b++ {
			dab := ra[b]
			if math.IsInf(dab, 1) {
				continue
			}
			// Strictly smaller parts make the implication an induction on the distance,
			// so no pair is dropped on the strength of another dropped pair of equal length.
			for w := 0; w < n; w++ {
				daw, dwb := ra[w], dist[w][b]
				if daw > 0 && dwb > 0 && daw < dab && dwb < dab && daw+dwb <= dab {
					continue pair
				}
			}
			pairs = append(pairs, lpPair{a, b, spec.Epsilon * dab})
		}
	}
	return pairs
}

// rowCount is the number of rows of the program: n row sums, and per pair in the program one
// equality per output (d = 0) or two inequalities per output.
func (p *mechProgram) rowCount() int {
	rows := p.n
	for _, q := range p.pairs {
		switch {
		case !q.inProgram():
		case q.ed == 0:
			rows += p.w
		default:
			rows += 2 * p.w
		}
	}
	return rows
}

// privRow is a privacy row of the program in mass form: coef·H[x][z] − H[t][z] ≤ 0 with
// coef = e^{−εd(x,t)}, or H[x][z] − H[t][z] = 0 for pairs at distance 0 (coef = 1).
type privRow struct {
	x, t, z int
	coef    float64
	eq      bool
}

// model states the program for the solver: maximize c·H subject to the row sums and, for
// every pair in the program and every output, its privacy rows in mass form. It returns the
// model, the block of H and the privacy rows in order (they follow the n row sums).
//
// The mass form matters. Written as H[x][z] − e^{εd}·H[t][z] ≤ 0, a row holds 1 and e^{εd};
// the dual simplex then works on the dual program, whose rows (one per entry of H) hold 1 and
// e^{εd} too, and equilibrating them divides each by about e^{εd/2} — and with it its
// right-hand side, the objective coefficient π_y·g(z, y) of the entry. At ε = 40 that is 2^−29:
// every objective coefficient falls below the feasibility tolerance, the zero dual looks
// optimal, and the constant mechanism came back as "optimal". In mass form every coefficient
// is at most 1 in magnitude and the large ones are exactly 1, the right-hand sides are 1 and 0
// and the objective is at most max|g|: the program is already equilibrated, so it is solved
// without the solver's scaling (which would blow the coefficients e^{−εd} up instead), and the
// solver's absolute tolerances are tolerances on probabilities and on utility.
func (p *mechProgram) model() (*lp.Model, *lp.Block, []privRow) {
	n, w := p.n, p.w
	m := lp.NewModel(lp.Maximize)
	H := m.AddBlock("H", n, w)
	for y := 0; y < n; y++ {
		for z := 0; z < w; z++ {
			if c := p.c[y*w+z]; c != 0 {
				m.SetObjective(H.At(y, z), c)
			}
		}
	}
	row := make([]lp.Term, w)
	for y := 0; y < n; y++ {
		for z := range row {
			row[z] = lp.Term{Var: H.At(y, z), Coef: 1}
		}
		m.AddEq(row, 1)
	}
	var rows []privRow
	for _, q := range p.pairs {
		if !q.inProgram() {
			continue
		}
		f := math.Exp(-q.ed)
		for z := 0; z < w; z++ {
			if q.ed == 0 {
				m.AddEq([]lp.Term{{Var: H.At(q.a, z), Coef: 1}, {Var: H.At(q.b, z), Coef: -1}}, 0)
				rows = append(rows, privRow{q.a, q.b, z, 1, true})
				continue
			}
			for _, xt := range [2][2]int{{q.a, q.b}, {q.b, q.a}} {
				x, t := xt[0], xt[1]
				m.AddLe([]lp.Term{{Var: H.At(x, z), Coef: f}, {Var: H.At(t, z), Coef: -1}}, 0)
				rows = append(rows, privRow{x, t, z, f, false})
			}
		}
	}
	return m, H, rows
}

// lpCheck is a solution of the program measured in its own units (see LPResult).
type lpCheck struct {
	H         []float64 // the solver's H, n×w, before any repair
	U, V      []float64 // duals of the row sums and of the privacy rows (mass form), maximized form
	Objective float64   // c·H, maximized form
	Primal    float64   // largest violation of a row sum, H ≥ 0 or a privacy row (probability)
	Dual      float64   // largest wrong-signed reduced cost or privacy dual (utility per probability)
	Bound     float64   // Σ_y max(u_y, max_z c − Aᵀ(u, v⁺)): an upper bound on every private H
}

// check measures the solver's solution in the units of the program and computes the bound
// of its dual solution.
func (p *mechProgram) check(rows []privRow, H *lp.Block, res *lp.Result) *lpCheck {
	n, w := p.n, p.w
	k := &lpCheck{H: make([]float64, n*w), U: make([]float64, n), V: make([]float64, len(rows))}
	for y := 0; y < n; y++ {
		for z := 0; z < w; z++ {
			k.H[y*w+z] = res.X[H.At(y, z)]
		}
	}
	copy(k.U, res.Duals[:n])
	copy(k.V, res.Duals[n:])
	k.measure(p, rows)
	return k
}

// measure computes Objective, Primal, Dual and Bound of k from H, U and V.
func (k *lpCheck) measure(p *mechProgram, rows []privRow) {
	n, w := p.n, p.w
	H := k.H
	k.Objective, k.Primal, k.Dual = 0, 0, 0
	for y := 0; y < n; y++ {
		sum := 0.0
		for z := 0; z < w; z++ {
			h := H[y*w+z]
			sum += h
			k.Primal = math.Max(k.Primal, -h)
			k.Objective += p.c[y*w+z] * h
		}
		k.Primal = math.Max(k.Primal, math.Abs(sum-1))
	}
	// Reduced costs c − Aᵀ(u, v⁺) of every H[y][z], with the number and size of their terms
	// to bound their rounding.
	red := make([]float64, n*w)
	size := make([]float64, n*w)
	terms := make([]float64, n*w)
	for y := 0; y < n; y++ {
		for z := 0; z < w; z++ {
			red[y*w+z] = p.c[y*w+z] - k.U[y]
			size[y*w+z] = math.Abs(p.c[y*w+z]) + math.Abs(k.U[y])
			terms[y*w+z] = 2
		}
	}
	for i, r := range rows {
		v := k.V[i]
		if !r.eq {
			k.Dual = math.Max(k.Dual, -v)
			v = math.Max(v, 0)
		}
		hx, ht := H[r.x*w+r.z], H[r.t*w+r.z]
		viol := r.coef*hx - ht
		if r.eq {
			viol = math.Abs(viol)
		}
		k.Primal = math.Max(k.Primal, viol)
		x, t := r.x*w+r.z, r.t*w+r.z
		red[x] -= r.coef * v
		red[t] += v
		size[x] += math.Abs(r.coef * v)
		size[t] += math.Abs(v)
		terms[x]++
		terms[t]++
	}
	// Bound = Σ_y (u_y + max(0, max_z red)), rounded up by twice the worst-case error of the
	// floating-point sums (each sum of k terms of total size S is off by at most k·S·2^−53), so
	// that it stays an upper bound — every private mechanism's utility is below it — in spite
	// of rounding.
	k.Bound = 0
	margin := 0.0
	for y := 0; y < n; y++ {
		worst, err := 0.0, 0.0
		for z := 0; z < w; z++ {
			worst = math.Max(worst, red[y*w+z])
			err = math.Max(err, terms[y*w+z]*size[y*w+z])
		}
		k.Dual = math.Max(k.Dual, worst)
		k.Bound += k.U[y] + worst
		margin += err + float64(2*n)*(math.Abs(k.U[y])+worst)
	}
	k.Bound += 2 * margin * 0x1p-53
}
