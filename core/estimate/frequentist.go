package estimate

import (
	"slices"

	"github.com/qif-toolkit/qif/core/channel"

	"gonum.org/v1/gonum/mat"

	"github.com/qif-toolkit/qif/core/argerr"
)

// table is the count table of a discrete sample, kept sparse: only its non-empty cells are
// listed (a sample of n observations has at most n, whatever |X̂|·|Ô| is), ordered by observation
// and, within one, by secret. A resampled or shuffled table lists the same cells (x, o) with
// other counts (0 where it has none); a shuffled one may list its own cells.
type table struct {
	rows, cols int
	n          int
	x, o       []int32   // the secret and observation of each listed cell
	cnt        []float64 // its count
	row, col   []float64 // marginal counts
	xlnx       []float64 // c·ln c for c = 0..n, shared by the tables resampled from this one (or nil)
}

// counts builds the count table of s: a counting sort by observation, then a tally of the
// secrets of each observation — O(n + |Ô|), with no sort of labels and no |X̂|·|Ô| array.
func counts(s *Sample) *table {
	s.Discrete()
	return tally(len(s.SecretNames), len(s.ObsNames), s.Secret, s.Obs)
}

// tally is the count table of the pairs (xs[i], os[i]).
func tally(rows, cols int, xs, os []int32) *table {
	start := make([]int32, cols+1)
	for _, o := range os {
		start[o+1]++
	}
	for o := 0; o < cols; o++ {
		start[o+1] += start[o]
	}
	byObs := make([]int32, len(os))
	fill := slices.Clone(start[:cols])
	for i, o := range os {
		byObs[fill[o]] = xs[i]
		fill[o]++
	}
	t := &table{rows: rows, cols: cols, n: len(xs)}
	scratch := make([]float64, rows)
	var touched []int32
	for o := 0; o < cols; o++ {
		for _, x := range byObs[start[o]:start[o+1]] {
			if scratch[x] == 0 {
				touched = append(touched, x)
			}
			scratch[x]++
		}
		slices.Sort(touched)
		for _, x := range touched {
			t.x, t.o, t.cnt = append(t.x, x), append(t.o, int32(o)), append(t.cnt, scratch[x])
			scratch[x] = 0
		}
		touched = touched[:0]
	}
	t.margins()
	return t
}

// like returns an empty table listing the same cells as t, for resampled counts.
func (t *table) like() *table {
	return &table{rows: t.rows, cols: t.cols, n: t.n, x: t.x, o: t.o, cnt: make([]float64, len(t.cnt)), xlnx: t.xlnx}
}

// margins recomputes the row and column sums.
func (t *table) margins() {
	if t.row == nil {
		t.row, t.col = make([]float64, t.rows), make([]float64, t.cols)
	}
	clear(t.row)
	clear(t.col)
	for k, c := range t.cnt {
		t.row[t.x[k]] += c
		t.col[t.o[k]] += c
	}
}

// Channel is a frequentist estimate of a channel and its prior.
type Channel struct {
	// Channel[x][o] = count(x, o)/count(x).
	Channel *mat.Dense
	// Prior[x] = count(x)/n.
	Prior []float64
	// Secrets and Observations name the rows and columns (sorted, see the package doc).
	Secrets, Observations []string
	// Counts[x][o] = count(x, o).
	Counts *mat.Dense
}

// FrequentistChannel returns the frequentist channel Ĉ[x][o] = count(x, o)/count(x) and prior
// π̂(x) = count(x)/n of a sample. Distinct vector observations are distinct columns.
func FrequentistChannel(s *Sample) (*Channel, error) { return FrequentistChannelProgress(s, nil) }

// ChannelSteps is the number of steps FrequentistChannelProgress reports: the observation names
// sorted, the samples counted, the channel and counts filled.
const ChannelSteps = 3

// FrequentistChannelProgress is FrequentistChannel calling progress (when not nil) with the steps
// done and ChannelSteps after each step; when it returns false the estimate stops with
// ErrCancelled (and no result).
func FrequentistChannelProgress(s *Sample, progress func(done, total int) bool) (*Channel, error) {
	step := func(done int) bool { return progress == nil || progress(done, ChannelSteps) }
	if err := s.SortObservations(); err != nil {
		return nil, err
	}
	r, c := len(s.SecretNames), len(s.ObsNames)
	if r*c > MaxCells || r*c < 0 {
		return nil, argerr.New("observations", "%d distinct observations and %d secrets make a %d×%d count table, more than the limit of %d cells (continuous observations need bayesRisk with the nn or knn rule)", c, r, r, c, MaxCells)
	}
	if !step(1) {
		return nil, ErrCancelled
	}
	t := counts(s)
	if !step(2) {
		return nil, ErrCancelled
	}
	C, N := mat.NewDense(r, c, nil), mat.NewDense(r, c, nil)
	raw, cnt := C.RawMatrix().Data, N.RawMatrix().Data
	for k, v := range t.cnt {
		i := int(t.x[k])*c + int(t.o[k])
		cnt[i] = v
		raw[i] = v / t.row[t.x[k]]
	}
	prior := make([]float64, r)
	for x := range prior {
		prior[x] = t.row[x] / float64(t.n)
	}
	if !step(3) {
		return nil, ErrCancelled
	}
	return &Channel{Channel: C, Prior: prior, Secrets: s.SecretNames, Observations: s.ObsNames, Counts: N}, nil
}

// Draw returns n samples (x_i, y_i) with x_i ~ prior and y_i ~ C[x_i], as row and column
// indices, reproducible from seed (the same seed gives the same samples on every platform).
// The channel and the prior are validated as everywhere (package channel: rows and prior sum to 1
// within channel.Tolerance).
func Draw(prior []float64, C mat.Matrix, n int, seed uint64) (secrets, observations []int32, err error) {
	if n < 0 {
		return nil, nil, argerr.New("n", "expected a non-negative integer, got %d", n)
	}
	if err := channel.Validate(C); err != nil {
		return nil, nil, err
	}
	if err := channel.ValidatePrior(prior, C); err != nil {
		return nil, nil, err
	}
	r, c := C.Dims()
	rowCum := make([][]float64, r)
	for x := 0; x < r; x++ {
		row := make([]float64, c)
		for y := range row {
			row[y] = C.At(x, y)
		}
		rowCum[x] = cumulative(row)
	}
	pc := cumulative(prior)
	rng := newRand(seed)
	secrets, observations = make([]int32, n), make([]int32, n)
	for i := 0; i < n; i++ {
		x := pick(pc, rng)
		secrets[i] = int32(x)
		observations[i] = int32(pick(rowCum[x], rng))
	}
	return secrets, observations, nil
}

// cumulative returns the running sums of p with the last one set to exactly 1.
func cumulative(p []float64) []float64 {
	out := make([]float64, len(p))
	s := 0.0
	for i, v := range p {
		s += v
		out[i] = s
	}
	// From the last positive entry on, the sums are exactly 1 (not 1 − rounding), so that every
	// u < 1 is below one of them, and pick, which returns the first entry above u, never returns
	// an entry of probability 0.
	for i := len(out) - 1; i >= 0; i-- {
		out[i] = 1
		if p[i] > 0 {
			break
		}
	}
	return out
}

// pick draws an index with probabilities given by the cumulative sums cum (binary search).
func pick(cum []float64, rng *rng) int {
	u := rng.Float64()
	lo, hi := 0, len(cum)-1
	for lo < hi {
		mid := (lo + hi) / 2
		if u < cum[mid] {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}
