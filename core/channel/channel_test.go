package channel

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// The channels of Alvim et al. (FOSAD 2011), Tables 2 and 3.
var (
	// Password checker with password 110; outputs Fail, OK.
	password = mat.NewDense(8, 2, []float64{
		1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1, 0,
	})
	// Password checker observing the iteration count; outputs (Fail,1), (Fail,2), (Fail,3), OK.
	passwordIter = mat.NewDense(8, 4, []float64{
		1, 0, 0, 0,
		1, 0, 0, 0,
		1, 0, 0, 0,
		1, 0, 0, 0,
		0, 1, 0, 0,
		0, 1, 0, 0,
		0, 0, 0, 1,
		0, 0, 1, 0,
	})
	// Two-node dc-net with biased coins (2/3 for 0); inputs (a,1),(b,1),(a,0),(b,0); outputs 10, 01,
	// 00, 11.
	dcBiased = mat.NewDense(4, 4, []float64{
		2. / 3, 1. / 3, 0, 0,
		1. / 3, 2. / 3, 0, 0,
		0, 0, 2. / 3, 1. / 3,
		0, 0, 2. / 3, 1. / 3,
	})
	dcFair = mat.NewDense(4, 4, []float64{
		.5, .5, 0, 0,
		.5, .5, 0, 0,
		0, 0, .5, .5,
		0, 0, .5, .5,
	})
)

func uniform(n int) []float64 {
	p := make([]float64, n)
	for i := range p {
		p[i] = 1 / float64(n)
	}
	return p
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func vecNear(t *testing.T, what string, got, want []float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: length %d, want %d (%v vs %v)", what, len(got), len(want), got, want)
	}
	for i := range got {
		if !near(got[i], want[i], tol) {
			t.Fatalf("%s: entry %d is %v, want %v (got %v)", what, i, got[i], want[i], got)
		}
	}
}

func matNear(t *testing.T, what string, got, want mat.Matrix, tol float64) {
	t.Helper()
	gr, gc := got.Dims()
	wr, wc := want.Dims()
	if gr != wr || gc != wc {
		t.Fatalf("%s: %d×%d, want %d×%d\n got %v\nwant %v", what, gr, gc, wr, wc, mat.Formatted(got), mat.Formatted(want))
	}
	for i := 0; i < gr; i++ {
		for j := 0; j < gc; j++ {
			if !near(got.At(i, j), want.At(i, j), tol) {
				t.Fatalf("%s: [%d][%d] is %v, want %v\n got %v\nwant %v", what, i, j, got.At(i, j), want.At(i, j), mat.Formatted(got), mat.Formatted(want))
			}
		}
	}
}

func TestJointAndOutputDistribution(t *testing.T) {
	prior := []float64{0.1, 0.2, 0.3, 0.4}
	J, err := Joint(prior, dcBiased)
	if err != nil {
		t.Fatal(err)
	}
	matNear(t, "joint", J, mat.NewDense(4, 4, []float64{
		0.2 / 3, 0.1 / 3, 0, 0,
		0.2 / 3, 0.4 / 3, 0, 0,
		0, 0, 0.2, 0.1,
		0, 0, 0.8 / 3, 0.4 / 3,
	}), 1e-15)
	p, err := OutputDistribution(prior, dcBiased)
	if err != nil {
		t.Fatal(err)
	}
	vecNear(t, "p(y)", p, []float64{0.4 / 3, 0.5 / 3, 0.2 + 0.8/3, 0.1 + 0.4/3}, 1e-15)

	p, err = OutputDistribution(uniform(8), passwordIter)
	if err != nil {
		t.Fatal(err)
	}
	vecNear(t, "password p(y)", p, []float64{4. / 8, 2. / 8, 1. / 8, 1. / 8}, 1e-15)
}

func TestPosteriors(t *testing.T) {
	// Under the prior concentrated on (a,1) only outputs 10 and 01 can occur.
	post, err := Posteriors([]float64{1, 0, 0, 0}, dcBiased)
	if err != nil {
		t.Fatal(err)
	}
	if len(post) != 2 || post[0].Output != 0 || post[1].Output != 1 {
		t.Fatalf("posteriors %+v, want outputs 0 and 1", post)
	}
	vecNear(t, "p(10)", []float64{post[0].Prob, post[1].Prob}, []float64{2. / 3, 1. / 3}, 1e-15)
	vecNear(t, "δ^10", post[0].Dist, []float64{1, 0, 0, 0}, 0)
	vecNear(t, "δ^01", post[1].Dist, []float64{1, 0, 0, 0}, 0)

	post, err = Posteriors(uniform(8), passwordIter)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]float64{
		{.25, .25, .25, .25, 0, 0, 0, 0},
		{0, 0, 0, 0, .5, .5, 0, 0},
		{0, 0, 0, 0, 0, 0, 0, 1},
		{0, 0, 0, 0, 0, 0, 1, 0},
	}
	for k, w := range want {
		if post[k].Output != k {
			t.Fatalf("posterior %d has output %d", k, post[k].Output)
		}
		vecNear(t, "password posterior", post[k].Dist, w, 1e-15)
	}
}

func TestHyperHandComputed(t *testing.T) {
	cases := []struct {
		name    string
		prior   []float64
		c       *mat.Dense
		outer   []float64
		inners  [][]float64
		outputs [][]int
	}{
		{
			// Outputs 00 and 11 have the same posterior (the two rows are equal there): merged.
			name: "dc-net biased, uniform", prior: uniform(4), c: dcBiased,
			outer:   []float64{.25, .25, .5},
			inners:  [][]float64{{2. / 3, 1. / 3, 0, 0}, {1. / 3, 2. / 3, 0, 0}, {0, 0, .5, .5}},
			outputs: [][]int{{0}, {1}, {2, 3}},
		},
		{
			name: "dc-net fair: the observer learns the bit only", prior: []float64{0.1, 0.2, 0.3, 0.4}, c: dcFair,
			outer:   []float64{.3, .7},
			inners:  [][]float64{{1. / 3, 2. / 3, 0, 0}, {0, 0, 3. / 7, 4. / 7}},
			outputs: [][]int{{0, 1}, {2, 3}},
		},
		{
			// The prior rules out every secret but (a,1): the zero-probability outputs go and the
			// two remaining outputs have the same point posterior.
			name: "point prior", prior: []float64{1, 0, 0, 0}, c: dcBiased,
			outer: []float64{1}, inners: [][]float64{{1, 0, 0, 0}}, outputs: [][]int{{0, 1}},
		},
		{
			name: "password checker", prior: uniform(8), c: password,
			outer:   []float64{7. / 8, 1. / 8},
			inners:  [][]float64{{1. / 7, 1. / 7, 1. / 7, 1. / 7, 1. / 7, 1. / 7, 0, 1. / 7}, {0, 0, 0, 0, 0, 0, 1, 0}},
			outputs: [][]int{{0}, {1}},
		},
		{
			// A merged class first, then a singleton that moves up from row 2 to row 1.
			name: "merge then singleton", prior: []float64{.5, .5},
			c:       mat.NewDense(2, 3, []float64{.2, .2, .6, .3, .3, .4}),
			outer:   []float64{.5, .5},
			inners:  [][]float64{{.4, .6}, {.6, .4}},
			outputs: [][]int{{0, 1}, {2}},
		},
		{
			name: "zero column dropped, order of first appearance", prior: []float64{.5, .5},
			c:       mat.NewDense(2, 4, []float64{0, .2, 0, .8, 0, .6, .4, 0}),
			outer:   []float64{.4, .2, .4},
			inners:  [][]float64{{.25, .75}, {0, 1}, {1, 0}},
			outputs: [][]int{{1}, {2}, {3}},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h, err := Hyper(tc.prior, tc.c)
			if err != nil {
				t.Fatal(err)
			}
			vecNear(t, "outer", h.Outer, tc.outer, 1e-15)
			r, c := h.Inners.Dims()
			if r != len(tc.inners) || c != len(tc.prior) {
				t.Fatalf("inners %d×%d, want %d×%d", r, c, len(tc.inners), len(tc.prior))
			}
			for k, w := range tc.inners {
				vecNear(t, "inner", h.Inners.RawRowView(k), w, 1e-15)
			}
			if len(h.Outputs) != len(tc.outputs) {
				t.Fatalf("outputs %v, want %v", h.Outputs, tc.outputs)
			}
			for k := range tc.outputs {
				if len(h.Outputs[k]) != len(tc.outputs[k]) {
					t.Fatalf("outputs %v, want %v", h.Outputs, tc.outputs)
				}
				for i := range tc.outputs[k] {
					if h.Outputs[k][i] != tc.outputs[k][i] {
						t.Fatalf("outputs %v, want %v", h.Outputs, tc.outputs)
					}
				}
			}
		})
	}
}

func TestReduceHandComputed(t *testing.T) {
	cases := []struct {
		name string
		c    *mat.Dense
		want *mat.Dense
	}{
		{"dc-net fair", dcFair, mat.NewDense(4, 2, []float64{1, 0, 1, 0, 0, 1, 0, 1})},
		{"dc-net biased: 00 and 11 proportional", dcBiased, mat.NewDense(4, 3, []float64{
			2. / 3, 1. / 3, 0, 1. / 3, 2. / 3, 0, 0, 0, 1, 0, 0, 1})},
		{"already reduced", passwordIter, passwordIter},
		{"zero columns and a proportional pair", mat.NewDense(2, 5, []float64{
			0, .1, .3, 0, .6,
			0, .2, .6, 0, .2,
		}), mat.NewDense(2, 2, []float64{.4, .6, .8, .2})},
		{"one column", mat.NewDense(3, 1, []float64{1, 1, 1}), mat.NewDense(3, 1, []float64{1, 1, 1})},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Reduce(tc.c)
			if err != nil {
				t.Fatal(err)
			}
			matNear(t, "reduced", r, tc.want, 1e-15)
		})
	}
	red, err := ReduceColumns(mat.NewDense(1, 4, []float64{.25, 0, .25, .5}))
	if err != nil {
		t.Fatal(err)
	}
	// One row: every non-zero column is proportional to every other.
	if len(red.Columns) != 1 || len(red.Columns[0]) != 3 || red.Columns[0][2] != 3 {
		t.Fatalf("columns %v, want [[0 2 3]]", red.Columns)
	}
}

func TestCascadeAndParallelHandComputed(t *testing.T) {
	A := mat.NewDense(2, 2, []float64{1, 0, .5, .5})
	B := mat.NewDense(2, 3, []float64{.2, .8, 0, .6, 0, .4})
	got, err := Cascade(A, B)
	if err != nil {
		t.Fatal(err)
	}
	matNear(t, "A·B", got, mat.NewDense(2, 3, []float64{.2, .8, 0, .4, .4, .2}), 1e-15)

	P, err := Parallel(A, B)
	if err != nil {
		t.Fatal(err)
	}
	// Column y·3 + z holds A[x][y]·B[x][z].
	matNear(t, "A∥B", P, mat.NewDense(2, 6, []float64{
		.2, .8, 0, 0, 0, 0,
		.3, 0, .2, .3, 0, .2,
	}), 1e-15)
}

// randomChannel returns an n×m channel with about a quarter of its entries zero (but no zero
// row).
func randomChannel(rng *rand.Rand, n, m int) *mat.Dense {
	c := mat.NewDense(n, m, nil)
	for x := 0; x < n; x++ {
		s := 0.0
		for y := 0; y < m; y++ {
			v := 0.0
			if rng.IntN(4) > 0 || y == x%m {
				v = rng.Float64() + 0.01
			}
			c.Set(x, y, v)
			s += v
		}
		for y := 0; y < m; y++ {
			c.Set(x, y, c.At(x, y)/s)
		}
	}
	return c
}

func randomPrior(rng *rand.Rand, n int, zeros bool) []float64 {
	p := make([]float64, n)
	s := 0.0
	for i := range p {
		if !zeros || rng.IntN(3) > 0 || i == 0 {
			p[i] = rng.Float64() + 0.01
		}
		s += p[i]
	}
	for i := range p {
		p[i] /= s
	}
	return p
}

// splitColumns returns a channel with the same information as c: each column is split into two
// proportional columns (fractions t and 1−t) and an all-zero column is put before each pair.
func splitColumns(rng *rand.Rand, c *mat.Dense) *mat.Dense {
	n, m := c.Dims()
	out := mat.NewDense(n, 3*m, nil)
	for y := 0; y < m; y++ {
		t := 0.1 + 0.8*rng.Float64()
		for x := 0; x < n; x++ {
			out.Set(x, 3*y+1, t*c.At(x, y))
			out.Set(x, 3*y+2, (1-t)*c.At(x, y))
		}
	}
	return out
}

// bruteBayes computes V[π▷C] = Σ_y max_x π_x C[x][y] with At, independently of the package.
func bruteBayes(prior []float64, c mat.Matrix) float64 {
	n, m := c.Dims()
	v := 0.0
	for y := 0; y < m; y++ {
		best := 0.0
		for x := 0; x < n; x++ {
			best = math.Max(best, prior[x]*c.At(x, y))
		}
		v += best
	}
	return v
}

func TestHyperProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 200; trial++ {
		n, m := 1+rng.IntN(7), 1+rng.IntN(7)
		c := randomChannel(rng, n, m)
		prior := randomPrior(rng, n, trial%2 == 0)
		h, err := Hyper(prior, c)
		if err != nil {
			t.Fatal(err)
		}
		sum := 0.0
		for _, o := range h.Outer {
			if !(o > 0) {
				t.Fatalf("outer probability %v ≤ 0", o)
			}
			sum += o
		}
		if !near(sum, 1, 1e-12) {
			t.Fatalf("outer sums to %v", sum)
		}
		// Bayes plausibility: the average posterior is the prior.
		avg := make([]float64, n)
		k, _ := h.Inners.Dims()
		for i := 0; i < k; i++ {
			rs := 0.0
			for x := 0; x < n; x++ {
				avg[x] += h.Outer[i] * h.Inners.At(i, x)
				rs += h.Inners.At(i, x)
			}
			if !near(rs, 1, 1e-12) {
				t.Fatalf("inner %d sums to %v", i, rs)
			}
		}
		vecNear(t, "Σ outer·inner", avg, prior, 1e-12)
		// Distinct inners really are distinct.
		for i := 0; i < k; i++ {
			for j := 0; j < i; j++ {
				if maxDiff(h.Inners.RawRowView(i), h.Inners.RawRowView(j)) <= MergeTolerance {
					t.Fatalf("inners %d and %d are equal: %v", i, j, mat.Formatted(h.Inners))
				}
			}
		}
		// Posterior Bayes vulnerability from the hyper: Σ_k outer_k max inner_k.
		vh := 0.0
		for i := 0; i < k; i++ {
			vh += h.Outer[i] * mat.Max(h.Inners.RowView(i))
		}
		if !near(vh, bruteBayes(prior, c), 1e-12) {
			t.Fatalf("V from hyper %v, brute force %v", vh, bruteBayes(prior, c))
		}

		// Splitting columns changes neither the hyper nor the reduction.
		s := splitColumns(rng, c)
		hs, err := Hyper(prior, s)
		if err != nil {
			t.Fatal(err)
		}
		vecNear(t, "outer of split", hs.Outer, h.Outer, 1e-12)
		matNear(t, "inners of split", hs.Inners, h.Inners, 1e-12)
		rs, err := Reduce(s)
		if err != nil {
			t.Fatal(err)
		}
		rc, err := Reduce(c)
		if err != nil {
			t.Fatal(err)
		}
		matNear(t, "Reduce(split C) vs Reduce(C)", rs, rc, 1e-12)
		hr, err := Hyper(prior, rs)
		if err != nil {
			t.Fatal(err)
		}
		vecNear(t, "outer of reduced", hr.Outer, hs.Outer, 1e-12)
		matNear(t, "inners of reduced", hr.Inners, hs.Inners, 1e-12)
		if err := Validate(rs); err != nil {
			t.Fatalf("reduced channel is not a channel: %v", err)
		}
		for _, p := range [][]float64{prior, uniform(n), randomPrior(rng, n, true)} {
			if a, b := bruteBayes(p, s), bruteBayes(p, rs); !near(a, b, 1e-12) {
				t.Fatalf("reduction changed V[π▷C]: %v → %v", a, b)
			}
		}
		// A random channel with no zero column and continuous entries is its own reduction
		// (when it has two or more rows; a single row makes every column proportional).
		if n >= 2 && len(h.Outer) == m && trial%2 == 1 {
			matNear(t, "Reduce(C) of a reduced C", rc, c, 1e-15)
		}
	}
}

func TestCompositionProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 100; trial++ {
		n, m, k := 1+rng.IntN(6), 1+rng.IntN(6), 1+rng.IntN(6)
		A := randomChannel(rng, n, m)
		B := randomChannel(rng, m, k)
		I := mat.NewDiagDense(m, nil)
		for i := 0; i < m; i++ {
			I.SetDiag(i, 1)
		}
		got, err := Cascade(A, I)
		if err != nil {
			t.Fatal(err)
		}
		matNear(t, "A·I", got, A, 0)
		In := mat.NewDiagDense(n, nil)
		for i := 0; i < n; i++ {
			In.SetDiag(i, 1)
		}
		got, err = Cascade(In, A)
		if err != nil {
			t.Fatal(err)
		}
		matNear(t, "I·A", got, A, 0)
		AB, err := Cascade(A, B)
		if err != nil {
			t.Fatal(err)
		}
		if err := Validate(AB); err != nil {
			t.Fatalf("A·B is not a channel: %v", err)
		}
		// Data processing: post-processing never raises Bayes vulnerability.
		p := randomPrior(rng, n, false)
		if bruteBayes(p, AB) > bruteBayes(p, A)+1e-12 {
			t.Fatalf("V[π▷A·B] = %v > V[π▷A] = %v", bruteBayes(p, AB), bruteBayes(p, A))
		}

		ones := mat.NewDense(n, 1, nil)
		for i := 0; i < n; i++ {
			ones.Set(i, 0, 1)
		}
		got, err = Parallel(A, ones)
		if err != nil {
			t.Fatal(err)
		}
		matNear(t, "A∥1", got, A, 0)
		got, err = Parallel(ones, A)
		if err != nil {
			t.Fatal(err)
		}
		matNear(t, "1∥A", got, A, 0)
		C := randomChannel(rng, n, k)
		AC, err := Parallel(A, C)
		if err != nil {
			t.Fatal(err)
		}
		if err := Validate(AC); err != nil {
			t.Fatalf("A∥C is not a channel: %v", err)
		}
		for x := 0; x < n; x++ {
			for y := 0; y < m; y++ {
				for z := 0; z < k; z++ {
					if AC.At(x, y*k+z) != A.At(x, y)*C.At(x, z) {
						t.Fatalf("(A∥C)[%d][(%d,%d)] = %v", x, y, z, AC.At(x, y*k+z))
					}
				}
			}
		}
		// Observing more never lowers vulnerability: A∥C refines both A and C.
		if v := bruteBayes(p, AC); v+1e-12 < bruteBayes(p, A) || v+1e-12 < bruteBayes(p, C) {
			t.Fatalf("V[π▷A∥C] = %v below a component", v)
		}
	}
}

// sliced returns c as a view into a larger matrix, so that its stride differs from its width.
func sliced(c *mat.Dense) *mat.Dense {
	r, k := c.Dims()
	big := mat.NewDense(r+1, k+2, nil)
	for i := 0; i < r+1; i++ {
		for j := 0; j < k+2; j++ {
			big.Set(i, j, 7) // garbage around the view must not leak in
		}
	}
	v := big.Slice(1, r+1, 1, k+1).(*mat.Dense)
	v.Copy(c)
	return v
}

func TestStridedAndNonDenseInputs(t *testing.T) {
	prior := []float64{0.1, 0.2, 0.3, 0.4}
	want, _ := Hyper(prior, dcBiased)
	for name, c := range map[string]mat.Matrix{
		"strided":   sliced(dcBiased),
		"transpose": dcBiased.T().T(),
	} {
		h, err := Hyper(prior, c)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		vecNear(t, name+" outer", h.Outer, want.Outer, 0)
		matNear(t, name+" inners", h.Inners, want.Inners, 0)
		r, err := Reduce(c)
		if err != nil {
			t.Fatal(err)
		}
		rw, _ := Reduce(dcBiased)
		matNear(t, name+" reduce", r, rw, 0)
		p, err := Parallel(c, c)
		if err != nil {
			t.Fatal(err)
		}
		pw, _ := Parallel(dcBiased, dcBiased)
		matNear(t, name+" parallel", p, pw, 0)
		cc, err := Cascade(c, c)
		if err != nil {
			t.Fatal(err)
		}
		cw, _ := Cascade(dcBiased, dcBiased)
		matNear(t, name+" cascade", cc, cw, 1e-15)
		J, err := Joint(prior, c)
		if err != nil {
			t.Fatal(err)
		}
		Jw, _ := Joint(prior, dcBiased)
		matNear(t, name+" joint", J, Jw, 0)
	}
}

// huge reports 10⁴×10⁴ = 10⁸ entries and fails the test if any entry is read: oversized inputs
// must be refused from their dimensions alone.
type huge struct{ t *testing.T }

func (h huge) Dims() (int, int) { return 10_000, 10_000 }
func (h huge) At(i, j int) float64 {
	h.t.Fatalf("entry [%d][%d] of an oversized matrix was read", i, j)
	return 0
}
func (h huge) T() mat.Matrix { return h }

func TestBadInputs(t *testing.T) {
	ok := mat.NewDense(2, 2, []float64{.5, .5, .25, .75})
	nan := mat.NewDense(2, 2, []float64{.5, .5, math.NaN(), 1})
	neg := mat.NewDense(2, 2, []float64{1.5, -.5, .25, .75})
	inf := mat.NewDense(2, 2, []float64{.5, .5, math.Inf(1), 0})
	short := mat.NewDense(2, 2, []float64{.5, .4, .25, .75})
	var nilDense *mat.Dense
	big := huge{t}
	prior := []float64{.5, .5}
	type call func() error
	hyper := func(p []float64, c mat.Matrix) call {
		return func() error { _, err := Hyper(p, c); return err }
	}
	cases := []struct {
		name string
		f    call
		want []string // substrings of the error
	}{
		{"NaN", func() error { return Validate(nan) }, []string{"channel:", "[1][0]", "NaN"}},
		{"negative", func() error { return Validate(neg) }, []string{"channel:", "[0][1]", "negative"}},
		{"infinite", func() error { return Validate(inf) }, []string{"channel:", "[1][0]", "Inf"}},
		{"row sum", func() error { return Validate(short) }, []string{"channel:", "row 0 sums to 0.9"}},
		{"empty", func() error { return Validate(&mat.Dense{}) }, []string{"channel:", "empty"}},
		{"nil", func() error { return Validate(nil) }, []string{"channel:", "missing"}},
		{"typed nil", func() error { return Validate(nilDense) }, []string{"channel:", "missing"}},
		{"10⁸ entries", func() error { return Validate(big) }, []string{"channel:", "10000×10000", "limit"}},
		{"hyper 10⁸", hyper(prior, big), []string{"channel:", "limit"}},
		{"hyper NaN", hyper(prior, nan), []string{"channel:", "NaN"}},
		{"prior length", hyper([]float64{1}, ok), []string{"prior:", "1 entry", "2 rows"}},
		{"prior NaN", hyper([]float64{math.NaN(), 1}, ok), []string{"prior:", "NaN"}},
		{"prior negative", hyper([]float64{-.5, 1.5}, ok), []string{"prior:", "negative"}},
		{"prior sum", hyper([]float64{.5, .6}, ok), []string{"prior:", "sums to 1.1"}},
		{"prior empty", hyper(nil, ok), []string{"prior:", "empty"}},
		{"joint", func() error { _, err := Joint([]float64{1}, ok); return err }, []string{"prior:"}},
		{"output", func() error { _, err := OutputDistribution(prior, short); return err }, []string{"channel:", "row 0"}},
		{"posteriors", func() error { _, err := Posteriors(prior, big); return err }, []string{"channel:", "limit"}},
		{"reduce", func() error { _, err := Reduce(neg); return err }, []string{"channel:", "negative"}},
		{"reduce 10⁸", func() error { _, err := Reduce(big); return err }, []string{"channel:", "limit"}},
		{"cascade A", func() error { _, err := Cascade(nan, ok); return err }, []string{"A:", "NaN"}},
		{"cascade B", func() error { _, err := Cascade(ok, short); return err }, []string{"B:", "row 0 sums"}},
		{"cascade sizes", func() error { _, err := Cascade(ok, mat.NewDense(3, 1, []float64{1, 1, 1})); return err },
			[]string{"B: has 3 rows but A has 2 columns"}},
		{"cascade 10⁸", func() error { _, err := Cascade(ok, big); return err }, []string{"B:", "limit"}},
		{"parallel A", func() error { _, err := Parallel(&mat.Dense{}, ok); return err }, []string{"A:", "empty"}},
		{"parallel B", func() error { _, err := Parallel(ok, nilDense); return err }, []string{"B:", "missing"}},
		{"parallel sizes", func() error { _, err := Parallel(ok, mat.NewDense(1, 2, []float64{.5, .5})); return err },
			[]string{"B: has 1 row but A has 2 rows"}},
		{"parallel result too large", func() error {
			a := mat.NewDense(1, 10_000, nil)
			for j := 0; j < 10_000; j++ {
				a.Set(0, j, 1e-4)
			}
			_, err := Parallel(a, a)
			return err
		}, []string{"parallel:", "limit"}},
		{"distribution", func() error { return ValidateDistribution("p", []float64{0.5, math.Inf(1)}) }, []string{"p:", "entry 1", "Inf"}},
		{"prior vs nil channel", func() error { return ValidatePrior(prior, nilDense) }, []string{"channel:", "missing"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.f()
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Fatalf("error %q does not contain %q", err, w)
				}
			}
		})
	}
	// The tolerance is documented as 1e-6: just inside passes, just outside fails.
	if err := Validate(mat.NewDense(1, 2, []float64{.5, .5 + 0.9e-6})); err != nil {
		t.Fatalf("row within tolerance refused: %v", err)
	}
	if err := Validate(mat.NewDense(1, 2, []float64{.5, .5 + 1.1e-6})); err == nil {
		t.Fatal("row outside tolerance accepted")
	}
}

// TestGroupEqualAgainstBruteForce compares the key-sorted grouping with the quadratic
// definition on vectors with planted near-duplicates, including ties in the key.
func TestGroupEqualAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 300; trial++ {
		n := 1 + rng.IntN(4)
		m := 1 + rng.IntN(30)
		base := make([][]float64, 1+rng.IntN(4))
		for i := range base {
			base[i] = make([]float64, n)
			for x := range base[i] {
				base[i][x] = float64(rng.IntN(3)) / 2
			}
		}
		vecs := make([][]float64, m)
		for i := range vecs {
			b := base[rng.IntN(len(base))]
			v := make([]float64, n)
			for x := range v {
				// Perturbations straddling the tolerance.
				v[x] = b[x] + (rng.Float64()*2-1)*MergeTolerance*float64(rng.IntN(3))
			}
			vecs[i] = v
		}
		got := groupEqual(vecs, MergeTolerance)
		// Reference: the definition, with a linear search for the earliest representative.
		var reps []int
		var want [][]int
		for i, v := range vecs {
			found := -1
			for k, r := range reps {
				if maxDiff(v, vecs[r]) <= MergeTolerance {
					found = k
					break
				}
			}
			if found < 0 {
				reps = append(reps, i)
				want = append(want, []int{i})
			} else {
				want[found] = append(want[found], i)
			}
		}
		if len(got) != len(want) {
			t.Fatalf("got %v, want %v", got, want)
		}
		for k := range want {
			if len(got[k]) != len(want[k]) {
				t.Fatalf("got %v, want %v", got, want)
			}
			for i := range want[k] {
				if got[k][i] != want[k][i] {
					t.Fatalf("got %v, want %v", got, want)
				}
			}
		}
	}
}
