package estimate

import (
	"github.com/qif-toolkit/qif/core/channel"

	"gonum.org/v1/gonum/mat"

	"github.com/qif-toolkit/qif/core/argerr"
)

// table is the count table of a discrete sample: cell x·cols + o counts the samples with secret x
// and observation o.
type table struct {
	rows, cols int
	n          int
	cell       []float64
	row, col   []float64 // marginal counts
}

// counts builds the count table of s.
func counts(s *Sample) (*table, error) {
	s.Discrete()
	r, c := len(s.SecretNames), len(s.ObsNames)
	if r*c > MaxCells || r*c < 0 {
		return nil, argerr.New("observations", "%d distinct observations and %d secrets make a %d×%d count table, more than the limit of %d cells (continuous observations need bayesRisk with the nn or knn rule)", c, r, r, c, MaxCells)
	}
	t := &table{rows: r, cols: c, n: s.N, cell: make([]float64, r*c)}
	for i, x := range s.Secret {
		t.cell[int(x)*c+int(s.Obs[i])]++
	}
	t.margins()
	return t, nil
}

// margins recomputes the row and column sums.
func (t *table) margins() {
	if t.row == nil {
		t.row, t.col = make([]float64, t.rows), make([]float64, t.cols)
	}
	clear(t.row)
	clear(t.col)
	for x := 0; x < t.rows; x++ {
		for o, v := range t.cell[x*t.cols : (x+1)*t.cols] {
			t.row[x] += v
			t.col[o] += v
		}
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
func FrequentistChannel(s *Sample) (*Channel, error) {
	t, err := counts(s)
	if err != nil {
		return nil, err
	}
	C := mat.NewDense(t.rows, t.cols, nil)
	raw := C.RawMatrix().Data
	prior := make([]float64, t.rows)
	for x := 0; x < t.rows; x++ {
		prior[x] = t.row[x] / float64(t.n)
		for o := 0; o < t.cols; o++ {
			raw[x*t.cols+o] = t.cell[x*t.cols+o] / t.row[x]
		}
	}
	return &Channel{Channel: C, Prior: prior, Secrets: s.SecretNames, Observations: s.ObsNames,
		Counts: mat.NewDense(t.rows, t.cols, t.cell)}, nil
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
