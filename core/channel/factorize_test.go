package channel_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/qif-toolkit/qif/core/channel"
	"github.com/qif-toolkit/qif/core/refine"
	"gonum.org/v1/gonum/mat"
)

func randChannel(rng *rand.Rand, n, m int, zeros bool) *mat.Dense {
	c := mat.NewDense(n, m, nil)
	for x := 0; x < n; x++ {
		s := 0.0
		for y := 0; y < m; y++ {
			if zeros && rng.IntN(3) == 0 {
				continue
			}
			v := rng.Float64()
			c.Set(x, y, v)
			s += v
		}
		if s == 0 {
			c.Set(x, rng.IntN(m), 1)
			s = 1
		}
		for y := 0; y < m; y++ {
			c.Set(x, y, c.At(x, y)/s)
		}
	}
	return c
}

// checkWitness multiplies the witness back with gonum and checks that it is a channel.
func checkWitness(t *testing.T, what string, f *channel.Factorization, A, left, right mat.Matrix) {
	t.Helper()
	if !f.Exists || f.Witness == nil {
		t.Fatalf("%s: no factorization found (residual %v, %s)", what, f.Residual, f.Reason)
	}
	if err := channel.ValidateNamed("witness", f.Witness); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	var p mat.Dense
	if left == nil {
		p.Mul(f.Witness, right)
	} else {
		p.Mul(left, f.Witness)
	}
	n, m := A.Dims()
	for x := 0; x < n; x++ {
		for z := 0; z < m; z++ {
			if d := math.Abs(p.At(x, z) - A.At(x, z)); d > 1e-9 {
				t.Fatalf("%s: product differs from A by %v at [%d][%d]", what, d, x, z)
			}
		}
	}
}

func TestFactorizeRandomProducts(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	for trial := 0; trial < 80; trial++ {
		n, k, m := 1+rng.IntN(6), 1+rng.IntN(6), 1+rng.IntN(6)
		B := randChannel(rng, n, k, trial%2 == 0)
		R := randChannel(rng, k, m, trial%3 == 0)
		var A mat.Dense
		A.Mul(B, R)
		f, err := channel.Factorize(&A, B)
		if err != nil {
			t.Fatal(err)
		}
		checkWitness(t, "Factorize", f, &A, B, nil)
		if r, c := f.Witness.Dims(); r != k || c != m {
			t.Fatalf("witness is %d×%d, want %d×%d", r, c, k, m)
		}
		// Left: A2 = X·B2.
		X := randChannel(rng, n, k, trial%2 == 1)
		B2 := randChannel(rng, k, m, false)
		var A2 mat.Dense
		A2.Mul(X, B2)
		g, err := channel.LeftFactorize(&A2, B2)
		if err != nil {
			t.Fatal(err)
		}
		checkWitness(t, "LeftFactorize", g, &A2, nil, B2)
		if r, c := g.Witness.Dims(); r != n || c != k {
			t.Fatalf("left witness is %d×%d, want %d×%d", r, c, n, k)
		}
	}
}

// Factorize(A, B) exists exactly when B ⊑avg A, decided independently by refine.Avg (least
// squares or its own linear program): random pairs where it fails and where it holds.
func TestFactorizeAgreesWithAvgRefinement(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 34))
	yes, no := 0, 0
	for trial := 0; trial < 120; trial++ {
		n, k, m := 2+rng.IntN(4), 1+rng.IntN(5), 1+rng.IntN(5)
		B := randChannel(rng, n, k, trial%2 == 0)
		var A *mat.Dense
		if trial%2 == 0 {
			A = randChannel(rng, n, m, trial%4 == 0)
		} else {
			A = new(mat.Dense)
			A.Mul(B, randChannel(rng, k, m, true))
		}
		f, err := channel.Factorize(A, B)
		if err != nil {
			t.Fatal(err)
		}
		avg, err := refine.Avg(B, A)
		if err != nil {
			t.Fatal(err)
		}
		if f.Exists != avg.Holds {
			t.Fatalf("trial %d: Factorize says %v, refine.Avg(B, A) says %v (residuals %v, %v)", trial, f.Exists, avg.Holds, f.Residual, avg.Residual)
		}
		if f.Exists {
			yes++
			checkWitness(t, "Factorize", f, A, B, nil)
		} else {
			no++
			if !(f.Residual > channel.FactorTolerance) || f.Reason == "" {
				t.Fatalf("trial %d: no factorization but residual %v, reason %q", trial, f.Residual, f.Reason)
			}
			// The certified lower bound cannot exceed what refine.Avg's witness achieves.
			if f.Residual > avg.Residual+1e-9 {
				t.Fatalf("trial %d: lower bound %v above an achieved residual %v", trial, f.Residual, avg.Residual)
			}
		}
	}
	if yes < 40 || no < 30 {
		t.Errorf("too few cases: %d factorizable, %d not", yes, no)
	}
}

// With two outputs a row is a point of [0, 1] (its first entry), and A = X·B exists exactly
// when every row of A lies between the smallest and the largest row of B.
func TestLeftFactorizeTwoOutputsBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 36))
	yes, no := 0, 0
	for trial := 0; trial < 150; trial++ {
		n, k := 1+rng.IntN(4), 1+rng.IntN(4)
		A := randChannel(rng, n, 2, false)
		B := randChannel(rng, k, 2, false)
		lo, hi := 1.0, 0.0
		for y := 0; y < k; y++ {
			lo, hi = math.Min(lo, B.At(y, 0)), math.Max(hi, B.At(y, 0))
		}
		want, borderline := true, false
		for x := 0; x < n; x++ {
			v := A.At(x, 0)
			switch {
			case math.Abs(v-lo) < 1e-7 || math.Abs(v-hi) < 1e-7:
				borderline = true // too close to the segment's ends to call
			case v < lo || v > hi:
				want = false
			}
		}
		if borderline {
			continue
		}
		g, err := channel.LeftFactorize(A, B)
		if err != nil {
			t.Fatal(err)
		}
		if g.Exists != want {
			t.Fatalf("trial %d: LeftFactorize says %v, the segment test says %v", trial, g.Exists, want)
		}
		if want {
			yes++
			checkWitness(t, "LeftFactorize", g, A, nil, B)
		} else {
			no++
		}
	}
	if yes < 20 || no < 40 {
		t.Errorf("too few cases: %d inside, %d outside", yes, no)
	}
}

func TestFactorizeLibqifCasesAndSizes(t *testing.T) {
	id := func(n int) *mat.Dense {
		c := mat.NewDense(n, n, nil)
		for i := 0; i < n; i++ {
			c.Set(i, i, 1)
		}
		return c
	}
	noint := func(n int) *mat.Dense {
		c := mat.NewDense(n, n, nil)
		for i := 0; i < n; i++ {
			c.Set(i, 0, 1)
		}
		return c
	}
	// The identity is no post-processing of a channel that reveals nothing, nor a mixture of
	// its (equal) rows.
	for _, f := range []func(A, B mat.Matrix) (*channel.Factorization, error){channel.Factorize, channel.LeftFactorize} {
		r, err := f(id(5), noint(5))
		if err != nil || r.Exists {
			t.Errorf("id = noint factorization: %+v, %v", r, err)
		}
		// Mismatched sizes: no factorization, with the reason, not an error.
		r, err = f(id(4), noint(10))
		if err != nil || r.Exists || !strings.Contains(r.Reason, "A has 4") {
			t.Errorf("mismatched sizes: %+v, %v", r, err)
		}
	}
	// Everything is a post-processing of the identity, and noint of everything.
	rng := rand.New(rand.NewPCG(37, 38))
	C := randChannel(rng, 5, 3, false)
	r, _ := channel.Factorize(C, id(5))
	checkWitness(t, "C = id·X", r, C, id(5), nil)
	r, _ = channel.Factorize(mat.NewDense(5, 1, []float64{1, 1, 1, 1, 1}), C)
	if !r.Exists {
		t.Errorf("the one-column channel is a post-processing of every channel")
	}
	// Left: the midpoint of B's rows; moved by 5e-7 (still a channel within Tolerance, and
	// renormalized) it is off the segment by 3.5e-7 per row, which is reported as such.
	B := mat.NewDense(2, 3, []float64{0.2, 0.3, 0.5, 0.6, 0.2, 0.2})
	r, _ = channel.LeftFactorize(mat.NewDense(1, 3, []float64{0.4, 0.25, 0.35}), B)
	if !r.Exists || math.Abs(r.Witness.At(0, 0)-0.5) > 1e-9 {
		t.Errorf("midpoint: %+v", r)
	}
	r, _ = channel.LeftFactorize(mat.NewDense(1, 3, []float64{0.4, 0.25, 0.35 - 5e-7}), B)
	if r.Exists || math.Abs(r.Residual-3.5e-7) > 1e-9 {
		t.Errorf("perturbed midpoint: %+v", r)
	}
}

func TestFactorizeErrors(t *testing.T) {
	good := mat.NewDense(2, 2, []float64{0.5, 0.5, 0.2, 0.8})
	bad := mat.NewDense(2, 2, []float64{0.5, 0.6, 0.2, 0.8})
	for _, f := range []func(A, B mat.Matrix) (*channel.Factorization, error){channel.Factorize, channel.LeftFactorize} {
		if _, err := f(bad, good); err == nil || !strings.HasPrefix(err.Error(), "A:") {
			t.Errorf("bad A: %v", err)
		}
		if _, err := f(good, bad); err == nil || !strings.HasPrefix(err.Error(), "B:") {
			t.Errorf("bad B: %v", err)
		}
		if _, err := f(good, nil); err == nil || !strings.HasPrefix(err.Error(), "B:") {
			t.Errorf("nil B: %v", err)
		}
		if _, err := f(&mat.Dense{}, good); err == nil || !strings.HasPrefix(err.Error(), "A:") {
			t.Errorf("empty A: %v", err)
		}
	}
	big := mat.NewDense(1000, 1000, nil)
	for i := 0; i < 1000; i++ {
		big.Set(i, 0, 1)
	}
	if _, err := channel.Factorize(big, big); err == nil || !strings.HasPrefix(err.Error(), "A, B:") {
		t.Errorf("too large: %v", err)
	}
}
