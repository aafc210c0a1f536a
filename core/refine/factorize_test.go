package refine

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/qif-toolkit/qif/core/channel"
	"github.com/qif-toolkit/qif/core/lp"
	"gonum.org/v1/gonum/mat"
)

// checkWitness multiplies the witness back with gonum and checks that it is a channel.
func checkWitness(t *testing.T, what string, f *Factorization, A, left, right mat.Matrix) {
	t.Helper()
	if !f.Exists || f.Witness == nil {
		t.Fatalf("%s: no factorization found (lower bound %v, %s)", what, f.LowerBound, f.Reason)
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
		B := randomChannel(rng, n, k, zeros(trial%2 == 0))
		R := randomChannel(rng, k, m, zeros(trial%3 == 0))
		var A mat.Dense
		A.Mul(B, R)
		f, err := Factorize(&A, B)
		if err != nil {
			t.Fatal(err)
		}
		checkWitness(t, "Factorize", f, &A, B, nil)
		if r, c := f.Witness.Dims(); r != k || c != m {
			t.Fatalf("witness is %d×%d, want %d×%d", r, c, k, m)
		}
		// Left: A2 = X·B2.
		X := randomChannel(rng, n, k, zeros(trial%2 == 1))
		B2 := randomChannel(rng, k, m, zeros(false))
		var A2 mat.Dense
		A2.Mul(X, B2)
		g, err := LeftFactorize(&A2, B2)
		if err != nil {
			t.Fatal(err)
		}
		checkWitness(t, "LeftFactorize", g, &A2, nil, B2)
		if r, c := g.Witness.Dims(); r != n || c != k {
			t.Fatalf("left witness is %d×%d, want %d×%d", r, c, n, k)
		}
	}
}

// factorResidualLP is min over channels X of (1/n)·Σ|product − A| (product B·X, or X·B when
// left), solved here as its own linear program with core/lp: the reference for both
// factorizations.
func factorResidualLP(t *testing.T, A, B mat.Matrix, left bool) float64 {
	t.Helper()
	n, m := A.Dims()
	rb, cb := B.Dims()
	k, p, q := cb, cb, m // B·X: B is n×k, X is k×m
	if left {
		k, p, q = rb, n, rb // X·B: X is n×k, B is k×m
	}
	model := lp.NewModel(lp.Minimize)
	X := model.AddBlock("X", p, q)
	over := model.AddBlock("over", n, m)
	under := model.AddBlock("under", n, m)
	for x := 0; x < n; x++ {
		for z := 0; z < m; z++ {
			model.SetObjective(over.At(x, z), 1/float64(n))
			model.SetObjective(under.At(x, z), 1/float64(n))
		}
	}
	for i := 0; i < p; i++ {
		var row []lp.Term
		for j := 0; j < q; j++ {
			row = append(row, lp.Term{Var: X.At(i, j), Coef: 1})
		}
		model.AddEq(row, 1)
	}
	for x := 0; x < n; x++ {
		for z := 0; z < m; z++ {
			terms := []lp.Term{{Var: over.At(x, z), Coef: 1}, {Var: under.At(x, z), Coef: -1}}
			for y := 0; y < k; y++ {
				if left {
					terms = append(terms, lp.Term{Var: X.At(x, y), Coef: B.At(y, z)})
				} else {
					terms = append(terms, lp.Term{Var: X.At(y, z), Coef: B.At(x, y)})
				}
			}
			model.AddEq(terms, A.At(x, z))
		}
	}
	res, err := model.Solve(nil)
	if err != nil || res.Status != lp.Optimal {
		t.Fatalf("reference LP: %v %v", err, res.Status)
	}
	return res.Objective
}

// Both factorizations against the reference linear program on random pairs, in both cases:
// a witness when the smallest residual is 0, otherwise a certified lower bound that the
// reference does not undercut.
func TestFactorizeAgainstReferenceLP(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 34))
	yes, no := 0, 0
	for trial := 0; trial < 120; trial++ {
		n, k, m := 2+rng.IntN(4), 1+rng.IntN(5), 1+rng.IntN(5)
		B := randomChannel(rng, n, k, zeros(trial%2 == 0))
		var A *mat.Dense
		if trial%2 == 0 {
			A = randomChannel(rng, n, m, zeros(trial%4 == 0))
		} else {
			A = new(mat.Dense)
			A.Mul(B, randomChannel(rng, k, m, zeros(true)))
		}
		f, err := Factorize(A, B)
		if err != nil {
			t.Fatal(err)
		}
		ref := factorResidualLP(t, A, B, false)
		if f.Exists {
			yes++
			checkWitness(t, "Factorize", f, A, B, nil)
			if ref > 1e-9 {
				t.Fatalf("trial %d: a witness, but the reference residual is %v", trial, ref)
			}
		} else {
			no++
			if !(f.LowerBound > AvgTolerance) || f.LowerBound > ref+1e-9 || f.Reason == "" {
				t.Fatalf("trial %d: no factorization, lower bound %v, reference %v, reason %q", trial, f.LowerBound, ref, f.Reason)
			}
		}
		// Left: A2 (n×m) against B2 (k×m).
		B2 := randomChannel(rng, k, m, zeros(trial%3 == 0))
		var A2 *mat.Dense
		if trial%2 == 0 {
			A2 = randomChannel(rng, n, m, zeros(false))
		} else {
			A2 = new(mat.Dense)
			A2.Mul(randomChannel(rng, n, k, zeros(true)), B2)
		}
		g, err := LeftFactorize(A2, B2)
		if err != nil {
			t.Fatal(err)
		}
		ref = factorResidualLP(t, A2, B2, true)
		if g.Exists {
			checkWitness(t, "LeftFactorize", g, A2, nil, B2)
			if ref > 1e-9 {
				t.Fatalf("trial %d: a left witness, but the reference residual is %v", trial, ref)
			}
		} else if !(g.LowerBound > AvgTolerance/float64(n)) || g.LowerBound > ref+1e-9 || g.LowerBound < ref-1e-6 {
			// The same unit as Factorize: the mean L1 distance per row, which the reference
			// minimizes; the certified bound is below it and, from the optimal duals, close.
			t.Fatalf("trial %d: no left factorization, lower bound %v, reference %v", trial, g.LowerBound, ref)
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
		A := randomChannel(rng, n, 2, zeros(false))
		B := randomChannel(rng, k, 2, zeros(false))
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
		g, err := LeftFactorize(A, B)
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
	for _, f := range []func(A, B mat.Matrix) (*Factorization, error){Factorize, LeftFactorize} {
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
	C := randomChannel(rng, 5, 3, zeros(false))
	r, _ := Factorize(C, id(5))
	checkWitness(t, "C = id·X", r, C, id(5), nil)
	r, _ = Factorize(mat.NewDense(5, 1, []float64{1, 1, 1, 1, 1}), C)
	if !r.Exists {
		t.Errorf("the one-column channel is a post-processing of every channel")
	}
	// Left: the midpoint of B's rows; moved by 5e-7 (still a channel within Tolerance, and
	// renormalized) it is off the segment, and reported so.
	B := mat.NewDense(2, 3, []float64{0.2, 0.3, 0.5, 0.6, 0.2, 0.2})
	r, _ = LeftFactorize(mat.NewDense(1, 3, []float64{0.4, 0.25, 0.35}), B)
	if !r.Exists || math.Abs(r.Witness.At(0, 0)-0.5) > 1e-9 {
		t.Errorf("midpoint: %+v", r)
	}
	r, _ = LeftFactorize(mat.NewDense(1, 3, []float64{0.4, 0.25, 0.35 - 5e-7}), B)
	if r.Exists || r.LowerBound < 1e-7 {
		t.Errorf("perturbed midpoint: %+v", r)
	}
}

func TestFactorizeErrors(t *testing.T) {
	good := mat.NewDense(2, 2, []float64{0.5, 0.5, 0.2, 0.8})
	bad := mat.NewDense(2, 2, []float64{0.5, 0.6, 0.2, 0.8})
	for _, f := range []func(A, B mat.Matrix) (*Factorization, error){Factorize, LeftFactorize} {
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
	// Large but simple: a 1000×1000 channel that reveals nothing (rank 1) is decided by least
	// squares without building a program of 3·10⁶ variables.
	big := mat.NewDense(1000, 1000, nil)
	for i := 0; i < 1000; i++ {
		big.Set(i, 0, 1)
	}
	if f, err := Factorize(big, big); err != nil || !f.Exists {
		t.Errorf("1000×1000: %+v, %v", f, err)
	}
}

func zeros(b bool) float64 {
	if b {
		return 0.3
	}
	return 0
}

// MaxError is measured against the channels as given: A's first row sums to 1 + 6e-7 (accepted
// by validation), B is the identity, so the witness is A with its rows normalized and the
// product differs from the given A by the normalization, A[0][z]·(1 − 1/s) at most.
func TestFactorizeMaxErrorAgainstInput(t *testing.T) {
	s := 1 + 6e-7
	A := mat.NewDense(2, 2, []float64{0.4, 0.6 + 6e-7, 0.3, 0.7})
	id := mat.NewDense(2, 2, []float64{1, 0, 0, 1})
	want := (0.6 + 6e-7) * (1 - 1/s)
	for name, f := range map[string]func(a, b mat.Matrix) (*Factorization, error){"Factorize": Factorize, "LeftFactorize": LeftFactorize} {
		r, err := f(A, id)
		if err != nil || !r.Exists {
			t.Fatalf("%s: %+v %v", name, r, err)
		}
		if math.Abs(r.MaxError-want) > 1e-12 {
			t.Errorf("%s: maxError %v, want %v (the gap to the given A)", name, r.MaxError, want)
		}
	}
}

// LowerBound has one meaning in both: the mean over the rows of A of the L1 distance to the
// product. A = [[1, 0], [½, ½]] against the single row (½, ½): leftFactorize misses row 0 by 1
// and matches row 1, mean ½; factorize needs one row q = B·X for both rows, and
// ‖q − (1, 0)‖₁ + ‖q − (½, ½)‖₁ ≥ 1 (triangle inequality, equality on the segment), mean ½.
func TestFactorizeLowerBoundMeaning(t *testing.T) {
	A := mat.NewDense(2, 2, []float64{1, 0, 0.5, 0.5})
	left, err := LeftFactorize(A, mat.NewDense(1, 2, []float64{0.5, 0.5}))
	if err != nil || left.Exists || math.Abs(left.LowerBound-0.5) > 1e-9 {
		t.Errorf("LeftFactorize: %+v %v, want lower bound ½", left, err)
	}
	right, err := Factorize(A, mat.NewDense(2, 1, []float64{1, 1}))
	if err != nil || right.Exists || right.LowerBound > 0.5+1e-12 || right.LowerBound < AvgTolerance {
		t.Errorf("Factorize: %+v %v, want a lower bound in (0, ½]", right, err)
	}
}
