package metric

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"
	gonumlp "gonum.org/v1/gonum/optimize/convex/lp"
)

func kant(t *testing.T, P, Q []float64, D mat.Matrix) float64 {
	t.Helper()
	v, err := Kantorovich(P, Q, D)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func mkant(t *testing.T, P, Q []float64, D mat.Matrix) float64 {
	t.Helper()
	v, err := MultiplicativeKantorovich(P, Q, D)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func uniform(n int) []float64 {
	u := make([]float64, n)
	for i := range u {
		u[i] = 1 / float64(n)
	}
	return u
}

func point(n, i int) []float64 {
	p := make([]float64, n)
	p[i] = 1
	return p
}

// Values of libqif's own tests (metric.cpp), for the same definitions.
func TestKantorovichLibqifValues(t *testing.T) {
	line4 := lineMetric([]float64{0, 1, 2, 3})
	line10 := lineMetric([]float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	disc4, _ := Discrete(4, 1)
	near(t, "K_disc(u4, u4)", kant(t, uniform(4), uniform(4), disc4), 0, 0)
	near(t, "K_disc(u4, δ0)", kant(t, uniform(4), point(4, 0), disc4), 0.75, 1e-15)
	near(t, "K_line(u4, δ0)", kant(t, point(4, 0), uniform(4), line4), 1.5, 1e-15)
	near(t, "K_line(u10, δ0)", kant(t, uniform(10), point(10, 0), line10), 4.5, 1e-15)
	near(t, "MK_line(u4, δ0)", mkant(t, uniform(4), point(4, 0), line4), 2.0538953374413045, 1e-12)
	near(t, "MK_line(δ0, u4)", mkant(t, point(4, 0), uniform(4), line4), 2.0538953374413045, 1e-12)
	near(t, "MK_line(u10, δ0)", mkant(t, uniform(10), point(10, 0), line10), 7.156044651432, 1e-12)
	dinf, _ := Discrete(4, math.Inf(1))
	pi := []float64{0.1, 0.7, 0.1, 0.1}
	near(t, "MK_∞disc(u4, π)", mkant(t, uniform(4), pi, dinf), math.Log(0.7/0.25), 1e-12)
	near(t, "MK_∞disc(u4, δ0)", mkant(t, uniform(4), point(4, 0), dinf), math.Inf(1), 0)
	near(t, "MK_∞disc(δ0, δ0)", mkant(t, point(4, 0), point(4, 0), dinf), 0, 1e-12)
	// Point masses are exactly as far apart as their points.
	for i := 0; i < 4; i++ {
		near(t, "K point masses", kant(t, point(4, 0), point(4, i), line4), float64(i), 1e-15)
		near(t, "MK point masses", mkant(t, point(4, 0), point(4, i), line4), float64(i), 1e-12)
		near(t, "MK_∞disc point masses", mkant(t, point(4, 0), point(4, i), dinf), dinf.At(0, i), 1e-12)
	}
}

// On a line the Kantorovich distance is ∫|F_P − F_Q|, the L1 distance of the cumulative
// distribution functions: Σ_k |F_P(t_k) − F_Q(t_k)|·(t_{k+1} − t_k) over the sorted points.
func TestKantorovichOnALineIsL1OfCDFs(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 300; trial++ {
		n := 1 + rng.IntN(40)
		pts := make([]float64, n)
		for i := range pts {
			pts[i] = rng.NormFloat64() * 10
		}
		P, Q := randDist(rng, n, trial%2 == 0), randDist(rng, n, trial%3 == 0)
		order := make([]int, n)
		for i := range order {
			order[i] = i
		}
		sort.Slice(order, func(x, y int) bool { return pts[order[x]] < pts[order[y]] })
		want, fp, fq := 0.0, 0.0, 0.0
		for k := 0; k+1 < n; k++ {
			fp += P[order[k]]
			fq += Q[order[k]]
			want += math.Abs(fp-fq) * (pts[order[k+1]] - pts[order[k]])
		}
		near(t, fmt.Sprintf("K on a line, n = %d", n), kant(t, P, Q, lineMetric(pts)), want, 1e-11)
	}
}

// With the discrete metric the cheapest coupling leaves min(P_i, Q_i) in place: the distance
// is the total variation.
func TestKantorovichDiscreteIsTotalVariation(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := 0; trial < 200; trial++ {
		n := 1 + rng.IntN(30)
		P, Q := randDist(rng, n, trial%2 == 0), randDist(rng, n, false)
		s := 0.1 + 5*rng.Float64()
		D, _ := Discrete(n, s)
		tv := 0.0
		for i := range P {
			tv += math.Abs(P[i]-Q[i]) / 2
		}
		near(t, "K_discrete", kant(t, P, Q, D), s*tv, 1e-13)
	}
}

// Between the uniform distributions on two sets of n points an optimal coupling is a
// permutation matrix divided by n (Birkhoff–von Neumann), so brute force over all n!
// permutations gives the value — +Inf when every permutation uses a forbidden pair.
func TestKantorovichBruteForcePermutations(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for trial := 0; trial < 80; trial++ {
		n := 1 + rng.IntN(6)
		pts := make([][]float64, 2*n) // X = 0..n−1, Y = n..2n−1
		for i := range pts {
			pts[i] = []float64{rng.Float64(), rng.Float64(), rng.Float64()}
		}
		D, _ := Euclidean(pts)
		if trial%2 == 1 {
			for k := 0; k < n; k++ {
				i, j := rng.IntN(n), n+rng.IntN(n)
				D.Set(i, j, math.Inf(1))
				D.Set(j, i, math.Inf(1))
			}
		}
		best := math.Inf(1)
		perm := make([]int, n)
		for i := range perm {
			perm[i] = i
		}
		var rec func(k int)
		rec = func(k int) {
			if k == n {
				s := 0.0
				for i, j := range perm {
					s += D.At(i, n+j) / float64(n)
				}
				best = math.Min(best, s)
				return
			}
			for i := k; i < n; i++ {
				perm[k], perm[i] = perm[i], perm[k]
				rec(k + 1)
				perm[k], perm[i] = perm[i], perm[k]
			}
		}
		rec(0)
		P, Q := make([]float64, 2*n), make([]float64, 2*n)
		for i := 0; i < n; i++ {
			P[i], Q[n+i] = 1/float64(n), 1/float64(n)
		}
		near(t, fmt.Sprintf("trial %d: K between uniform sets, n = %d", trial, n), kant(t, P, Q, D), best, 1e-12)
	}
}

// A coupling exists only if the forbidden pairs leave a way: +Inf otherwise, decided exactly
// even for masses of 1e-300.
func TestKantorovichNoCoupling(t *testing.T) {
	dinf, _ := Discrete(3, math.Inf(1))
	P := []float64{0.5, 0.5, 0}
	near(t, "K_∞disc(P, P)", kant(t, P, P, dinf), 0, 0)
	near(t, "K_∞disc(P, Q)", kant(t, P, []float64{0.4, 0.6, 0}, dinf), math.Inf(1), 0)
	near(t, "K_∞disc tiny", kant(t, []float64{1, 1e-300, 0}, []float64{1, 0, 0}, dinf), math.Inf(1), 0)
	// Pairs 0–1 and 1–2 allowed, 0–2 forbidden: mass from 0 can reach 2 only via 1, which a
	// coupling cannot do (one hop per unit), so δ0 → δ2 has no coupling while δ0 → δ1 costs 1.
	D := mat.NewDense(3, 3, []float64{0, 1, math.Inf(1), 1, 0, 1, math.Inf(1), 1, 0})
	near(t, "K path δ0 δ2", kant(t, point(3, 0), point(3, 2), D), math.Inf(1), 0)
	near(t, "K path δ0 δ1", kant(t, point(3, 0), point(3, 1), D), 1, 0)
	// Hall's condition fails for the set {0, 2} (both only reach 1 … and themselves).
	near(t, "K Hall", kant(t, []float64{0.5, 0, 0.5}, []float64{0.2, 0.6, 0.2}, D), 0.6, 1e-15)
	near(t, "K Hall fails", kant(t, []float64{0.3, 0.4, 0.3}, []float64{0.0, 0.0, 1}, D), math.Inf(1), 0)
	// The multiplicative program lets mass pass through a point (the slack r_1 re-sends what 1
	// receives), so δ0 reaches δ2 through 1 at e^1·e^1: ln z* = 2.
	near(t, "MK path δ0 δ2", mkant(t, point(3, 0), point(3, 2), D), 2, 1e-12)
	D.Set(1, 2, math.Inf(1))
	D.Set(2, 1, math.Inf(1))
	near(t, "MK cut δ0 δ2", mkant(t, point(3, 0), point(3, 2), D), math.Inf(1), 0)
}

// The network simplex agrees with the linear program of core/lp and with gonum's dense simplex,
// and its dual prices certify the value: u_i + v_j ≤ D_ij on every allowed pair and
// Σ P_i u_i + Σ Q_j v_j = the cost (LP duality), so the value is optimal.
func TestKantorovichAgainstLPAndDuals(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	feasible, infeasible, gonumChecked := 0, 0, 0
	for trial := 0; trial < 300; trial++ {
		n := 1 + rng.IntN(25)
		pts := make([][]float64, n)
		for i := range pts {
			pts[i] = []float64{rng.Float64() * 10, rng.Float64()}
		}
		D, _ := Manhattan(pts)
		if trial%4 == 1 {
			D, _ = Euclidean(pts)
		}
		if trial%5 == 2 {
			D, _ = Threshold(D, 3)
		}
		if trial%3 == 0 {
			for k := 0; k < n*n; k++ {
				i, j := rng.IntN(n), rng.IntN(n)
				if i != j {
					D.Set(i, j, math.Inf(1))
					D.Set(j, i, math.Inf(1))
				}
			}
		}
		P, Q := randDist(rng, n, trial%2 == 0), randDist(rng, n, trial%7 == 0)
		a, b, d, _, err := kantorovichInput(P, Q, D)
		if err != nil {
			t.Fatal(err)
		}
		plan, err := transport(a, b, d, n)
		if err != nil {
			t.Fatal(err)
		}
		want, err := kantorovichLP(a, b, d, n)
		if err != nil {
			t.Fatal(err)
		}
		if !plan.feasible {
			if !math.IsInf(want, 1) {
				t.Fatalf("trial %d: transport says no coupling, the LP says %v", trial, want)
			}
			infeasible++
			continue
		}
		feasible++
		near(t, fmt.Sprintf("trial %d: transport vs core/lp", trial), plan.cost, want, 1e-9)
		if n <= 12 {
			if g, ok := gonumTransport(a, b, d, n); ok {
				gonumChecked++
				near(t, fmt.Sprintf("trial %d: transport vs gonum", trial), plan.cost, g, 1e-9)
			}
		}
		// The coupling itself: marginals and cost.
		rows, cols, cost := make([]float64, n), make([]float64, n), 0.0
		for _, f := range plan.flows {
			if f.x < 0 || math.IsInf(d[f.i*n+f.j], 1) {
				t.Fatalf("trial %d: flow %v on a forbidden pair or negative", trial, f)
			}
			rows[f.i] += f.x
			cols[f.j] += f.x
			cost += f.x * d[f.i*n+f.j]
		}
		for i := 0; i < n; i++ {
			near(t, "row marginal", rows[i], a[i], 1e-12)
			near(t, "column marginal", cols[i], b[i], 1e-12)
		}
		near(t, "coupling cost", cost, plan.cost, 1e-12)
		// Dual certificate.
		dual, scale := 0.0, 0.0
		for i := 0; i < n; i++ {
			dual += a[i]*plan.u[i] + b[i]*plan.v[i]
			scale = math.Max(scale, math.Max(math.Abs(plan.u[i]), math.Abs(plan.v[i])))
		}
		near(t, fmt.Sprintf("trial %d: dual objective", trial), dual, plan.cost, 1e-9*math.Max(1, scale))
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				if a[i] > 0 && b[j] > 0 && !math.IsInf(d[i*n+j], 1) && plan.u[i]+plan.v[j] > d[i*n+j]+1e-9*math.Max(1, scale) {
					t.Fatalf("trial %d: dual infeasible at (%d,%d): %v + %v > %v", trial, i, j, plan.u[i], plan.v[j], d[i*n+j])
				}
			}
		}
	}
	t.Logf("%d with a coupling, %d without, %d checked by gonum", feasible, infeasible, gonumChecked)
	if feasible < 150 || infeasible < 20 || gonumChecked < 50 {
		t.Errorf("too few cases: %d with a coupling, %d without, %d checked by gonum", feasible, infeasible, gonumChecked)
	}
}

// gonumTransport solves the transportation problem with gonum's dense simplex in standard form
// (equalities, x ≥ 0); ok is false when gonum fails (it needs full row rank: one marginal
// equation is dropped, as the masses agree).
func gonumTransport(a, b, d []float64, n int) (float64, bool) {
	var vars [][2]int
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if a[i] > 0 && b[j] > 0 && !math.IsInf(d[i*n+j], 1) {
				vars = append(vars, [2]int{i, j})
			}
		}
	}
	var rowsOf, colsOf []int
	for i := 0; i < n; i++ {
		if a[i] > 0 {
			rowsOf = append(rowsOf, i)
		}
		if b[i] > 0 {
			colsOf = append(colsOf, i)
		}
	}
	m := len(rowsOf) + len(colsOf) - 1
	if m < 1 || len(vars) < m {
		return 0, false
	}
	A := mat.NewDense(m, len(vars), nil)
	rhs := make([]float64, m)
	c := make([]float64, len(vars))
	for k, v := range vars {
		c[k] = d[v[0]*n+v[1]]
		for r, i := range rowsOf {
			if v[0] == i {
				A.Set(r, k, 1)
			}
		}
		for r, j := range colsOf[1:] {
			if v[1] == j {
				A.Set(len(rowsOf)+r, k, 1)
			}
		}
	}
	for r, i := range rowsOf {
		rhs[r] = a[i]
	}
	for r, j := range colsOf[1:] {
		rhs[len(rowsOf)+r] = b[j]
	}
	var f float64
	var err error
	func() {
		defer func() {
			if recover() != nil {
				err = errors.New("gonum panicked")
			}
		}()
		f, _, err = gonumlp.Simplex(c, A, rhs, 1e-10, nil)
	}()
	return f, err == nil
}

// The multiplicative Kantorovich program solved by gonum's dense simplex, in standard form with
// a slack per column inequality, as an independent solver.
func gonumMultKantorovichSide(a, b, d []float64, n int) (float64, bool) {
	var vars [][2]int
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if !math.IsInf(d[i*n+j], 1) {
				vars = append(vars, [2]int{i, j})
			}
		}
	}
	nv := len(vars) + n + 1 + n // x, r, z, slacks
	A := mat.NewDense(2*n, nv, nil)
	rhs := make([]float64, 2*n)
	c := make([]float64, nv)
	zi := len(vars) + n
	c[zi] = 1
	for k, v := range vars {
		A.Set(v[0], k, 1)
		A.Set(n+v[1], k, math.Exp(d[v[0]*n+v[1]]))
	}
	for i := 0; i < n; i++ {
		A.Set(i, len(vars)+i, -1)
		A.Set(n+i, len(vars)+i, -1)
		A.Set(n+i, zi, -b[i])
		A.Set(n+i, zi+1+i, 1)
		rhs[i] = a[i]
	}
	var f float64
	var err error
	func() {
		defer func() {
			if recover() != nil {
				err = errors.New("gonum panicked")
			}
		}()
		f, _, err = gonumlp.Simplex(c, A, rhs, 1e-10, nil)
	}()
	if errors.Is(err, gonumlp.ErrInfeasible) {
		return math.Inf(1), true
	}
	if err != nil {
		return 0, false
	}
	return math.Log(f), true
}

func TestMultiplicativeKantorovichAgainstGonumAndProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	checked := 0
	for trial := 0; trial < 150; trial++ {
		n := 1 + rng.IntN(7)
		t1 := make([]float64, n)
		for i := range t1 {
			t1[i] = rng.Float64() * 3
		}
		D := lineMetric(t1)
		if trial%3 == 0 && n > 2 {
			D.Set(0, n-1, math.Inf(1))
			D.Set(n-1, 0, math.Inf(1))
		}
		P, Q := randDist(rng, n, trial%2 == 0), randDist(rng, n, trial%4 == 0)
		got := mkant(t, P, Q, D)
		a, b, d, _, _ := kantorovichInput(P, Q, D)
		g1, ok1 := gonumMultKantorovichSide(a, b, d, n)
		g2, ok2 := gonumMultKantorovichSide(b, a, d, n)
		if ok1 && ok2 {
			checked++
			near(t, fmt.Sprintf("trial %d: MK vs gonum", trial), got, math.Max(g1, g2), 1e-8)
		}
		// Symmetric and 0 on equal distributions.
		near(t, "MK symmetric", mkant(t, Q, P, D), got, 1e-9)
		near(t, "MK(P, P)", mkant(t, P, P, D), 0, 1e-9)
		// ∞·discrete gives the multiplicative total variation.
		dinf, _ := Discrete(n, math.Inf(1))
		mtv, _ := MultiplicativeTotalVariation(P, Q)
		near(t, "MK_∞disc = mtv", mkant(t, P, Q, dinf), mtv, 1e-9)
	}
	if checked < 100 {
		t.Errorf("gonum solved only %d of 150 programs", checked)
	}
}

func TestKantorovichErrors(t *testing.T) {
	D := lineMetric([]float64{0, 1, 2})
	for name, f := range map[string]func(P, Q []float64, D mat.Matrix) (float64, error){
		"Kantorovich": Kantorovich, "MultiplicativeKantorovich": MultiplicativeKantorovich} {
		_, err := f([]float64{0.5, 0.5}, []float64{0.2, 0.3, 0.5}, D)
		wantErr(t, err, "Q")
		_, err = f([]float64{0.5, 0.5}, []float64{0.5, 0.5}, D)
		wantErr(t, err, "D")
		_, err = f([]float64{0.5, 0.5, 0}, []float64{0.5, 0.5, 0}, nil)
		wantErr(t, err, "D")
		asym := lineMetric([]float64{0, 1, 2})
		asym.Set(2, 0, 7)
		_, err = f([]float64{0.5, 0.5, 0}, []float64{0.5, 0.5, 0}, asym)
		wantErr(t, err, "D")
		neg := lineMetric([]float64{0, 1, 2})
		neg.Set(1, 1, -1)
		_, err = f([]float64{0.5, 0.5, 0}, []float64{0.5, 0.5, 0}, neg)
		wantErr(t, err, "D")
		_, err = f([]float64{0.5, math.NaN(), 0}, []float64{0.5, 0.5, 0}, D)
		wantErr(t, err, "P")
		_, err = f(nil, nil, D)
		wantErr(t, err, "P")
		_ = name
	}
}

// BenchmarkKantorovich compares the network simplex with the linear program of core/lp on the
// same random problems (n points in the unit square, Euclidean ground metric, random masses),
// both timed in the same iteration, and reports their times and ratio:
// go test -bench Kantorovich -run '^$' ./core/metric.
func BenchmarkKantorovich(b *testing.B) {
	for _, n := range []int{50, 200} {
		rng := rand.New(rand.NewPCG(uint64(n), 1))
		pts := make([][]float64, n)
		for i := range pts {
			pts[i] = []float64{rng.Float64(), rng.Float64()}
		}
		D, _ := Euclidean(pts)
		P, Q := randDist(rng, n, false), randDist(rng, n, false)
		a, bb, d, _, _ := kantorovichInput(P, Q, D)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			var tTransport, tLP time.Duration
			pivots := 0
			for i := 0; i < b.N; i++ {
				start := time.Now()
				plan, err := transport(a, bb, d, n)
				if err != nil {
					b.Fatal(err)
				}
				tTransport += time.Since(start)
				start = time.Now()
				v, err := kantorovichLP(a, bb, d, n)
				if err != nil {
					b.Fatal(err)
				}
				tLP += time.Since(start)
				if math.Abs(v-plan.cost) > 1e-9 {
					b.Fatalf("transport %v, LP %v", plan.cost, v)
				}
				pivots = plan.pivots
			}
			b.ReportMetric(float64(tTransport.Microseconds())/float64(b.N)/1000, "transport-ms")
			b.ReportMetric(float64(tLP.Microseconds())/float64(b.N)/1000, "lp-ms")
			b.ReportMetric(float64(tLP)/float64(tTransport), "lp/transport")
			b.ReportMetric(float64(pivots), "pivots")
		})
	}
}

// Extremes: distances near the float maximum, masses of 1e-300, one point, all distances 0.
func TestKantorovichExtremes(t *testing.T) {
	huge := lineMetric([]float64{0, 1e300, 1.5e300})
	near(t, "K huge", kant(t, []float64{0.5, 0.5, 0}, []float64{0, 0, 1}, huge), 0.5*1.5e300+0.5*0.5e300, 1e-14)
	line := lineMetric([]float64{0, 1, 2})
	near(t, "K tiny mass", kant(t, []float64{1, 0, 1e-300}, []float64{1, 0, 0}, line), 2e-300, 1e-14)
	near(t, "K one point", kant(t, []float64{1}, []float64{1}, mat.NewDense(1, 1, nil)), 0, 0)
	zero, _ := Discrete(5, 0)
	near(t, "K zero metric", kant(t, uniform(5), point(5, 3), zero), 0, 0)
	// Rows accepted within the tolerance of 1 are renormalized: 0.9999995 is 1.
	near(t, "K renormalized", kant(t, []float64{0.9999995, 0, 0}, []float64{0, 0, 1}, line), 2, 1e-15)
	near(t, "MK tiny mass", mkant(t, []float64{1, 0, 1e-300}, []float64{1, 0, 1e-300}, line), 0, 1e-12)
	far := lineMetric([]float64{0, 500})
	near(t, "MK far", mkant(t, []float64{1, 0}, []float64{0, 1}, far), 500, 1e-12)
	near(t, "K far", kant(t, []float64{1, 0}, []float64{0, 1}, far), 500, 0)
}

// Large distances: every returned value lies between two bounds computed here without any
// linear program — the one-sided z* ≥ a_i / Σ_j b_j e^{−D*_ij} for each i (the mass of i must fit
// somewhere), and z* ≤ max_i a_i/b_i (leave the mass in place) — and the rare problems that cannot
// be certified end in an error, not in a value.
func TestMultiplicativeKantorovichLargeDistances(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	refused, total := 0, 0
	for _, scale := range []float64{1, 20, 100, 400} {
		for trial := 0; trial < 60; trial++ {
			n := 2 + rng.IntN(10)
			pts := make([][]float64, n)
			for i := range pts {
				pts[i] = []float64{rng.Float64() * scale, rng.Float64() * scale}
			}
			D, _ := Euclidean(pts)
			P, Q := randDist(rng, n, trial%2 == 0), randDist(rng, n, trial%3 == 0)
			total++
			got, err := MultiplicativeKantorovich(P, Q, D)
			if err != nil {
				refused++
				continue
			}
			mtv, _ := MultiplicativeTotalVariation(P, Q)
			lower := 0.0
			for _, side := range [][2][]float64{{P, Q}, {Q, P}} {
				a, b := side[0], side[1]
				for i := range a {
					if a[i] == 0 {
						continue
					}
					s := 0.0
					for j := range b {
						// On the plane the Euclidean distance is its own closure.
						if dij := D.At(i, j); dij <= MaxFiniteExpDistance {
							s += b[j] * math.Exp(-dij)
						}
					}
					lower = math.Max(lower, math.Log(a[i])-math.Log(s))
				}
			}
			if got > mtv+1e-9 || got < lower-1e-9 {
				t.Errorf("scale %v, n = %d: MK = %v outside [%v, %v]", scale, n, got, lower, mtv)
			}
		}
	}
	if refused > total/50 {
		t.Errorf("%d of %d problems refused", refused, total)
	}
	// Point masses far apart: exactly their distance, up to the float range.
	for _, d := range []float64{50, 300, 700} {
		D := lineMetric([]float64{0, d / 2, d})
		near(t, fmt.Sprintf("MK point masses at %v", d), mkant(t, point(3, 0), point(3, 2), D), d, 1e-12)
	}
	D := lineMetric([]float64{0, 800})
	near(t, "MK beyond the float range", mkant(t, point(2, 0), point(2, 1), D), math.Inf(1), 0)
	_, err := Kantorovich(uniform(MaxKantorovichPoints+1), uniform(MaxKantorovichPoints+1), nil)
	wantErr(t, err, "P")
	_, err = MultiplicativeKantorovich(uniform(MaxMultiplicativeKantorovichPoints+1), uniform(MaxMultiplicativeKantorovichPoints+1), mat.NewDense(MaxMultiplicativeKantorovichPoints+1, MaxMultiplicativeKantorovichPoints+1, nil))
	wantErr(t, err, "P")
}
