package infopriv

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// productPriorBrute maximizes I(X_i; Y) over a grid of product priors: for individual i with
// prior π_i and the others with independent priors π_j, the channel from X_i to Y averages the
// tuple channel over the others. Domains of size 2 or 3; steps grid points per unit.
func productPriorBrute(domains []int, c *mat.Dense, steps int) (best float64) {
	n := len(domains)
	grids := make([][][]float64, n)
	for j, d := range domains {
		switch d {
		case 2:
			for a := 0; a <= steps; a++ {
				p := float64(a) / float64(steps)
				grids[j] = append(grids[j], []float64{p, 1 - p})
			}
		case 3:
			for a := 0; a <= steps; a++ {
				for b := 0; a+b <= steps; b++ {
					p, q := float64(a)/float64(steps), float64(b)/float64(steps)
					grids[j] = append(grids[j], []float64{p, q, 1 - p - q})
				}
			}
		default:
			panic("domains of 2 or 3")
		}
	}
	rs := rows(c)
	m := len(rs[0])
	nt := len(rs)
	// Enumerate all combinations of grid priors (n ≤ 2 here keeps this small).
	idx := make([]int, n)
	for {
		priors := make([][]float64, n)
		for j := range priors {
			priors[j] = grids[j][idx[j]]
		}
		for i := 0; i < n; i++ {
			ch := make([][]float64, domains[i])
			for v := range ch {
				ch[v] = make([]float64, m)
			}
			for t := 0; t < nt; t++ {
				tup := tupleOf(domains, t)
				w := 1.0
				for j := 0; j < n; j++ {
					if j != i {
						w *= priors[j][tup[j]]
					}
				}
				for y := 0; y < m; y++ {
					ch[tup[i]][y] += w * rs[t][y]
				}
			}
			best = max(best, naiveMI(priors[i], ch))
		}
		k := 0
		for ; k < n; k++ {
			idx[k]++
			if idx[k] < len(grids[k]) {
				break
			}
			idx[k] = 0
		}
		if k == n {
			return best
		}
	}
}

func TestTheorem31AgainstProductPriors(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 1))
	for trial, domains := range [][]int{{2, 2}, {2, 2}, {2, 2}, {2, 3}, {3, 2}} {
		nt, _ := NumTuples(domains)
		c := randChannel(rng, nt, 3)
		r, err := IndividualCapacity(context.Background(), domains, c, nil)
		if err != nil {
			t.Fatal(err)
		}
		steps := 100
		if domains[0] == 3 || domains[1] == 3 {
			steps = 24
		}
		brute := productPriorBrute(domains, c, steps)
		if brute > r.Capacity+1e-9 {
			t.Errorf("trial %d: product prior reaches %v > reduction %v", trial, brute, r.Capacity)
		}
		near(t, "reduction vs brute force", r.Capacity, brute, 2e-3)
		// The witnesses: the sub-channel named has that capacity, reached by that prior.
		sub := make([][]float64, domains[r.Individual])
		for v := range sub {
			tup := make([]int, 0, len(domains))
			tup = append(tup, r.Others[:r.Individual]...)
			tup = append(tup, v)
			tup = append(tup, r.Others[r.Individual:]...)
			ix, err := TupleIndex(domains, tup)
			if err != nil {
				t.Fatal(err)
			}
			sub[v] = rows(c)[ix]
		}
		near(t, "I at the reported prior", naiveMI(r.Prior, sub), r.Capacity, 1e-9)
		if r.UpperBound < r.Capacity || r.UpperBound > r.Capacity+1e-8 {
			t.Errorf("upper bound %v vs capacity %v", r.UpperBound, r.Capacity)
		}
	}
}

// countQuery is the table of the count of records equal to 1 over binary records.
func countQuery(n int) ([]int, []int) {
	domains := make([]int, n)
	for i := range domains {
		domains[i] = 2
	}
	nt, _ := NumTuples(domains)
	table := make([]int, nt)
	for t := range table {
		for _, v := range tupleOf(domains, t) {
			table[t] += v
		}
	}
	return domains, table
}

func TestIndividualEpsilonCountRR(t *testing.T) {
	for _, eps := range []float64{0.1, 0.5, 1, 2.5} {
		domains, table := countQuery(4)
		c, err := QueryChannel(domains, table, randomizedResponse(5, eps))
		if err != nil {
			t.Fatal(err)
		}
		r, err := IndividualEpsilon(context.Background(), domains, c)
		if err != nil {
			t.Fatal(err)
		}
		near(t, "individual ε of RR on a count", r.Epsilon, eps, 1e-12)
		// Witness: changing the individual's value multiplies the output's probability by e^ε.
		if r.Individual != 0 || len(r.Others) != 3 {
			t.Errorf("witness individual %d others %v", r.Individual, r.Others)
		}
		ta := append([]int{r.Values[0]}, r.Others...)
		tb := append([]int{r.Values[1]}, r.Others...)
		ia, _ := TupleIndex(domains, ta)
		ib, _ := TupleIndex(domains, tb)
		near(t, "witness ratio", math.Log(c.At(ia, r.Output)/c.At(ib, r.Output)), eps, 1e-12)

		// Shannon side: the sub-channel has rows s and s+1 of RR for the others' count s, a
		// 2×5 channel whose capacity the grid finds.
		cp, err := IndividualCapacity(context.Background(), domains, c, nil)
		if err != nil {
			t.Fatal(err)
		}
		rr := rows(randomizedResponse(5, eps))
		near(t, "individual capacity of RR on a count", cp.Capacity, gridCapacity([][]float64{rr[0], rr[1]}, 4000), 1e-6)
		if cp.Solved != 1 {
			t.Errorf("count + RR: solved %d sub-channels, want 1 (the others are shifts of the first: their divergence bound equals its capacity)", cp.Solved)
		}
	}
}

func TestIndividualIgnoredRecord(t *testing.T) {
	// The query reads record 1 only: record 0 leaks nothing; record 1 leaks through the BSC.
	domains := []int{3, 2}
	table := []int{0, 1, 0, 1, 0, 1}
	p := 0.2
	noise := dense([][]float64{{1 - p, p}, {p, 1 - p}})
	c, err := QueryChannel(domains, table, noise)
	if err != nil {
		t.Fatal(err)
	}
	r, err := IndividualCapacity(context.Background(), domains, c, nil)
	if err != nil {
		t.Fatal(err)
	}
	bsc, _ := BinarySymmetricCapacity(p)
	near(t, "capacity", r.Capacity, bsc, 1e-9)
	if r.Individual != 1 || len(r.Others) != 1 || r.Others[0] != 0 {
		t.Errorf("witness %d %v, want record 1 with record 0 = 0", r.Individual, r.Others)
	}
	near(t, "prior", r.Prior[0], 0.5, 1e-6)
	e, _ := IndividualEpsilon(context.Background(), domains, c)
	near(t, "ε", e.Epsilon, math.Log(4), 1e-12)
	if e.Individual != 1 {
		t.Errorf("ε individual %d, want 1", e.Individual)
	}
	// A deterministic query that distinguishes values: ε = +Inf, capacity log2 2 = 1 bit.
	c, _ = QueryChannel(domains, table, dense([][]float64{{1, 0}, {0, 1}}))
	e, _ = IndividualEpsilon(context.Background(), domains, c)
	if !math.IsInf(e.Epsilon, 1) {
		t.Errorf("deterministic query ε = %v, want +Inf", e.Epsilon)
	}
	r, _ = IndividualCapacity(context.Background(), domains, c, nil)
	near(t, "deterministic capacity", r.Capacity, 1, 1e-9)
}

func TestIndividualTrivial(t *testing.T) {
	c := dense([][]float64{{0.3, 0.7}})
	r, err := IndividualCapacity(context.Background(), []int{1, 1}, c, nil)
	if err != nil || r.Capacity != 0 || len(r.Others) != 1 {
		t.Errorf("single tuple: %+v, %v", r, err)
	}
	e, err := IndividualEpsilon(context.Background(), []int{1}, c)
	if err != nil || e.Epsilon != 0 || len(e.Others) != 0 {
		t.Errorf("single tuple ε: %+v, %v", e, err)
	}
}

func TestTuples(t *testing.T) {
	domains := []int{2, 3, 4}
	for i := 0; i < 24; i++ {
		tup, err := Tuple(domains, i)
		if err != nil {
			t.Fatal(err)
		}
		// Lexicographic, record 0 most significant: i = 12 x0 + 4 x1 + x2.
		if tup[0]*12+tup[1]*4+tup[2] != i {
			t.Errorf("tuple %d = %v", i, tup)
		}
		back, _ := TupleIndex(domains, tup)
		if back != i {
			t.Errorf("index(%v) = %d, want %d", tup, back, i)
		}
	}
	_, err := TupleIndex(domains, []int{0, 3, 0})
	wantErr(t, "value out of range", err, "tuple", "record 1")
	_, err = Tuple(domains, 24)
	wantErr(t, "index out of range", err, "index")
}

func TestIndividualBadInput(t *testing.T) {
	ctx := context.Background()
	c := dense([][]float64{{1, 0}, {0, 1}, {0.5, 0.5}})
	_, err := IndividualCapacity(ctx, []int{2, 2}, c, nil)
	wantErr(t, "rows ≠ tuples", err, "channel", "3 rows", "4 tuples")
	_, err = IndividualEpsilon(ctx, []int{2, 2}, c)
	wantErr(t, "rows ≠ tuples (ε)", err, "channel", "3 rows")
	_, err = IndividualCapacity(ctx, []int{}, c, nil)
	wantErr(t, "no records", err, "domains")
	_, err = IndividualCapacity(ctx, []int{3, 0}, c, nil)
	wantErr(t, "zero values", err, "domains", "record 1")
	_, err = NumTuples([]int{1 << 12, 1 << 11})
	wantErr(t, "too many tuples", err, "domains", "4194304")
	_, err = NumTuples([]int{1 << 40, 1 << 40})
	wantErr(t, "overflowing product", err, "domains")
	_, err = IndividualCapacity(ctx, []int{3}, dense([][]float64{{1, 0}, {0, 1}, {0.5, math.NaN()}}), nil)
	wantErr(t, "NaN", err, "channel", "NaN")
	_, err = IndividualCapacity(ctx, []int{3}, c, &Options{Tolerance: -1})
	wantErr(t, "negative tolerance", err, "tolerance")

	noise := dense([][]float64{{1, 0}, {0, 1}})
	_, err = QueryChannel([]int{2, 2}, []int{0, 1, 1}, noise)
	wantErr(t, "short table", err, "table", "3 entries", "4 tuples")
	_, err = QueryChannel([]int{2, 2}, []int{0, 1, 1, 2}, noise)
	wantErr(t, "answer out of range", err, "table", "entry 3")
	_, err = QueryChannel([]int{2, 2}, []int{0, 1, 1, 0}, dense([][]float64{{0.5, 0.6}}))
	wantErr(t, "bad noise", err, "noise")
}

func TestIndividualCapacityCancelAndProgress(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	domains := []int{4, 4, 4}
	c := randChannel(rng, 64, 5)
	var calls, last, total int
	r, err := IndividualCapacity(context.Background(), domains, c, &Options{Progress: func(done, tot int) {
		calls++
		if done < last {
			t.Errorf("progress went back from %d to %d", last, done)
		}
		last, total = done, tot
	}})
	if err != nil {
		t.Fatal(err)
	}
	if calls < 2 || last != 48 || total != 48 || r.SubChannels != 48 {
		t.Errorf("progress calls %d, last %d of %d; sub-channels %d (want 3·16 = 48)", calls, last, total, r.SubChannels)
	}
	near(t, "pruned and cached = every sub-channel", r.Capacity, everySubChannel(domains, c), 2e-9)

	// Near-ties: every sub-channel a small perturbation of one channel, so the bounds prune
	// little and the early-stopped Blahut–Arimoto runs do the work.
	p := nearTies(domains, 0.05)
	r, err = IndividualCapacity(context.Background(), domains, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "near-ties: pruned = every sub-channel", r.Capacity, everySubChannel(domains, p), 2e-9)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = IndividualCapacity(ctx, domains, c, nil)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err = %v", err)
	}
}

// sixByFour is a random tuple channel over 6 records of 4 values (4,096 tuples) with m outputs.
func sixByFour(m int) ([]int, *mat.Dense) {
	rng := rand.New(rand.NewPCG(6, 4))
	return []int{4, 4, 4, 4, 4, 4}, randChannel(rng, 4096, m)
}

// sumQuery6x4 is the sum of 6 records of 4 values (answers 0..18) plus RR noise.
func sumQuery6x4(eps float64) ([]int, *mat.Dense) {
	domains := []int{4, 4, 4, 4, 4, 4}
	table := make([]int, 4096)
	for t := range table {
		for _, v := range tupleOf(domains, t) {
			table[t] += v
		}
	}
	c, _ := QueryChannel(domains, table, randomizedResponse(19, eps))
	return domains, c
}

func BenchmarkIndividualCapacity6x4Random(b *testing.B) {
	domains, c := sixByFour(8)
	for b.Loop() {
		if _, err := IndividualCapacity(context.Background(), domains, c, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkIndividualCapacity6x4SumRR(b *testing.B) {
	domains, c := sumQuery6x4(1)
	for b.Loop() {
		if _, err := IndividualCapacity(context.Background(), domains, c, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkIndividualEpsilon6x4(b *testing.B) {
	domains, c := sixByFour(8)
	for b.Loop() {
		if _, err := IndividualEpsilon(context.Background(), domains, c); err != nil {
			b.Fatal(err)
		}
	}
}

// everySubChannel is the largest capacityOf over every sub-channel, with no pruning or cache.
func everySubChannel(domains []int, c *mat.Dense) float64 {
	nt, _ := NumTuples(domains)
	_, m := c.Dims()
	best := -1.0
	for i, d := range domains {
		for t0 := 0; t0 < nt; t0++ {
			tup := tupleOf(domains, t0)
			if tup[i] != 0 {
				continue
			}
			sub := mat.NewDense(d, m, nil)
			for v := 0; v < d; v++ {
				tup[i] = v
				ix, _ := TupleIndex(domains, tup)
				sub.SetRow(v, c.RawRowView(ix))
			}
			cr, _ := capacityOf(sub)
			best = max(best, cr.capacity)
		}
	}
	return best
}

// nearTies is a tuple channel whose row for tuple x is row (Σ x) mod 4 of a fixed random
// channel, perturbed by noise of relative size eps: all sub-channels have nearly equal
// capacities.
func nearTies(domains []int, eps float64) *mat.Dense {
	rng := rand.New(rand.NewPCG(7, 7))
	nt, _ := NumTuples(domains)
	base := randChannel(rng, 4, 8)
	c := randChannel(rng, nt, 8)
	for t := 0; t < nt; t++ {
		v := 0
		for _, x := range tupleOf(domains, t) {
			v += x
		}
		r, b := c.RawRowView(t), base.RawRowView(v%4)
		s := 0.0
		for y := range r {
			r[y] = b[y] + eps*r[y]
			s += r[y]
		}
		for y := range r {
			r[y] /= s
		}
	}
	return c
}

func BenchmarkIndividualCapacity6x4NearTies(b *testing.B) {
	domains := []int{4, 4, 4, 4, 4, 4}
	c := nearTies(domains, 0.05)
	for b.Loop() {
		if _, err := IndividualCapacity(context.Background(), domains, c, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func TestSubChannelAndRecordGraph(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	domains := []int{2, 3, 2}
	c := randChannel(rng, 12, 4)
	s, err := SubChannel(domains, c, 1, []int{1, 0})
	if err != nil {
		t.Fatal(err)
	}
	// Rows (1, v, 0) = 6 + 2v.
	for v := 0; v < 3; v++ {
		for y := 0; y < 4; y++ {
			if s.At(v, y) != c.At(6+2*v, y) {
				t.Fatalf("sub-channel row %d differs from tuple row %d", v, 6+2*v)
			}
		}
	}
	_, err = SubChannel(domains, c, 1, []int{1})
	wantErr(t, "short others", err, "others")
	_, err = SubChannel(domains, c, 1, []int{2, 0})
	wantErr(t, "others out of range", err, "others", "record 0")
	_, err = SubChannel(domains, c, 3, []int{0, 0})
	wantErr(t, "bad individual", err, "individual")

	g, err := RecordGraph(domains)
	if err != nil {
		t.Fatal(err)
	}
	// Adjacent iff the tuples differ in exactly one record.
	for a := 0; a < 12; a++ {
		for b := 0; b < 12; b++ {
			ta, tb := tupleOf(domains, a), tupleOf(domains, b)
			diff := 0
			for i := range ta {
				if ta[i] != tb[i] {
					diff++
				}
			}
			if (diff == 1) != (a != b && g.Adjacent(a, b)) {
				t.Errorf("%v ∼ %v: graph says %v", ta, tb, g.Adjacent(a, b))
			}
		}
	}
	// The pure ε on the record graph is the individual ε.
	e, _ := IndividualEpsilon(context.Background(), domains, c)
	pe, _ := epsilonForDelta(c, g, 0)
	near(t, "ε on the record graph", pe, e.Epsilon, 1e-12)
	_, err = RecordGraph([]int{200, 200})
	wantErr(t, "too many tuples for a graph", err, "domains")
}
