package infopriv

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/qif-toolkit/qif/core/graph"
	"gonum.org/v1/gonum/mat"
)

// naiveDelta is δ(ε) from the definition: max over ordered adjacent pairs of
// Σ_y max(0, C[x][y] − e^ε C[x′][y]).
func naiveDelta(c [][]float64, g *graph.Graph, eps float64) float64 {
	best := 0.0
	for x, nb := range g.Adj {
		for _, x2 := range nb {
			s := 0.0
			for y := range c[x] {
				s += max(0, c[x][y]-math.Exp(eps)*c[x2][y])
			}
			best = max(best, s)
		}
	}
	return best
}

// naivePureEpsilon is max |ln C[x][y] − ln C[x′][y]| over adjacent pairs (0/0 skipped).
func naivePureEpsilon(c [][]float64, g *graph.Graph) float64 {
	best := 0.0
	for _, e := range g.Edges() {
		for y := range c[e.A] {
			a, b := c[e.A][y], c[e.B][y]
			if a == 0 && b == 0 {
				continue
			}
			best = max(best, math.Abs(math.Log(a)-math.Log(b)))
		}
	}
	return best
}

// sparseChannel has some zero entries, so that some adjacent pairs have infinite ratios.
func sparseChannel(rng *rand.Rand, n, m int) *mat.Dense {
	c := mat.NewDense(n, m, nil)
	for i := 0; i < n; i++ {
		row := randDist(rng, m)
		for j := range row {
			if rng.IntN(4) == 0 {
				row[j] = 0
			}
		}
		s := 0.0
		for _, v := range row {
			s += v
		}
		if s == 0 {
			row[rng.IntN(m)], s = 1, 1
		}
		for j := range row {
			row[j] /= s
		}
		c.SetRow(i, row)
	}
	return c
}

func TestDeltaCurveAgainstDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	path, _ := graph.Path(5)
	clique, _ := graph.Clique(5)
	for trial := 0; trial < 20; trial++ {
		c := randChannel(rng, 5, 6)
		if trial%2 == 1 {
			c = sparseChannel(rng, 5, 6)
		}
		for _, g := range []*graph.Graph{path, clique} {
			curve, err := DeltaCurveOf(context.Background(), c, g, 41, 0)
			if err != nil {
				t.Fatal(err)
			}
			rs := rows(c)
			for k, e := range curve.Epsilon {
				near(t, "δ(ε)", curve.Delta[k], naiveDelta(rs, g, e), 1e-12)
			}
			near(t, "pure ε", curve.PureEpsilon, naivePureEpsilon(rs, g), 1e-12)
			if curve.Epsilon[0] != 0 || len(curve.Epsilon) != 41 {
				t.Errorf("grid starts at %v with %d points", curve.Epsilon[0], len(curve.Epsilon))
			}
		}
	}
}

func TestEpsilonForDelta(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 10))
	path, _ := graph.Path(4)
	cycle, _ := graph.Cycle(4)
	for trial := 0; trial < 30; trial++ {
		c := randChannel(rng, 4, 5)
		if trial%3 == 2 {
			c = sparseChannel(rng, 4, 5)
		}
		g := path
		if trial%2 == 1 {
			g = cycle
		}
		rs := rows(c)
		// δ = 0: the hockey-stick vanishes exactly at the pure ε.
		e0, err := epsilonForDelta(c, g, 0)
		if err != nil {
			t.Fatal(err)
		}
		pure := naivePureEpsilon(rs, g)
		near(t, "ε(δ=0) = pure ε", e0, pure, 1e-12)
		if !math.IsInf(pure, 1) {
			if d := naiveDelta(rs, g, pure); d > 1e-15 {
				t.Errorf("δ at the pure ε = %v, want 0", d)
			}
			if pure > 1e-9 && naiveDelta(rs, g, pure*(1-1e-6)) <= 0 {
				t.Errorf("δ just below the pure ε is 0")
			}
		}
		// Random δ: compare with bisection on the definition.
		for k := 0; k < 5; k++ {
			delta := rng.Float64() * naiveDelta(rs, g, 0)
			got, err := epsilonForDelta(c, g, delta)
			if err != nil {
				t.Fatal(err)
			}
			if naiveDelta(rs, g, 50) > delta { // infinite-ratio mass above δ: no finite ε
				if !math.IsInf(got, 1) {
					t.Errorf("ε(%v) = %v, want +Inf", delta, got)
				}
				continue
			}
			lo, hi := 0.0, 50.0
			for it := 0; it < 200; it++ {
				mid := (lo + hi) / 2
				if naiveDelta(rs, g, mid) <= delta {
					hi = mid
				} else {
					lo = mid
				}
			}
			near(t, "ε(δ) vs bisection", got, hi, 1e-9)
		}
		// δ ≥ δ(0) gives ε = 0.
		if e, _ := epsilonForDelta(c, g, 1); e != 0 {
			t.Errorf("ε(δ=1) = %v, want 0", e)
		}
	}
	c := randomizedResponse(3, 1)
	g, _ := graph.Clique(3)
	for _, bad := range []float64{-0.1, 1.5, math.NaN()} {
		_, err := epsilonForDelta(c, g, bad)
		wantErr(t, "bad δ", err, "delta")
	}
	g4, _ := graph.Clique(4)
	_, err := epsilonForDelta(c, g4, 0.1)
	wantErr(t, "graph size", err, "graph", "4 vertices", "3 rows")
	_, err = DeltaCurveOf(context.Background(), c, g, 1, 0)
	wantErr(t, "points", err, "points")
	_, err = DeltaCurveOf(context.Background(), c, g, 10, math.NaN())
	wantErr(t, "max ε NaN", err, "maxEpsilon")
}

func TestDeltaCurveRandomizedResponse(t *testing.T) {
	// k-ary RR on a clique: the worst pair puts e^ε/Z vs 1/Z on two outputs, so
	// δ(ε′) = (e^ε − e^{ε′})/Z for ε′ ≤ ε (the other outputs only subtract), and the curve's default range
	// ends at the pure ε with δ = 0.
	eps := 1.2
	k := 4
	c := randomizedResponse(k, eps)
	g, _ := graph.Clique(k)
	curve, err := DeltaCurveOf(context.Background(), c, g, 13, 0)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "range end", curve.Epsilon[12], eps, 1e-12)
	near(t, "δ at the end", curve.Delta[12], 0, 1e-15)
	z := math.Exp(eps) + float64(k-1)
	for i, e := range curve.Epsilon {
		want := (math.Exp(eps) - math.Exp(e)) / z
		near(t, "RR δ(ε)", curve.Delta[i], want, 1e-12)
	}
	// A given maximum.
	curve, _ = DeltaCurveOf(context.Background(), c, g, 3, 3)
	near(t, "given max", curve.Epsilon[2], 3, 0)
	near(t, "δ beyond the pure ε", curve.Delta[2], 0, 0)
}

func TestBayesRatiosBoundedByEpsilon(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 11))
	for trial := 0; trial < 50; trial++ {
		k := 2 + rng.IntN(4)
		eps := 0.05 + 3*rng.Float64()
		c := randomizedResponse(k, eps)
		prior := randDist(rng, k)
		r, err := BayesRatiosOf(prior, c)
		if err != nil {
			t.Fatal(err)
		}
		near(t, "channel ε", r.Epsilon, eps, 1e-12)
		if r.Max > math.Exp(eps)*(1+1e-12) || r.Min < math.Exp(-eps)*(1-1e-12) {
			t.Errorf("ratios [%v, %v] outside e^±%v = [%v, %v]", r.Min, r.Max, eps, math.Exp(-eps), math.Exp(eps))
		}
		// The ratios are Bayes' posterior over prior.
		rs := rows(c)
		for y := 0; y < k; y++ {
			py := 0.0
			for x := 0; x < k; x++ {
				py += prior[x] * rs[x][y]
			}
			for x := 0; x < k; x++ {
				post := prior[x] * rs[x][y] / py
				near(t, "ratio", r.Ratios.At(x, y), post/prior[x], 1e-12)
			}
		}
	}
}

func TestBayesRatiosReachEpsilon(t *testing.T) {
	// For RR, p(y) ≥ min_x C[x][y] = 1/Z, with equality only when π puts no mass on x = y: the
	// bound e^ε is approached as π concentrates away from y and reached by a point mass.
	eps, k := 0.8, 3
	c := randomizedResponse(k, eps)
	prev := 0.0
	for _, eta := range []float64{0.3, 0.1, 0.01, 1e-4, 1e-8} {
		r, err := BayesRatiosOf([]float64{eta, 1 - 2*eta, eta}, c)
		if err != nil {
			t.Fatal(err)
		}
		if r.Max >= math.Exp(eps) || r.Max <= prev {
			t.Errorf("η = %v: max ratio %v should increase towards e^ε = %v from below", eta, r.Max, math.Exp(eps))
		}
		prev = r.Max
	}
	near(t, "limit", prev, math.Exp(eps), 1e-7)
	r, err := BayesRatiosOf([]float64{0, 1, 0}, c)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "max at a point mass", r.Max, math.Exp(eps), 1e-12)
	near(t, "min at a point mass", r.Min, math.Exp(-eps), 1e-12)
	if r.MaxAt[0] == 1 || r.MaxAt[1] != r.MaxAt[0] {
		t.Errorf("max at %v, want (x, x) with x ≠ 1", r.MaxAt)
	}

	// Outputs with p(y) = 0 are NaN and ignored.
	c2 := dense([][]float64{{0.5, 0.5, 0}, {0.25, 0.75, 0}})
	r, _ = BayesRatiosOf([]float64{0.5, 0.5}, c2)
	if !math.IsNaN(r.Ratios.At(0, 2)) {
		t.Errorf("ratio for an impossible output = %v, want NaN", r.Ratios.At(0, 2))
	}
	near(t, "max", r.Max, 0.5/0.375, 1e-12)
	near(t, "min", r.Min, 0.25/0.375, 1e-12)
	near(t, "ε", r.Epsilon, math.Log(2), 1e-12)

	_, err = BayesRatiosOf([]float64{0.5, 0.6}, c2)
	wantErr(t, "bad prior", err, "prior")
	_, err = BayesRatiosOf([]float64{1}, c2)
	wantErr(t, "prior size", err, "prior", "2 rows")
}

func BenchmarkDeltaCurve(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	c := randChannel(rng, 200, 200)
	g, _ := graph.Path(200)
	for b.Loop() {
		if _, err := DeltaCurveOf(context.Background(), c, g, 201, 0); err != nil {
			b.Fatal(err)
		}
	}
}

func TestPairWorkLimit(t *testing.T) {
	// A clique on 800 vertices has 639,200 ordered pairs; × 400 outputs = 2.6·10⁸ steps.
	g, _ := graph.Clique(800)
	c := mat.NewDense(800, 400, nil)
	for i := 0; i < 800; i++ {
		for j := 0; j < 400; j++ {
			c.Set(i, j, 1.0/400)
		}
	}
	_, err := epsilonForDelta(c, g, 0.1)
	wantErr(t, "too much work", err, "graph", "limit")
	_, err = DeltaCurveOf(context.Background(), c, g, 101, 0)
	wantErr(t, "too much work (curve)", err, "graph", "limit")
	_, err = AbsoluteDistortion(MaxAnswers + 1)
	wantErr(t, "too many answers", err, "n")
}

// The δ(ε) curve ends at the pure ε with δ exactly 0 (the channel is ε-DP there), also where
// e^ε·Q rounds below P: randomized response on 2..5 outputs for many ε.
func TestDeltaCurveEndsAtZero(t *testing.T) {
	for m := 2; m <= 5; m++ {
		for k := 1; k <= 60; k++ {
			eps := 0.05 * float64(k)
			c := mat.NewDense(m, m, nil)
			den := float64(m-1) + math.Exp(eps)
			for i := 0; i < m; i++ {
				for j := 0; j < m; j++ {
					if i == j {
						c.Set(i, j, math.Exp(eps)/den)
					} else {
						c.Set(i, j, 1/den)
					}
				}
			}
			g, err := graph.Clique(m)
			if err != nil {
				t.Fatal(err)
			}
			curve, err := DeltaCurveOf(context.Background(), c, g, 9, 0)
			if err != nil {
				t.Fatal(err)
			}
			if last := curve.Delta[len(curve.Delta)-1]; last != 0 {
				t.Fatalf("m = %d, ε = %v: δ at the pure ε %v is %v, want exactly 0", m, eps, curve.PureEpsilon, last)
			}
		}
	}
}
