package refine

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/qif-toolkit/qif/core/lp"
	"github.com/qif-toolkit/qif/core/measure"
	"gonum.org/v1/gonum/mat"
)

// bruteMetric is the induced metric computed from its definition, independently of
// privacy.InducedMetric.
func bruteMetric(c mat.Matrix) [][]float64 {
	n, m := c.Dims()
	d := make([][]float64, n)
	for x := range d {
		d[x] = make([]float64, n)
		for x2 := range d[x] {
			for y := 0; y < m; y++ {
				a, b := c.At(x, y), c.At(x2, y)
				switch {
				case a == 0 && b == 0:
				case a == 0 || b == 0:
					d[x][x2] = math.Inf(1)
				default:
					d[x][x2] = math.Max(d[x][x2], math.Abs(math.Log(a)-math.Log(b)))
				}
			}
		}
	}
	return d
}

// maxFeasibleLP decides A ⊑max B with a plain feasibility LP (B̂ = R·Â, R row-stochastic, up to
// 1e-9 per entry), independently of the min-norm-point algorithm.
func maxFeasibleLP(t *testing.T, A, B mat.Matrix) bool {
	t.Helper()
	pa, _, err := Posteriors(A)
	if err != nil {
		t.Fatal(err)
	}
	pb, _, err := Posteriors(B)
	if err != nil {
		t.Fatal(err)
	}
	k1, n := pa.Dims()
	k2, _ := pb.Dims()
	m := lp.NewModel(lp.Minimize)
	R := m.AddBlock("R", k2, k1)
	for i := 0; i < k2; i++ {
		row := make([]lp.Term, k1)
		for j := range row {
			row[j] = lp.Term{Var: R.At(i, j), Coef: 1}
		}
		m.AddEq(row, 1)
		for x := 0; x < n; x++ {
			terms := make([]lp.Term, k1)
			for j := range terms {
				terms[j] = lp.Term{Var: R.At(i, j), Coef: pa.At(j, x)}
			}
			m.AddLe(terms, pb.At(i, x)+1e-9)
			m.AddGe(terms, pb.At(i, x)-1e-9)
		}
	}
	res, err := m.Solve(nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != lp.Optimal && res.Status != lp.Infeasible {
		t.Fatalf("feasibility LP: %v", res.Status)
	}
	return res.Status == lp.Optimal
}

// checkAvg verifies an Avg verdict by recomputation: the witness reproduces B, the
// counterexample's vulnerabilities are what core/measure computes and B wins.
func checkAvg(t *testing.T, A, B *mat.Dense, r *AvgResult) {
	t.Helper()
	if r.Holds {
		if !isStochastic(r.Witness, 1e-9) {
			t.Fatalf("witness is not a channel: %v", mat.Formatted(r.Witness))
		}
		if d := maxAbsDiff(t, mul(A, r.Witness), B); d > 1e-8 {
			t.Fatalf("A·R differs from B by %g", d)
		}
		return
	}
	ce := r.Counterexample
	if ce == nil {
		t.Fatal("no counterexample")
	}
	va, err := measure.PosteriorGVulnerability(ce.Gain, ce.Prior, A)
	if err != nil {
		t.Fatal(err)
	}
	vb, err := measure.PosteriorGVulnerability(ce.Gain, ce.Prior, B)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(va-ce.VulnerabilityA) > 1e-9 || math.Abs(vb-ce.VulnerabilityB) > 1e-9 {
		t.Fatalf("reported vulnerabilities %g, %g; recomputed %g, %g", ce.VulnerabilityA, ce.VulnerabilityB, va, vb)
	}
	if !(vb > va+VerifyTolerance) {
		t.Fatalf("counterexample does not prefer B: V_A = %g, V_B = %g", va, vb)
	}
	if !(r.ResidualLowerBound <= r.Residual+1e-12) {
		t.Fatalf("residual bounds out of order: %g > %g", r.ResidualLowerBound, r.Residual)
	}
}

// checkMax verifies a Max verdict by recomputation.
func checkMax(t *testing.T, A, B *mat.Dense, r *MaxResult) {
	t.Helper()
	pa, _, _ := Posteriors(A)
	pb, _, _ := Posteriors(B)
	if r.Holds {
		if !isStochastic(r.Witness, 1e-9) {
			t.Fatalf("max witness is not a channel")
		}
		if d := maxAbsDiff(t, mul(r.Witness, pa), pb); d > 1e-8 {
			t.Fatalf("R·Â differs from B̂ by %g", d)
		}
		return
	}
	ce := r.Counterexample
	d, err := HullDistance(A, ce.Posterior)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(d-ce.Distance) > 1e-9 || !(ce.DistanceLowerBound > MaxTolerance) || ce.DistanceLowerBound > ce.Distance+1e-12 {
		t.Fatalf("distance %g (lower %g), recomputed %g", ce.Distance, ce.DistanceLowerBound, d)
	}
	// The nearest point is in the hull (its own distance is 0) and at the reported distance.
	if dn, _ := HullDistance(A, ce.Nearest); dn > 1e-9 {
		t.Fatalf("nearest point is %g away from the hull", dn)
	}
	e := 0.0
	for i, v := range ce.Posterior {
		e += (v - ce.Nearest[i]) * (v - ce.Nearest[i])
	}
	if math.Abs(math.Sqrt(e)-ce.Distance) > 1e-12 {
		t.Fatalf("nearest point at distance %g, reported %g", math.Sqrt(e), ce.Distance)
	}
	// V(σ) = distance to the hull of A: V^max is 0 on A and positive on B.
	n, _ := A.Dims()
	V := func(s []float64) float64 { v, _ := HullDistance(A, s); return v }
	vA, err := measure.MaxCasePosteriorVulnerability(uniform(n), A, V)
	if err != nil {
		t.Fatal(err)
	}
	vB, err := measure.MaxCasePosteriorVulnerability(uniform(n), B, V)
	if err != nil {
		t.Fatal(err)
	}
	if vA > 1e-9 || !(vB > MaxTolerance) {
		t.Fatalf("V^max on A = %g, on B = %g", vA, vB)
	}
	_ = pb
}

// checkPrv verifies a Prv verdict with the brute-force metric.
func checkPrv(t *testing.T, A, B *mat.Dense, r *PrvResult) {
	t.Helper()
	da, db := bruteMetric(A), bruteMetric(B)
	holds := true
	for x := range da {
		for x2 := range da {
			if db[x][x2] > da[x][x2]+1e-9*math.Max(1, da[x][x2]) {
				holds = false
			}
		}
	}
	if holds != r.Holds {
		t.Fatalf("prv verdict %v, brute force %v", r.Holds, holds)
	}
	if !r.Holds {
		c := r.Counterexample
		if !closeDist(c.DA, da[c.X][c.X2]) || !(c.DB > c.DA) || !closeDist(c.DB, db[c.X][c.X2]) {
			t.Fatalf("counterexample %+v, brute force dA=%g dB=%g", c, da[c.X][c.X2], db[c.X][c.X2])
		}
	}
}

// randomPair draws a pair (A, B) on the same secrets: B = A·R for a random R (often with
// zeros), or an independent random channel, sometimes with all-zero or proportional columns.
func randomPair(rng *rand.Rand) (A, B *mat.Dense, post bool) {
	n := 2 + rng.IntN(4)
	m1 := 1 + rng.IntN(6)
	m2 := 1 + rng.IntN(6)
	zero := []float64{0, 0, 0.3}[rng.IntN(3)]
	A = randomChannel(rng, n, m1, zero)
	if rng.IntN(4) == 0 {
		A = withExtraColumns(rng, A)
	}
	switch rng.IntN(3) {
	case 0:
		B = randomChannel(rng, n, m2, zero)
	case 1:
		B = mul(A, randomChannel(rng, A.RawMatrix().Cols, m2, zero))
		post = true
	default:
		// A permutation-free deterministic merge of A's outputs: always a post-processing.
		R := mat.NewDense(A.RawMatrix().Cols, m2, nil)
		for y := 0; y < A.RawMatrix().Cols; y++ {
			R.Set(y, rng.IntN(m2), 1)
		}
		B = mul(A, R)
		post = true
	}
	if rng.IntN(4) == 0 {
		B = withExtraColumns(rng, B)
	}
	return A, B, post
}

// withExtraColumns appends an all-zero column and splits one column into two proportional
// halves: neither changes any refinement verdict.
func withExtraColumns(rng *rand.Rand, C *mat.Dense) *mat.Dense {
	n, m := C.Dims()
	out := mat.NewDense(n, m+2, nil)
	split := rng.IntN(m)
	f := 0.25 + rng.Float64()/2
	for x := 0; x < n; x++ {
		for y := 0; y < m; y++ {
			out.Set(x, y, C.At(x, y))
		}
		out.Set(x, split, f*C.At(x, split))
		out.Set(x, m+1, (1-f)*C.At(x, split))
	}
	return out
}

func TestImplicationChainRandomPairs(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	var nAvg, nMax, nPrv, nPost int
	for trial := 0; trial < 400; trial++ {
		A, B, post := randomPair(rng)
		ra, err := Avg(A, B)
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		rm, err := Max(A, B)
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		rp, err := Prv(A, B)
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		checkAvg(t, A, B, ra)
		checkMax(t, A, B, rm)
		checkPrv(t, A, B, rp)
		if post && !ra.Holds {
			t.Fatalf("trial %d: B = A·R not detected (residual %g)\nA=%v\nB=%v", trial, ra.Residual, mat.Formatted(A), mat.Formatted(B))
		}
		if ra.Holds && !rm.Holds || rm.Holds && !rp.Holds {
			t.Fatalf("trial %d: chain broken: avg %v, max %v, prv %v\nA=%v\nB=%v", trial, ra.Holds, rm.Holds, rp.Holds, mat.Formatted(A), mat.Formatted(B))
		}
		if lpHolds := maxFeasibleLP(t, A, B); lpHolds != rm.Holds {
			t.Fatalf("trial %d: max verdict %v but the feasibility LP says %v (max distance %v)", trial, rm.Holds, lpHolds, rm.Distances)
		}
		if post {
			nPost++
		}
		if ra.Holds {
			nAvg++
		}
		if rm.Holds {
			nMax++
		}
		if rp.Holds {
			nPrv++
		}
	}
	t.Logf("400 pairs: %d post-processings; ⊑avg %d, ⊑max %d, ⊑prv %d", nPost, nAvg, nMax, nPrv)
	if nPrv == nMax || nMax == nAvg || nAvg == 400 {
		t.Logf("note: no strict gap between the orders in this sample")
	}
}

func TestPostProcessingAlwaysDetected(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for trial := 0; trial < 200; trial++ {
		n := 1 + rng.IntN(8)
		m1 := 1 + rng.IntN(10) // wide A (m1 > n) exercises the linear program
		m2 := 1 + rng.IntN(8)
		A := randomChannel(rng, n, m1, []float64{0, 0.4}[trial%2])
		R := randomChannel(rng, m1, m2, []float64{0, 0.5}[trial%2])
		B := mul(A, R)
		r, err := Avg(A, B)
		if err != nil {
			t.Fatal(err)
		}
		if !r.Holds {
			t.Fatalf("trial %d: B = A·R not detected: residual %g (%s)", trial, r.Residual, r.Method)
		}
		checkAvg(t, A, B, r)
	}
}

func TestBothAvgMethodsAgree(t *testing.T) {
	// The least-squares path and the linear program must give the same verdicts.
	rng := rand.New(rand.NewPCG(13, 17))
	for trial := 0; trial < 150; trial++ {
		A, B, _ := randomPair(rng)
		p, err := newPair(A, B)
		if err != nil {
			t.Fatal(err)
		}
		lpRes, err := avgLP(p, AvgTolerance, nil)
		if err != nil {
			t.Fatal(err)
		}
		checkAvg(t, A, B, lpRes)
		if dr, ok, err := avgDirect(p, AvgTolerance); err != nil {
			t.Fatal(err)
		} else if ok {
			checkAvg(t, A, B, dr)
			if dr.Holds != lpRes.Holds {
				t.Fatalf("trial %d: least squares %v, LP %v", trial, dr.Holds, lpRes.Holds)
			}
		}
		// The LP residual is the advantage of the dual adversary (strong duality).
		if !lpRes.Holds {
			ce := lpRes.Counterexample
			if gap := ce.VulnerabilityB - ce.VulnerabilityA; math.Abs(gap-lpRes.Residual) > 1e-7 {
				t.Fatalf("trial %d: advantage %g but residual %g", trial, gap, lpRes.Residual)
			}
		}
	}
}

func TestNearBoundary(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 23))
	for trial := 0; trial < 50; trial++ {
		n, m := 3+rng.IntN(6), 3+rng.IntN(6)
		A := positiveChannel(rng, n, n)
		R := positiveChannel(rng, n, m)
		B := mul(A, R)
		noisy := mat.DenseCopyOf(B)
		for x := 0; x < n; x++ {
			for z := 0; z < m; z++ {
				noisy.Set(x, z, noisy.At(x, z)+1e-12*(2*rng.Float64()-1))
			}
		}
		for name, f := range map[string]func(A, B mat.Matrix) (bool, error){
			"avg": func(A, B mat.Matrix) (bool, error) { return Refines(OrderAvg, A, B, nil) },
			"max": func(A, B mat.Matrix) (bool, error) { return Refines(OrderMax, A, B, nil) },
			"prv": func(A, B mat.Matrix) (bool, error) { return Refines(OrderPrv, A, B, nil) },
		} {
			ok, err := f(A, noisy)
			if err != nil || !ok {
				t.Fatalf("trial %d: %s: A·R + 1e-12 noise: holds=%v err=%v", trial, name, ok, err)
			}
		}
		// A clear violation: move 1e-4 of R's mass into a negative entry. A is invertible, so
		// the only R with A·R = B' has that negative entry.
		R2 := mat.DenseCopyOf(R)
		R2.Set(0, 0, -1e-4)
		R2.Set(0, 1, R.At(0, 1)+R.At(0, 0)+1e-4)
		B2 := mul(A, R2)
		if !isStochastic(B2, 1e-12) {
			continue
		}
		r, err := Avg(A, B2)
		if err != nil {
			t.Fatal(err)
		}
		if r.Holds {
			t.Fatalf("trial %d: violation of 1e-4 accepted (residual %g)", trial, r.Residual)
		}
		checkAvg(t, A, B2, r)
	}
}

func positiveChannel(rng *rand.Rand, n, m int) *mat.Dense {
	c := mat.NewDense(n, m, nil)
	for x := 0; x < n; x++ {
		s := 0.0
		for y := 0; y < m; y++ {
			v := 0.2 + rng.Float64()
			c.Set(x, y, v)
			s += v
		}
		for y := 0; y < m; y++ {
			c.Set(x, y, c.At(x, y)/s)
		}
	}
	return c
}

func TestStrictnessExamples(t *testing.T) {
	// Rows swapped (n = 2): the induced metric is unchanged, so ⊑prv holds both ways, but the
	// posteriors are mirrored: [1/4, 2/3] against [1/3, 3/4], so ⊑max fails both ways.
	A := mat.NewDense(2, 2, []float64{0.8, 0.2, 0.4, 0.6})
	B := mat.NewDense(2, 2, []float64{0.4, 0.6, 0.8, 0.2})
	for _, pr := range [][2]*mat.Dense{{A, B}, {B, A}} {
		rp, _ := Prv(pr[0], pr[1])
		rm, _ := Max(pr[0], pr[1])
		ra, _ := Avg(pr[0], pr[1])
		if !rp.Holds || rm.Holds || ra.Holds {
			t.Fatalf("swapped rows: prv %v (want true), max %v, avg %v (want false)", rp.Holds, rm.Holds, ra.Holds)
		}
		checkMax(t, pr[0], pr[1], rm)
		checkAvg(t, pr[0], pr[1], ra)
		// The posterior of secret 0 outside the other hull: 3/4 vs [1/4, 2/3] is 1/12 away
		// along the segment, i.e. √2/12 in the Euclidean norm of the simplex.
		if d := rm.Counterexample.Distance; math.Abs(d-math.Sqrt2/12) > 1e-12 {
			t.Fatalf("distance %g, want √2/12 = %g", d, math.Sqrt2/12)
		}
	}
	// Same posteriors {e0, e1, e2, u} with different probabilities (Chatzikokolakis et al. (CSF 2019)
	// Example 6 style): ⊑max holds both ways, ⊑avg only from the more revealing channel.
	A = mat.NewDense(3, 4, []float64{0.6, 0, 0, 0.4, 0, 0.6, 0, 0.4, 0, 0, 0.6, 0.4})
	B = mat.NewDense(3, 4, []float64{0.3, 0, 0, 0.7, 0, 0.3, 0, 0.7, 0, 0, 0.3, 0.7})
	for _, c := range []struct {
		A, B     *mat.Dense
		avg, max bool
	}{{A, B, true, true}, {B, A, false, true}} {
		ra, _ := Avg(c.A, c.B)
		rm, _ := Max(c.A, c.B)
		if ra.Holds != c.avg || rm.Holds != c.max {
			t.Fatalf("avg %v (want %v), max %v (want %v)", ra.Holds, c.avg, rm.Holds, c.max)
		}
		checkAvg(t, c.A, c.B, ra)
	}
}

func TestFamilies(t *testing.T) {
	n := 6
	pairs := [][2]float64{{2, 1}, {1, 0.5}, {0.7, 0.3}, {3, 2.9}}
	for _, fam := range []Mechanism{{TruncatedGeometric, n, n}, {RandomizedResponse, n, n}, {TruncatedGeometric, n, n + 2}} {
		for _, e := range pairs {
			A, _ := fam.Channel(e[0])
			B, _ := fam.Channel(e[1])
			for o := OrderAvg; o <= OrderPrv; o++ {
				ok, err := Refines(o, A, B, nil)
				if err != nil || !ok {
					t.Fatalf("%v %v: ε %g → %g should refine (err %v)", fam.Family, o, e[0], e[1], err)
				}
				back, _ := Refines(o, B, A, nil)
				if back {
					t.Fatalf("%v %v: increasing ε %g → %g should not refine", fam.Family, o, e[1], e[0])
				}
			}
		}
	}
	// Over-truncated geometric (5 inputs, 3 outputs): decreasing ε refines for ⊑prv only.
	otg := Mechanism{OverTruncatedGeometric, 5, 3}
	for _, e := range pairs {
		A, _ := otg.Channel(e[0])
		B, _ := otg.Channel(e[1])
		ra, _ := Avg(A, B)
		rm, _ := Max(A, B)
		rp, _ := Prv(A, B)
		if ra.Holds || rm.Holds || !rp.Holds {
			t.Fatalf("over-truncated ε %g → %g: avg %v, max %v (want false), prv %v (want true)", e[0], e[1], ra.Holds, rm.Holds, rp.Holds)
		}
		checkAvg(t, A, B, ra)
		checkMax(t, A, B, rm)
	}
	// Randomized response and exponential at the same (true) ε: incomparable under ⊑prv.
	for _, eps := range []float64{0.5, 1, 2} {
		R, _ := Mechanism{RandomizedResponse, 4, 4}.Channel(eps)
		E, _ := Mechanism{Exponential, 4, 4}.Channel(eps)
		r1, _ := Prv(R, E)
		r2, _ := Prv(E, R)
		if r1.Holds || r2.Holds {
			t.Fatalf("ε=%g: RR ⊑prv E %v, E ⊑prv RR %v; want both false", eps, r1.Holds, r2.Holds)
		}
		checkPrv(t, R, E, r1)
		checkPrv(t, E, R, r2)
	}
}

func TestExponentialTrueEpsilon(t *testing.T) {
	for _, eps := range []float64{0.1, 1, 3} {
		C, err := Mechanism{Exponential, 5, 5}.Channel(eps)
		if err != nil {
			t.Fatal(err)
		}
		// The true ε for |x − x'| is the largest induced distance between adjacent inputs.
		d := bruteMetric(C)
		got := 0.0
		for x := 0; x+1 < 5; x++ {
			got = math.Max(got, d[x][x+1])
		}
		if math.Abs(got-eps) > 1e-9*eps {
			t.Fatalf("true ε %g, want %g", got, eps)
		}
	}
}

func TestSafeEpsilonClosedForms(t *testing.T) {
	// ⊑prv: d_TG(ε)(x, x') = ε|x − x'| and d_RR(ε) = ε off the diagonal, so
	// TG(ε1) ⊑prv RR(ε2) iff ε2 ≤ ε1 and RR(ε1) ⊑prv TG(ε2) iff (n−1)ε2 ≤ ε1.
	n := 5
	tg, rr := Mechanism{TruncatedGeometric, n, n}, Mechanism{RandomizedResponse, n, n}
	for _, e1 := range []float64{0.5, 1, 2} {
		r, err := SafeEpsilon(tg, e1, rr, OrderPrv, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !r.Found || r.Epsilon2 > e1 || e1 > r.Epsilon2Fails || r.Epsilon2Fails-r.Epsilon2 > e1/1000+1e-15 {
			t.Fatalf("TG(%g) ⊑prv RR: %+v, want ε2 = %g", e1, r, e1)
		}
		r, _ = SafeEpsilon(rr, e1, tg, OrderPrv, nil)
		if want := e1 / float64(n-1); !(r.Epsilon2 <= want && want <= r.Epsilon2Fails) {
			t.Fatalf("RR(%g) ⊑prv TG: %+v, want ε2 = %g", e1, r, want)
		}
		// Within a family the answer is ε1 itself, for every order.
		for o := OrderAvg; o <= OrderPrv; o++ {
			r, _ = SafeEpsilon(tg, e1, tg, o, nil)
			if !(r.Epsilon2 <= e1 && e1 <= r.Epsilon2Fails+1e-12) {
				t.Fatalf("TG(%g) ⊑%v TG: %+v", e1, o, r)
			}
		}
	}
	pts, err := SafeEpsilonCurve(rr, tg, OrderAvg, []float64{0.5, 1, 1.5}, nil, nil)
	if err != nil || len(pts) != 3 {
		t.Fatal(err)
	}
	for i := 1; i < len(pts); i++ {
		if pts[i].Found && pts[i-1].Found && pts[i].Epsilon2 < pts[i-1].Epsilon2-1e-3 {
			t.Fatalf("safe ε2 decreases with ε1: %+v", pts)
		}
	}
	// Cancellation from the progress callback.
	pts, err = SafeEpsilonCurve(tg, rr, OrderPrv, []float64{1, 2, 3}, nil, func(done, total int) bool { return done < 2 })
	if err == nil || len(pts) != 2 {
		t.Fatalf("progress cancel: %d points, err %v", len(pts), err)
	}
}

func TestLatticeLaws(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 37))
	for trial := 0; trial < 60; trial++ {
		n := 2 + rng.IntN(4)
		A := randomChannel(rng, n, 1+rng.IntN(5), []float64{0, 0.3}[trial%2])
		B := randomChannel(rng, n, 1+rng.IntN(5), 0)
		meet, err := PrvMeet(A, B)
		if err != nil {
			t.Fatal(err)
		}
		join, err := PrvJoin(A, B)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			name string
			X, Y *mat.Dense
		}{{"meet ⊑ A", meet, A}, {"meet ⊑ B", meet, B}, {"A ⊑ join", A, join}, {"B ⊑ join", B, join}} {
			r, err := Prv(c.X, c.Y)
			if err != nil || !r.Holds {
				t.Fatalf("trial %d: %s fails: %+v %v", trial, c.name, r.Counterexample, err)
			}
		}
		// The meet's metric is exactly max(d_A, d_B), the join's the closure of the min.
		da, db, dm, dj := bruteMetric(A), bruteMetric(B), bruteMetric(meet), bruteMetric(join)
		for x := 0; x < n; x++ {
			for y := 0; y < n; y++ {
				if !closeDist(dm[x][y], math.Max(da[x][y], db[x][y])) {
					t.Fatalf("meet metric %g, want %g", dm[x][y], math.Max(da[x][y], db[x][y]))
				}
				// The join is at most the min and is a metric (triangle inequality).
				if dj[x][y] > math.Min(da[x][y], db[x][y])*(1+1e-9) {
					t.Fatalf("join metric %g above min %g", dj[x][y], math.Min(da[x][y], db[x][y]))
				}
				for z := 0; z < n; z++ {
					if dj[x][z] > (dj[x][y]+dj[y][z])*(1+1e-9)+1e-12 {
						t.Fatalf("join metric violates the triangle inequality")
					}
				}
			}
		}
		// Commutative and idempotent (as metrics).
		meet2, _ := PrvMeet(B, A)
		join2, _ := PrvJoin(B, A)
		same, _ := PrvMeet(A, A)
		same2, _ := PrvJoin(A, A)
		for _, c := range [][2]*mat.Dense{{meet, meet2}, {join, join2}} {
			if !sameMetric(bruteMetric(c[0]), bruteMetric(c[1])) {
				t.Fatalf("trial %d: not commutative", trial)
			}
		}
		if !sameMetric(bruteMetric(same), da) || !sameMetric(bruteMetric(same2), da) {
			t.Fatalf("trial %d: not idempotent", trial)
		}
		// ⊑max meet: the union of the posteriors is below both.
		mm, err := MaxMeet(A, B)
		if err != nil {
			t.Fatal(err)
		}
		for _, Y := range []*mat.Dense{A, B} {
			if r, _ := Max(mm, Y); !r.Holds {
				t.Fatalf("trial %d: MaxMeet ⋢max operand", trial)
			}
		}
	}
}

func closeDist(a, b float64) bool {
	if math.IsInf(a, 1) || math.IsInf(b, 1) {
		return a == b
	}
	return math.Abs(a-b) <= 1e-9*math.Max(1, b)
}

func sameMetric(a, b [][]float64) bool {
	for i := range a {
		for j := range a[i] {
			if !closeDist(a[i][j], b[i][j]) {
				return false
			}
		}
	}
	return true
}

func TestFromMetricRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 43))
	for trial := 0; trial < 100; trial++ {
		n := 1 + rng.IntN(8)
		D := mat.NewDense(n, n, nil)
		switch trial % 3 {
		case 0: // Euclidean distances of random points, scaled
			pts := make([][2]float64, n)
			for i := range pts {
				pts[i] = [2]float64{rng.Float64() * 5, rng.Float64() * 5}
			}
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					D.Set(i, j, math.Hypot(pts[i][0]-pts[j][0], pts[i][1]-pts[j][1]))
				}
			}
		case 1: // shortest paths of a random weighted graph, +Inf between components
			d := make([]float64, n*n)
			for i := range d {
				if i/n != i%n {
					d[i] = math.Inf(1)
				}
			}
			for e := 0; e < n; e++ {
				a, b := rng.IntN(n), rng.IntN(n)
				if a != b {
					w := rng.Float64() * 3
					d[a*n+b], d[b*n+a] = w, w
				}
			}
			ShortestPathClosure(d, n)
			D = mat.NewDense(n, n, d)
		default: // a pseudometric: clusters at distance 0 within, 1.5 across
			cl := make([]int, n)
			for i := range cl {
				cl[i] = rng.IntN(2)
			}
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					if cl[i] != cl[j] {
						D.Set(i, j, 1.5)
					}
				}
			}
		}
		C, err := FromMetric(D)
		if err != nil {
			t.Fatalf("trial %d: %v\n%v", trial, err, mat.Formatted(D))
		}
		if !isStochastic(C, 1e-12) {
			t.Fatal("not a channel")
		}
		got := bruteMetric(C)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				if !closeDist(got[i][j], D.At(i, j)) {
					t.Fatalf("trial %d: d_C[%d][%d] = %g, want %g", trial, i, j, got[i][j], D.At(i, j))
				}
			}
		}
	}
}

func TestBadInput(t *testing.T) {
	ok := mat.NewDense(2, 2, []float64{0.5, 0.5, 0.2, 0.8})
	three := mat.NewDense(3, 2, []float64{0.5, 0.5, 0.2, 0.8, 1, 0})
	notStoch := mat.NewDense(2, 2, []float64{0.5, 0.6, 0.2, 0.8})
	nan := mat.NewDense(2, 2, []float64{math.NaN(), 1, 0.2, 0.8})
	neg := mat.NewDense(2, 2, []float64{-0.1, 1.1, 0.2, 0.8})
	cases := []struct {
		A, B mat.Matrix
		want string
	}{
		{ok, three, "B: has 3 rows"},
		{notStoch, ok, "A: row 0 sums"},
		{ok, notStoch, "B: row 0 sums"},
		{nan, ok, "A: entry [0][0] is NaN"},
		{ok, neg, "B: entry [0][0] is negative"},
		{&mat.Dense{}, ok, "A: empty"},
		{ok, nil, "B: missing"},
	}
	ops := map[string]func(A, B mat.Matrix) error{
		"avg":     func(A, B mat.Matrix) error { _, err := Avg(A, B); return err },
		"max":     func(A, B mat.Matrix) error { _, err := Max(A, B); return err },
		"prv":     func(A, B mat.Matrix) error { _, err := Prv(A, B); return err },
		"prvMeet": func(A, B mat.Matrix) error { _, err := PrvMeet(A, B); return err },
		"prvJoin": func(A, B mat.Matrix) error { _, err := PrvJoin(A, B); return err },
		"maxMeet": func(A, B mat.Matrix) error { _, err := MaxMeet(A, B); return err },
	}
	for name, op := range ops {
		for _, c := range cases {
			err := op(c.A, c.B)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: error %v, want it to contain %q", name, err, c.want)
			}
		}
	}
	if _, err := AvgWith(ok, ok, &Options{Tolerance: math.NaN()}); err == nil {
		t.Error("NaN tolerance accepted")
	}
	inf := math.Inf(1)
	for _, c := range []struct {
		D    *mat.Dense
		want string
	}{
		{mat.NewDense(2, 2, []float64{0, 1, 2, 0}), "not symmetric"},
		{mat.NewDense(2, 2, []float64{1, 1, 1, 0}), "diagonal"},
		{mat.NewDense(2, 2, []float64{0, -1, -1, 0}), "expected a distance"},
		{mat.NewDense(2, 2, []float64{0, math.NaN(), math.NaN(), 0}), "expected a distance"},
		{mat.NewDense(3, 3, []float64{0, 1, 5, 1, 0, 1, 5, 1, 0}), "triangle"},
		{mat.NewDense(2, 3, []float64{0, 1, 1, 1, 0, 1}), "square"},
		{mat.NewDense(2, 2, []float64{0, 800, 800, 0}), "exceeds"},
		{&mat.Dense{}, "empty"},
	} {
		_, err := FromMetric(c.D)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("FromMetric: error %v, want %q", err, c.want)
		}
	}
	if _, err := FromMetric(mat.NewDense(2, 2, []float64{0, inf, inf, 0})); err != nil {
		t.Errorf("+Inf distance refused: %v", err)
	}
	if _, err := SafeEpsilon(Mechanism{TruncatedGeometric, 4, 4}, -1, Mechanism{RandomizedResponse, 4, 4}, OrderAvg, nil); err == nil {
		t.Error("negative ε1 accepted")
	}
	if _, err := ParseFamily("laplace"); err == nil {
		t.Error("unknown family accepted")
	}
	if _, err := SafeEpsilon(Mechanism{TruncatedGeometric, 4, 4}, 1, Mechanism{OverTruncatedGeometric, 4, 6}, OrderAvg, nil); err == nil || !strings.Contains(err.Error(), "family2") {
		t.Errorf("bad family2 size: %v", err)
	}
}

// A resolution finer than a double can resolve at the searched ε2 is refused, naming it (at
// 1e−17 the bisection never returned); the finest allowed one ends, at adjacent doubles.
func TestSafeEpsilonResolutionLimits(t *testing.T) {
	tg := Mechanism{TruncatedGeometric, 5, 5}
	for _, res := range []float64{1e-17, 1e-300, 5e-324} {
		_, err := SafeEpsilon(tg, 1, tg, OrderPrv, &SearchOptions{Resolution: res})
		if err == nil || !strings.Contains(err.Error(), "resolution") {
			t.Errorf("resolution %g: error %v, want one naming resolution", res, err)
		}
		_, err = SafeEpsilonCurve(tg, tg, OrderPrv, []float64{1}, &SearchOptions{Resolution: res}, nil)
		if err == nil || !strings.Contains(err.Error(), "resolution") {
			t.Errorf("curve, resolution %g: error %v", res, err)
		}
	}
	// ε2 ≤ 2 (Hi): 4 ulps of 2 is 4·2^−51. Within the family the answer is ε1 = 1 itself (up
	// to the 1e−9 tolerance of the ⊑prv test).
	r, err := SafeEpsilon(tg, 1, tg, OrderPrv, &SearchOptions{Resolution: 0x1p-49})
	if err != nil {
		t.Fatal(err)
	}
	if !(math.Abs(r.Epsilon2-1) < 1e-8 && r.Epsilon2Fails > r.Epsilon2 && r.Epsilon2Fails-r.Epsilon2 <= 0x1p-49) {
		t.Errorf("finest resolution: %+v", r)
	}
	for _, bad := range []SearchOptions{{Resolution: -1}, {Resolution: math.NaN()}, {Lo: 3, Hi: 2}} {
		if _, err := SafeEpsilon(tg, 1, tg, OrderPrv, &bad); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

// HullDistance measures distributions only: sigma is checked like a prior.
func TestHullDistanceRefusesNonDistributions(t *testing.T) {
	C := mat.NewDense(2, 2, []float64{0.9, 0.1, 0.2, 0.8})
	for _, s := range [][]float64{{0.7, 0.7}, {1.5, -0.5}, {math.NaN(), 1}, {0.5, math.Inf(1)}, {0.3, 0.3}} {
		if _, err := HullDistance(C, s); err == nil || !strings.Contains(err.Error(), "sigma") {
			t.Errorf("sigma %v: error %v, want one naming sigma", s, err)
		}
	}
	if _, err := HullDistance(C, []float64{1}); err == nil || !strings.Contains(err.Error(), "sigma") {
		t.Errorf("wrong length accepted")
	}
	if d, err := HullDistance(C, []float64{0.5, 0.5}); err != nil || d > 1e-12 {
		// (1/2, 1/2) lies between the two posteriors (9/11, 2/11) and (1/9, 8/9): inside.
		t.Errorf("inside point: %v %v", d, err)
	}
}
