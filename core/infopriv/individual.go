package infopriv

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"

	"github.com/qif-toolkit/qif/core/argerr"
	"github.com/qif-toolkit/qif/core/channel"
	"github.com/qif-toolkit/qif/core/graph"
	"gonum.org/v1/gonum/mat"
)

// MaxTuples is the largest number of record tuples Π d_i accepted for a query over records
// (2^22 = 4,194,304). The tuple channel must also have at most channel.MaxEntries entries, so
// with m outputs the limit is min(2^22, 5·10⁷/m) tuples.
const MaxTuples = 1 << 22

// NumTuples returns Π d_i for the record domain sizes d_0..d_{n−1} (each ≥ 1, at least one
// record), refusing more than MaxTuples.
func NumTuples(domains []int) (int, error) {
	if len(domains) == 0 {
		return 0, fmt.Errorf("domains: empty, expected at least one record")
	}
	n := 1
	for i, d := range domains {
		if d < 1 {
			return 0, fmt.Errorf("domains: record %d has %d values, expected at least 1", i, d)
		}
		if d > MaxTuples || n > MaxTuples/d {
			return 0, fmt.Errorf("domains: %v give more than %d tuples (the limit)", domains, MaxTuples)
		}
		n *= d
	}
	return n, nil
}

// strides returns the place values of the lexicographic tuple order (record 0 most
// significant): index = Σ_i x_i·stride_i.
func strides(domains []int) []int {
	s := make([]int, len(domains))
	acc := 1
	for i := len(domains) - 1; i >= 0; i-- {
		s[i] = acc
		acc *= domains[i]
	}
	return s
}

// TupleIndex is the row of the tuple channel holding tuple (x_0, …, x_{n−1}): rows are in
// lexicographic order with record 0 most significant.
func TupleIndex(domains, tuple []int) (int, error) {
	if _, err := NumTuples(domains); err != nil {
		return 0, err
	}
	if len(tuple) != len(domains) {
		return 0, fmt.Errorf("tuple: has %d values but there are %d records", len(tuple), len(domains))
	}
	idx := 0
	for i, x := range tuple {
		if x < 0 || x >= domains[i] {
			return 0, fmt.Errorf("tuple: value %d of record %d is outside 0..%d", x, i, domains[i]-1)
		}
		idx = idx*domains[i] + x
	}
	return idx, nil
}

// Tuple is the inverse of TupleIndex: the values of the records in row index.
func Tuple(domains []int, index int) ([]int, error) {
	n, err := NumTuples(domains)
	if err != nil {
		return nil, err
	}
	if index < 0 || index >= n {
		return nil, fmt.Errorf("index: %d is outside 0..%d", index, n-1)
	}
	return tupleOf(domains, index), nil
}

func tupleOf(domains []int, index int) []int {
	t := make([]int, len(domains))
	for i := len(domains) - 1; i >= 0; i-- {
		t[i] = index % domains[i]
		index /= domains[i]
	}
	return t
}

// QueryChannel composes a deterministic query with a noise channel into the tuple channel of Wu
// (2019) Def. 2: table[t] is the answer index of the query on tuple t (lexicographic order, record
// 0 most significant, len(table) = Π d_i) and noise has one row per answer; row t of the result is
// row table[t] of noise.
func QueryChannel(domains, table []int, noise *mat.Dense) (*mat.Dense, error) {
	n, err := NumTuples(domains)
	if err != nil {
		return nil, err
	}
	if err := channel.ValidateNamed("noise", noise); err != nil {
		return nil, err
	}
	if len(table) != n {
		return nil, fmt.Errorf("table: has %d entries but domains %v give %d tuples", len(table), domains, n)
	}
	a, m := noise.Dims()
	if float64(n)*float64(m) > channel.MaxEntries {
		return nil, fmt.Errorf("table: %d tuples × %d outputs is more than the limit of %d entries", n, m, channel.MaxEntries)
	}
	for t, v := range table {
		if v < 0 || v >= a {
			return nil, fmt.Errorf("table: entry %d (tuple %v) is answer %d, outside the noise channel's rows 0..%d", t, tupleOf(domains, t), v, a-1)
		}
	}
	out := mat.NewDense(n, m, nil)
	o, r := out.RawMatrix(), noise.RawMatrix()
	for t, v := range table {
		copy(o.Data[t*o.Stride:t*o.Stride+m], r.Data[v*r.Stride:v*r.Stride+m])
	}
	return out, nil
}

// checkTupleChannel validates the domains and that c has one row per tuple.
func checkTupleChannel(domains []int, c *mat.Dense) (int, error) {
	n, err := NumTuples(domains)
	if err != nil {
		return 0, err
	}
	if err := channel.Validate(c); err != nil {
		return 0, err
	}
	if r, _ := c.Dims(); r != n {
		return 0, argerr.New("channel", "has %d rows but domains %v give %d tuples (one row per tuple)", r, domains, n)
	}
	return n, nil
}

// Options tunes IndividualCapacity.
type Options struct {
	// Tolerance is the Blahut–Arimoto gap in bits for each sub-channel (0 = measure's default,
	// 1e-9).
	Tolerance float64
	// Progress, when non-nil, is called with the number of sub-channels handled so far and
	// their total n_sub = Σ_i Π_{j≠i} d_j, about 200 times in all and once at the end.
	Progress func(done, total int)
}

// IndividualCapacityResult is the individual channel capacity with its witnesses.
type IndividualCapacityResult struct {
	// Capacity is the individual channel capacity in bits: the Shannon capacity of the worst
	// sub-channel (accurate to the Blahut–Arimoto tolerance).
	Capacity float64
	// UpperBound is a certified upper bound: the largest Blahut–Arimoto upper bound over the
	// sub-channels solved and the divergence bounds of those skipped.
	UpperBound float64
	// Individual is the record i of the worst sub-channel (ties within the tolerance go to the
	// earlier one in scanning order, see IndividualCapacity).
	Individual int
	// Others are the values x_{−i} of the other records (records j ≠ i in increasing j, so
	// len(Others) = n − 1), the first in lexicographic order for that individual.
	Others []int
	// Prior is the capacity-achieving distribution on the values of record Individual.
	Prior []float64
	// SubChannels is the number of sub-channels Σ_i Π_{j≠i} d_j; Solved how many of them needed
	// a Blahut–Arimoto run, possibly stopped early once its upper bound showed it could not win
	// (the others were equal to one already solved or bounded below the best so far).
	SubChannels, Solved int
}

// IndividualCapacity is the individual channel capacity of Wu (2019) (Def. 3, Theorem 3.1,
// docs/mathematics.md#information-privacy) of the tuple channel c over records with domain sizes
// domains: the largest Shannon capacity, over individuals i and values x_{−i} of the other records,
// of the sub-channel whose rows are the d_i tuples (v, x_{−i}), v = 0..d_i−1.
//
// Why a finite maximum suffices (the reconstruction of Theorem 3.1): with independent priors,
// the channel from X_i to Y is p(y|x_i) = Σ_{x_{−i}} π(x_{−i}) c(y | x_i, x_{−i}), a convex
// combination of the sub-channels with the same weights in every row; mutual information is
// convex in the channel for a fixed input distribution (Cover–Thomas Thm 2.7.4), so for every
// prior on X_i it is at most the largest I over the sub-channels, and maximizing over the prior
// gives max_{x_{−i}} Cap(sub-channel); point masses on x_{−i} reach it.
//
// The sub-channels are solved with measure.ShannonCapacity. Work is saved four ways, none of
// which changes the value: all-zero columns are dropped; a sub-channel equal to one already
// solved reuses its result (a count query plus noise has few distinct sub-channels); a
// sub-channel whose upper bound max_x D(C_x‖q̄), q̄ its mean row, is below the best so far or
// below L, the largest mutual information at the uniform prior over all sub-channels (a first,
// cheap pass), is skipped; and a Blahut–Arimoto run stops as soon as its certified upper bound
// shows it cannot beat the best so far. The witness is therefore the first sub-channel in
// scanning order (record 0 first, then the others lexicographically) that exceeded the best
// before it by more than the tolerance. ctx cancels the search between sub-channels.
func IndividualCapacity(ctx context.Context, domains []int, c *mat.Dense, opts *Options) (IndividualCapacityResult, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if math.IsNaN(o.Tolerance) || o.Tolerance < 0 {
		return IndividualCapacityResult{}, argerr.New("tolerance", "%v, expected a number of bits ≥ 0", o.Tolerance)
	}
	tieTol := o.Tolerance
	if tieTol == 0 {
		tieTol = 1e-9
	}
	if ctx == nil {
		ctx = context.Background()
	}
	nt, err := checkTupleChannel(domains, c)
	if err != nil {
		return IndividualCapacityResult{}, err
	}
	_, m := c.Dims()
	raw := c.RawMatrix()
	st := strides(domains)
	total := 0
	maxD := 0
	for _, d := range domains {
		total += nt / d
		maxD = max(maxD, d)
	}
	step := max(1, total/200)

	s := newSubSolver(maxD, m, o.Tolerance)
	s.rowNegH = rowNegEntropies(raw.Data, raw.Stride, nt, m)
	// Pass 1, cheap: the mutual information at the uniform prior of every sub-channel is a
	// lower bound on its capacity, so their maximum L bounds the answer from below; sub-channels
	// whose upper bound is below L are then skipped without a Blahut–Arimoto run.
	// The upper bounds are kept (when not too many) so that pass 2 skips losing sub-channels
	// without even loading them.
	var uppers []float64
	if total <= maxStoredBounds {
		uppers = make([]float64, 0, total)
	}
	lower := 0.0
	for i, d := range domains {
		si := st[i]
		for hi := 0; hi < nt; hi += d * si {
			for lo := 0; lo < si; lo++ {
				s.load(raw.Data, raw.Stride, hi+lo, si, d)
				u, l := s.bounds()
				lower = max(lower, l)
				if uppers != nil {
					uppers = append(uppers, u)
				}
			}
		}
		if err := ctx.Err(); err != nil {
			return IndividualCapacityResult{}, fmt.Errorf("individual capacity: %w", err)
		}
	}
	res := IndividualCapacityResult{Capacity: -1, SubChannels: total}
	done := 0
	for i, d := range domains {
		si := st[i]
		block := d * si
		for hi := 0; hi < nt; hi += block {
			for lo := 0; lo < si; lo++ {
				base := hi + lo
				if done%step == 0 {
					if err := ctx.Err(); err != nil {
						return IndividualCapacityResult{}, fmt.Errorf("individual capacity: stopped after %d of %d sub-channels: %w", done, total, err)
					}
					if o.Progress != nil && done > 0 {
						o.Progress(done, total)
					}
				}
				j := done
				done++
				threshold := lower - tieTol
				if res.Capacity >= 0 {
					threshold = max(threshold, res.Capacity+tieTol)
				}
				if uppers != nil && threshold >= 0 && uppers[j] <= threshold {
					res.UpperBound = max(res.UpperBound, uppers[j])
					continue
				}
				s.load(raw.Data, raw.Stride, base, si, d)
				r, solved, err := s.solve(threshold)
				if err != nil {
					return IndividualCapacityResult{}, fmt.Errorf("individual capacity: record %d with others %v: %w", i, others(domains, base, i), err)
				}
				res.UpperBound = max(res.UpperBound, r.upper)
				if !solved {
					continue
				}
				if r.capacity > res.Capacity+tieTol || res.Capacity < 0 {
					res.Capacity = r.capacity
					res.Individual = i
					res.Others = others(domains, base, i)
					res.Prior = append([]float64(nil), r.prior...)
				}
			}
		}
	}
	res.Solved = s.solved
	res.UpperBound = max(res.UpperBound, res.Capacity)
	if o.Progress != nil {
		o.Progress(total, total)
	}
	return res, nil
}

// others lists the values of the records other than i in tuple index.
func others(domains []int, index, i int) []int {
	t := tupleOf(domains, index)
	return append(t[:i:i], t[i+1:]...)
}

// subSolver extracts sub-channels into reused buffers and solves them with a cache.
type subSolver struct {
	m       int
	tol     float64
	rows    int
	sub     []float64 // rows × m, the raw sub-channel
	comp    []float64 // rows × k, without all-zero columns
	k       int
	key     []byte
	cache   map[string]capResult
	cacheSz int
	mean    []float64
	solved  int
	rowNegH []float64 // Σ_y C ln C of every tuple's row
	negH    []float64 // the same for the loaded rows
}

// rowNegEntropies is Σ_y C[t][y] ln C[t][y] for every row t, computed once so that the
// divergence bounds of the sub-channels need logarithms of the mean rows only.
func rowNegEntropies(data []float64, stride, n, m int) []float64 {
	out := make([]float64, n)
	for t := range out {
		s := 0.0
		for _, v := range data[t*stride : t*stride+m] {
			if v > 0 {
				s += v * math.Log(v)
			}
		}
		out[t] = s
	}
	return out
}

// maxStoredBounds is the largest number of sub-channels whose upper bounds IndividualCapacity
// keeps between its two passes (8 bytes each); beyond it they are recomputed.
const maxStoredBounds = 1 << 22

// maxCacheBytes bounds the memory the sub-channel cache may use for its keys.
const maxCacheBytes = 32 << 20

func newSubSolver(maxD, m int, tol float64) *subSolver {
	return &subSolver{
		m: m, tol: tol,
		sub:   make([]float64, maxD*m),
		comp:  make([]float64, maxD*m),
		mean:  make([]float64, m),
		negH:  make([]float64, maxD),
		cache: map[string]capResult{},
	}
}

// load copies rows base + v·stride, v = 0..d−1, and drops the all-zero columns.
func (s *subSolver) load(data []float64, rowStride, base, stride, d int) {
	m := s.m
	s.rows = d
	for v := 0; v < d; v++ {
		r := (base + v*stride) * rowStride
		copy(s.sub[v*m:(v+1)*m], data[r:r+m])
		s.negH[v] = s.rowNegH[base+v*stride]
	}
	k := 0
	for y := 0; y < m; y++ {
		nz := false
		for v := 0; v < d; v++ {
			if s.sub[v*m+y] != 0 {
				nz = true
				break
			}
		}
		if nz {
			k++
		}
	}
	s.k = k
	j := 0
	for y := 0; y < m; y++ {
		nz := false
		for v := 0; v < d; v++ {
			if s.sub[v*m+y] != 0 {
				nz = true
				break
			}
		}
		if !nz {
			continue
		}
		for v := 0; v < d; v++ {
			s.comp[v*k+j] = s.sub[v*m+y]
		}
		j++
	}
}

// solve returns the capacity of the loaded sub-channel, or solved = false with a certified
// upper bound ≤ threshold when it cannot exceed threshold.
func (s *subSolver) solve(threshold float64) (capResult, bool, error) {
	d, k := s.rows, s.k
	comp := s.comp[:d*k]
	if d == 1 || k == 1 || rowsEqual(comp, d, k) {
		return capResult{prior: uniformPrior(d)}, true, nil
	}
	// Key: dimensions, then the entries' bits.
	s.key = s.key[:0]
	s.key = binary.LittleEndian.AppendUint32(s.key, uint32(d))
	s.key = binary.LittleEndian.AppendUint32(s.key, uint32(k))
	for _, v := range comp {
		s.key = binary.LittleEndian.AppendUint64(s.key, math.Float64bits(v))
	}
	if r, ok := s.cache[string(s.key)]; ok {
		return r, true, nil
	}
	if threshold < 0 {
		threshold = math.Inf(-1)
	} else {
		if u, _ := s.bounds(); u <= threshold {
			return capResult{upper: u}, false, nil
		}
	}
	r, beaten, err := capacityBelow(mat.NewDense(d, k, comp), s.tol, threshold)
	if err != nil {
		return capResult{}, false, err
	}
	s.solved++
	if !beaten {
		return capResult{upper: r.upper}, false, nil
	}
	if s.cacheSz+len(s.key) <= maxCacheBytes {
		s.cache[string(s.key)] = r
		s.cacheSz += len(s.key)
	}
	return r, true, nil
}

// bounds returns, for the loaded sub-channel and q̄ its average row, the upper bound
// max_x D(C_x‖q̄) on its capacity (any output distribution q gives max_x D(C_x‖q) ≥ capacity:
// Cover–Thomas Thm 13.1.1, the Blahut–Arimoto bound) and the lower bound avg_x D(C_x‖q̄), the
// mutual information at the uniform prior, both in bits. q̄ > 0 on every kept column.
func (s *subSolver) bounds() (upper, lower float64) {
	d, k := s.rows, s.k
	comp := s.comp[:d*k]
	q := s.mean[:k]
	for y := range q {
		q[y] = 0
	}
	for v := 0; v < d; v++ {
		for y, p := range comp[v*k : (v+1)*k] {
			q[y] += p
		}
	}
	inv := 1 / float64(d)
	for y := range q {
		q[y] = math.Log(q[y] * inv)
	}
	for v := 0; v < d; v++ {
		dv := s.negH[v]
		for y, p := range comp[v*k : (v+1)*k] {
			dv -= p * q[y]
		}
		upper = max(upper, dv)
		lower += dv
	}
	return upper * math.Log2E, max(0, lower*inv*math.Log2E)
}

func rowsEqual(a []float64, d, k int) bool {
	for v := 1; v < d; v++ {
		for y := 0; y < k; y++ {
			if a[v*k+y] != a[y] {
				return false
			}
		}
	}
	return true
}

func uniformPrior(d int) []float64 {
	p := make([]float64, d)
	for i := range p {
		p[i] = 1 / float64(d)
	}
	return p
}

// IndividualEpsilonResult is the max-case twin of IndividualCapacityResult.
type IndividualEpsilonResult struct {
	// Epsilon is the smallest ε (nats) of ε-DP for "differ in one record" adjacency (+Inf when
	// some output is possible for one value of a record and impossible for another).
	Epsilon float64
	// Individual and Others locate the sub-channel where it is reached (first in order), as in
	// IndividualCapacityResult.
	Individual int
	Others     []int
	// Values are the two values (a, b) of the individual and Output the output y with
	// C[a][y] = e^ε C[b][y] (b's entry 0 when ε = +Inf).
	Values [2]int
	Output int
}

// IndividualEpsilon is the max-case twin of IndividualCapacity (Wu (2019) Defs. 7–9, Prop. 1): the
// largest max-divergence max_y ln(C[(a,x_{−i})][y] / C[(b,x_{−i})][y]) over individuals i, values
// x_{−i} of the others and pairs of values a, b of record i. That is the smallest ε for which the
// tuple channel is ε-DP on the Hamming graph of the records
// (docs/mathematics.md#differential-privacy), which by Wu (2019) Prop. 1 equals the max-individual
// channel capacity under independent priors, in nats. It is computed per sub-channel from each
// column's largest and smallest entries, O(Π d_i · n · m).
func IndividualEpsilon(ctx context.Context, domains []int, c *mat.Dense) (IndividualEpsilonResult, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	nt, err := checkTupleChannel(domains, c)
	if err != nil {
		return IndividualEpsilonResult{}, err
	}
	_, m := c.Dims()
	raw := c.RawMatrix()
	st := strides(domains)
	best := IndividualEpsilonResult{Epsilon: -1}
	bestRatio := -1.0
	count := 0
	for i, d := range domains {
		si := st[i]
		block := d * si
		for hi := 0; hi < nt; hi += block {
			for lo := 0; lo < si; lo++ {
				if count++; count&4095 == 0 {
					if err := ctx.Err(); err != nil {
						return IndividualEpsilonResult{}, fmt.Errorf("individual epsilon: %w", err)
					}
				}
				base := hi + lo
				for y := 0; y < m; y++ {
					hiV, loV := -1.0, math.Inf(1)
					a, b := 0, 0
					for v := 0; v < d; v++ {
						p := raw.Data[(base+v*si)*raw.Stride+y]
						if p > hiV {
							hiV, a = p, v
						}
						if p < loV {
							loV, b = p, v
						}
					}
					if hiV == 0 {
						continue
					}
					ratio := math.Inf(1)
					if loV > 0 {
						ratio = hiV / loV
					}
					if ratio > bestRatio {
						bestRatio = ratio
						best = IndividualEpsilonResult{Individual: i, Others: others(domains, base, i), Values: [2]int{a, b}, Output: y}
						if math.IsInf(ratio, 1) {
							best.Epsilon = ratio
							return best, nil
						}
					}
				}
			}
		}
	}
	if bestRatio < 0 { // every record has one value: nothing to distinguish
		best = IndividualEpsilonResult{Others: others(domains, 0, 0)}
		bestRatio = 1
	}
	best.Epsilon = math.Log(bestRatio)
	return best, nil
}

// SubChannel is the sub-channel of Theorem 3.1 for record i with the other records fixed to
// others (records j ≠ i in increasing j, as IndividualCapacityResult.Others): its row v is the
// row of tuple (others with v inserted at position i). Feed it to BayesRatiosOf to read the
// worst situation the Bayesian way.
func SubChannel(domains []int, c *mat.Dense, i int, others []int) (*mat.Dense, error) {
	if _, err := checkTupleChannel(domains, c); err != nil {
		return nil, err
	}
	if i < 0 || i >= len(domains) {
		return nil, fmt.Errorf("individual: %d is outside 0..%d", i, len(domains)-1)
	}
	if len(others) != len(domains)-1 {
		return nil, argerr.New("others", "has %d values, expected %d (one per other record)", len(others), len(domains)-1)
	}
	tup := make([]int, 0, len(domains))
	tup = append(tup, others[:i]...)
	tup = append(tup, 0)
	tup = append(tup, others[i:]...)
	for j, x := range tup {
		if j != i && (x < 0 || x >= domains[j]) {
			return nil, argerr.New("others", "value %d of record %d is outside 0..%d", x, j, domains[j]-1)
		}
	}
	_, m := c.Dims()
	out := mat.NewDense(domains[i], m, nil)
	for v := 0; v < domains[i]; v++ {
		tup[i] = v
		ix, _ := TupleIndex(domains, tup)
		out.SetRow(v, c.RawRowView(ix))
	}
	return out, nil
}

// RecordGraph is the adjacency "differ in exactly one record" on the tuples (the Hamming graph for
// mixed domain sizes, docs/mathematics.md#differential-privacy), with vertices numbered as the rows
// of the tuple channel — the graph on which DeltaCurveOf and EpsilonForDelta read a tuple channel.
// It is limited to graph.MaxVertices tuples.
func RecordGraph(domains []int) (*graph.Graph, error) {
	n, err := NumTuples(domains)
	if err != nil {
		return nil, err
	}
	if n > graph.MaxVertices {
		return nil, fmt.Errorf("domains: %v give %d tuples, more than the %d vertices a graph may have", domains, n, graph.MaxVertices)
	}
	st := strides(domains)
	var edges []graph.Edge
	for t := 0; t < n; t++ {
		for i, d := range domains {
			x := (t / st[i]) % d
			for v := x + 1; v < d; v++ {
				edges = append(edges, graph.Edge{A: t, B: t + (v-x)*st[i]})
			}
		}
	}
	return graph.New(n, edges)
}
