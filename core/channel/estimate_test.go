package channel_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/qif-toolkit/qif/core/internal/testkit"

	"github.com/qif-toolkit/qif/core/channel"
	"github.com/qif-toolkit/qif/core/mechanism"
	"gonum.org/v1/gonum/mat"
)

func outputsOf(prior []float64, C mat.Matrix) []float64 {
	_, m := C.Dims()
	o := make([]float64, m)
	for x, p := range prior {
		for y := 0; y < m; y++ {
			o[y] += p * C.At(x, y)
		}
	}
	return o
}

func ibu(t *testing.T, C mat.Matrix, o []float64, maxDiff float64, maxIt int) *channel.IBUResult {
	t.Helper()
	r, err := channel.IterativeBayesianUpdate(C, o, maxDiff, maxIt)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// libqif's cases: the identity recovers the prior in 2 steps, a channel that reveals nothing
// returns the uniform prior in 1 step, the geometric mechanism recovers it approximately.
func TestIBULibqifCases(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	prior := randChannel(rng, 1, 10, false).RawRowView(0)
	id := mat.NewDense(10, 10, nil)
	noint := mat.NewDense(10, 10, nil)
	for i := 0; i < 10; i++ {
		id.Set(i, i, 1)
		noint.Set(i, 3, 1)
	}
	r := ibu(t, id, prior, 1e-6, 100)
	if r.Iterations != 2 || !r.Converged {
		t.Errorf("identity: %d iterations, converged %v", r.Iterations, r.Converged)
	}
	for x := range prior {
		if math.Abs(r.Prior[x]-prior[x]) > 1e-15 {
			t.Errorf("identity: estimate %v, want %v", r.Prior, prior)
			break
		}
	}
	r = ibu(t, noint, outputsOf(prior, noint), 1e-6, 100)
	if r.Iterations != 1 {
		t.Errorf("no interference: %d iterations", r.Iterations)
	}
	for _, v := range r.Prior {
		if math.Abs(v-0.1) > 1e-15 {
			t.Errorf("no interference: estimate %v", r.Prior)
			break
		}
	}
	geo, err := mechanism.TruncatedGeometric(10, 1, 10)
	if err != nil {
		t.Fatal(err)
	}
	r = ibu(t, geo, outputsOf(prior, geo), 1e-8, 1_000_000)
	for x := range prior {
		if math.Abs(r.Prior[x]-prior[x]) > 1e-4 {
			t.Errorf("geometric: estimate %v, want %v (%d iterations)", r.Prior, prior, r.Iterations)
			break
		}
	}
}

// Two steps by hand on C = [[0.8, 0.2], [0.3, 0.7]] with o = (0.5, 0.5):
// π0 = (½, ½), π0·C = (0.55, 0.45), π1 = (½(0.8·0.5/0.55 + 0.2·0.5/0.45), ½(0.3·0.5/0.55 + 0.7·0.5/0.45)).
func TestIBUByHand(t *testing.T) {
	C := mat.NewDense(2, 2, []float64{0.8, 0.2, 0.3, 0.7})
	o := []float64{0.5, 0.5}
	p1 := []float64{0.5 * (0.8*0.5/0.55 + 0.2*0.5/0.45), 0.5 * (0.3*0.5/0.55 + 0.7*0.5/0.45)}
	q := []float64{p1[0]*0.8 + p1[1]*0.3, p1[0]*0.2 + p1[1]*0.7}
	p2 := []float64{p1[0] * (0.8*0.5/q[0] + 0.2*0.5/q[1]), p1[1] * (0.3*0.5/q[0] + 0.7*0.5/q[1])}
	r := ibu(t, C, o, 0, 1)
	if r.Iterations != 1 || r.Converged || math.Abs(r.Prior[0]-p1[0]) > 1e-15 || math.Abs(r.Prior[1]-p1[1]) > 1e-15 {
		t.Errorf("one step: %+v, want %v", r, p1)
	}
	r = ibu(t, C, o, 0, 2)
	if r.Iterations != 2 || math.Abs(r.Prior[0]-p2[0]) > 1e-15 || math.Abs(r.Prior[1]-p2[1]) > 1e-15 {
		t.Errorf("two steps: %+v, want %v", r, p2)
	}
	// The stopping rule: with maxDiff just above the second step's move, it stops there, and
	// the count includes that step.
	move := math.Abs(p2[0]-p1[0]) + math.Abs(p2[1]-p1[1])
	r = ibu(t, C, o, move*(1+1e-9), 100)
	if r.Iterations != 2 || !r.Converged {
		t.Errorf("stopping rule: %d iterations, converged %v", r.Iterations, r.Converged)
	}
	// The exact solution here is interior: π·C = o gives π = (0.4, 0.6).
	r = ibu(t, C, o, 1e-14, 100000)
	if math.Abs(r.Prior[0]-0.4) > 1e-10 || !r.Converged {
		t.Errorf("fixed point %v after %d iterations", r.Prior, r.Iterations)
	}
}

// The 1e-6 rule: an output the current estimate gives probability below 1e-6 divides by 1.
// C = [[1, 0], [1−1e-7·2, 2e-7]]: from the uniform prior, (π·C)_1 = 1e-7 < 1e-6, so the ratio
// for output 1 is o_1/1 rather than o_1/1e-7.
func TestIBUSmallOutputRule(t *testing.T) {
	C := mat.NewDense(2, 2, []float64{1, 0, 1 - 2e-7, 2e-7})
	o := []float64{0.9, 0.1}
	q0 := 0.5*1 + 0.5*(1-2e-7)
	raw := []float64{0.5 * (1 * 0.9 / q0), 0.5 * ((1-2e-7)*0.9/q0 + 2e-7*0.1/1)}
	// libqif's estimate would sum to less than 1 (the rule loses mass); it is divided by its sum.
	if s := raw[0] + raw[1]; s > 0.95 {
		t.Fatalf("the rule should lose mass: %v", s)
	}
	want := []float64{raw[0] / (raw[0] + raw[1]), raw[1] / (raw[0] + raw[1])}
	r := ibu(t, C, o, 0, 1)
	if math.Abs(r.Prior[0]-want[0]) > 1e-15 || math.Abs(r.Prior[1]-want[1]) > 1e-15 {
		t.Errorf("first step %v, want %v", r.Prior, want)
	}
	if s := r.Prior[0] + r.Prior[1]; math.Abs(s-1) > 1e-15 {
		t.Errorf("sum %v", s)
	}
}

// At convergence the estimate is the maximum-likelihood prior: for every x,
// Σ_y C[x][y]·o_y/(π·C)_y ≤ 1, with equality where π_x > 0 (KKT conditions of maximizing
// Σ_y o_y ln (π·C)_y over the simplex).
func TestIBUIsMaximumLikelihood(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 44))
	for trial := 0; trial < 30; trial++ {
		n, m := 2+rng.IntN(4), 2+rng.IntN(4)
		C := randChannel(rng, n, m, false)
		o := randChannel(rng, 1, m, false).RawRowView(0)
		r := ibu(t, C, o, 1e-13, 2_000_000)
		q := outputsOf(r.Prior, C)
		for x := 0; x < n; x++ {
			g := 0.0
			for y := 0; y < m; y++ {
				g += C.At(x, y) * o[y] / q[y]
			}
			if g > 1+1e-4 || (r.Prior[x] > 1e-3 && math.Abs(g-1) > 1e-4) {
				t.Fatalf("trial %d: KKT fails at x = %d: gradient %v, π_x = %v (%d iterations)", trial, x, g, r.Prior[x], r.Iterations)
			}
		}
	}
}

func TestIBUErrorsAndLimit(t *testing.T) {
	C := mat.NewDense(2, 2, []float64{0.8, 0.2, 0.3, 0.7})
	for _, tc := range []struct {
		o       []float64
		maxDiff float64
		maxIt   int
		arg     string
	}{
		{[]float64{0.5, 0.4}, 1e-6, 10, "observed"},
		{[]float64{0.5, 0.5, 0}, 1e-6, 10, "observed"},
		{[]float64{1.5, -0.5}, 1e-6, 10, "observed"},
		{[]float64{0.5, math.NaN()}, 1e-6, 10, "observed"},
		{[]float64{0.5, 0.5}, -1, 10, "maxDiff"},
		{[]float64{0.5, 0.5}, math.NaN(), 10, "maxDiff"},
		{[]float64{0.5, 0.5}, 1e-6, 0, "maxIterations"},
	} {
		_, err := channel.IterativeBayesianUpdate(C, tc.o, tc.maxDiff, tc.maxIt)
		if err == nil || !strings.HasPrefix(err.Error(), tc.arg+":") {
			t.Errorf("%+v: error %v, want one naming %q", tc, err, tc.arg)
		}
	}
	if _, err := channel.IterativeBayesianUpdate(mat.NewDense(1, 2, []float64{0.5, 0.6}), []float64{0.5, 0.5}, 0, 1); err == nil || !strings.HasPrefix(err.Error(), "channel:") {
		t.Errorf("bad channel: %v", err)
	}
	r := ibu(t, C, []float64{0.5, 0.5}, 0, 7)
	if r.Iterations != 7 || r.Converged {
		t.Errorf("limit: %d iterations, converged %v", r.Iterations, r.Converged)
	}
}

// randChannel draws a channel; with zeros each entry is 0 with probability 1/3.
func randChannel(rng *rand.Rand, n, m int, zeros bool) *mat.Dense {
	if zeros {
		return testkit.Channel(rng, n, m, 3)
	}
	return testkit.Channel(rng, n, m, 0)
}

// An output observed with positive frequency that no secret can produce is an error naming
// observed (the estimate used to be the non-distribution (¼, ¼) with converged true); an
// all-zero column that was not observed is fine, and the estimate sums to 1.
func TestIBUUnproducibleObservation(t *testing.T) {
	C := mat.NewDense(2, 2, []float64{1, 0, 1, 0})
	if _, err := channel.IterativeBayesianUpdate(C, []float64{0.5, 0.5}, 1e-6, 100); err == nil || !strings.HasPrefix(err.Error(), "observed:") {
		t.Errorf("error %v, want one naming observed", err)
	}
	r := ibu(t, C, []float64{1, 0}, 1e-6, 100)
	if r.Prior[0] != 0.5 || r.Prior[1] != 0.5 || !r.Converged {
		t.Errorf("%+v, want the uniform prior (nothing is learnt)", r)
	}
}

// The estimate always sums to 1, for random channels with zeros and observations that make the
// 1e-6 rule apply, accelerated or not.
func TestIBUSumsToOne(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 46))
	for trial := 0; trial < 200; trial++ {
		n, m := 1+rng.IntN(5), 1+rng.IntN(5)
		C := randChannel(rng, n, m, true)
		if trial%3 == 0 && m > 1 { // output 0 gets (π·C)_0 < 1e-6: only row 0 has 1e-8 there
			for x := 0; x < n; x++ {
				C.Set(x, 1, C.At(x, 1)+C.At(x, 0))
				C.Set(x, 0, 0)
			}
			if C.At(0, 1) >= 1e-8 {
				C.Set(0, 0, 1e-8)
				C.Set(0, 1, C.At(0, 1)-1e-8)
			}
		}
		o := outputsOf(randChannel(rng, 1, n, false).RawRowView(0), C)
		if trial%3 == 0 && m > 1 && C.At(0, 0) > 0 { // observed far more often than the channel allows
			o[0], o[1] = o[0]+0.05, o[1]-0.05
		}
		if m > 1 && o[1] < 0 {
			continue
		}
		r, err := channel.IterativeBayesianUpdateWith(C, o, 1e-9, 500, &channel.IBUOptions{Plain: trial%2 == 0})
		if err != nil {
			t.Fatal(err)
		}
		s := 0.0
		for _, v := range r.Prior {
			if v < 0 {
				t.Fatalf("trial %d: negative entry %v", trial, r.Prior)
			}
			s += v
		}
		if math.Abs(s-1) > 1e-12 {
			t.Fatalf("trial %d: the estimate sums to %v", trial, s)
		}
	}
}

// Accelerated and plain EM reach the same fixed point where the maximum-likelihood prior is
// unique (C with linearly independent rows, n ≤ m: the likelihood is strictly concave in π),
// the accelerated one in fewer steps overall.
func TestIBUAcceleratedMatchesPlainEM(t *testing.T) {
	rng := rand.New(rand.NewPCG(47, 48))
	fast, slow := 0, 0
	for trial := 0; trial < 40; trial++ {
		n := 2 + rng.IntN(3)
		m := n + rng.IntN(3)
		C := randChannel(rng, n, m, false)
		o := randChannel(rng, 1, m, false).RawRowView(0)
		plain, err := channel.IterativeBayesianUpdateWith(C, o, 1e-14, 3_000_000, &channel.IBUOptions{Plain: true})
		if err != nil {
			t.Fatal(err)
		}
		acc := ibu(t, C, o, 1e-14, 3_000_000)
		if !plain.Converged || !acc.Converged {
			t.Fatalf("trial %d: not converged (%d, %d steps)", trial, plain.Iterations, acc.Iterations)
		}
		for x := range plain.Prior {
			if math.Abs(plain.Prior[x]-acc.Prior[x]) > 1e-7 {
				t.Fatalf("trial %d: accelerated %v, plain EM %v", trial, acc.Prior, plain.Prior)
			}
		}
		fast += acc.Iterations
		slow += plain.Iterations
	}
	if fast >= slow {
		t.Errorf("accelerated: %d steps in all, plain EM %d", fast, slow)
	}
}

// For an invertible channel and observations o for which C^{-T}·o is a distribution, the
// likelihood is maximal where π·C = o, so the estimate is C^{-T}·o (solved here with gonum).
// The channels are noisy geometric mechanisms, on which plain EM is slow.
func TestIBUInvertibleClosedForm(t *testing.T) {
	rng := rand.New(rand.NewPCG(49, 50))
	for _, tc := range []struct {
		n   int
		eps float64
	}{{5, 0.5}, {20, 1}, {60, 1}} {
		C, err := mechanism.TruncatedGeometric(tc.n, tc.eps, tc.n)
		if err != nil {
			t.Fatal(err)
		}
		truth := randChannel(rng, 1, tc.n, false).RawRowView(0)
		o := outputsOf(truth, C)
		var want mat.VecDense
		if err := want.SolveVec(C.T(), mat.NewVecDense(tc.n, o)); err != nil {
			t.Fatal(err)
		}
		r := ibu(t, C, o, 1e-13, 200_000)
		for x := 0; x < tc.n; x++ {
			if math.Abs(r.Prior[x]-want.AtVec(x)) > 1e-7 {
				t.Fatalf("n = %d: estimate %v, C^{-T}·o %v (%d steps, converged %v)", tc.n, r.Prior, want.RawVector().Data, r.Iterations, r.Converged)
			}
		}
	}
}

// The progress callback sees the steps and can stop the update, which returns the estimate so
// far (a distribution) with ErrIBUCancelled.
func TestIBUProgressCancels(t *testing.T) {
	C, _ := mechanism.TruncatedGeometric(30, 0.1, 30)
	o := make([]float64, 30)
	o[3], o[20] = 0.5, 0.5
	calls := 0
	r, err := channel.IterativeBayesianUpdateWith(C, o, 0, 100_000, &channel.IBUOptions{Progress: func(p channel.IBUProgress) bool {
		calls++
		return p.Iterations < 64
	}})
	if err != channel.ErrIBUCancelled || r == nil || r.Converged || r.Iterations != 64 || calls != 4 {
		t.Fatalf("%+v %v after %d calls", r, err, calls)
	}
	s := 0.0
	for _, v := range r.Prior {
		s += v
	}
	if math.Abs(s-1) > 1e-12 {
		t.Errorf("partial estimate sums to %v", s)
	}
}

// BenchmarkIBU runs the accelerated update and plain EM on the same noisy geometric mechanism
// at the default options, in the same iteration, and reports both step counts and the ratio of
// times: go test -run '^$' -bench IBU ./core/channel.
func BenchmarkIBU(b *testing.B) {
	for _, n := range []int{100, 300} {
		C, _ := mechanism.TruncatedGeometric(n, 0.5, n)
		rng := rand.New(rand.NewPCG(uint64(n), 7))
		o := outputsOf(randChannel(rng, 1, n, false).RawRowView(0), C)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			var acc, plain time.Duration
			var ra, rp *channel.IBUResult
			for i := 0; i < b.N; i++ {
				start := time.Now()
				ra, _ = channel.IterativeBayesianUpdate(C, o, channel.DefaultIBUMaxDiff, channel.DefaultIBUMaxIterations)
				acc += time.Since(start)
				start = time.Now()
				rp, _ = channel.IterativeBayesianUpdateWith(C, o, channel.DefaultIBUMaxDiff, channel.DefaultIBUMaxIterations, &channel.IBUOptions{Plain: true})
				plain += time.Since(start)
			}
			b.ReportMetric(float64(ra.Iterations), "squarem-steps")
			b.ReportMetric(float64(rp.Iterations), "plain-steps")
			b.ReportMetric(float64(plain)/float64(acc), "plain/squarem")
			if !ra.Converged {
				b.Errorf("accelerated: not converged in %d steps", ra.Iterations)
			}
		})
	}
}
