package measure

import (
	"math"

	"github.com/qif-toolkit/qif/core/argerr"
	"github.com/qif-toolkit/qif/core/channel"
	"github.com/qif-toolkit/qif/core/internal/fsum"
	"gonum.org/v1/gonum/mat"
)

// matrix is a read-only row-major view of a validated matrix: entry [i][j] is
// data[i*stride+j].
type matrix struct {
	rows, cols, stride int
	data               []float64
}

// row returns row i as a slice of length cols.
func (m matrix) row(i int) []float64 { return m.data[i*m.stride : i*m.stride+m.cols] }

// view returns the raw storage of m, copying it when m is not a *mat.Dense.
// The caller must have checked that m is non-nil and non-empty.
func view(m mat.Matrix) matrix {
	d, ok := m.(*mat.Dense)
	if !ok {
		d = mat.DenseCopyOf(m)
	}
	raw := d.RawMatrix()
	return matrix{rows: raw.Rows, cols: raw.Cols, stride: raw.Stride, data: raw.Data}
}

// isEmpty reports whether m is nil or has no entries, without letting gonum panic.
func isEmpty(m mat.Matrix) bool {
	if m == nil {
		return true
	}
	if d, ok := m.(*mat.Dense); ok {
		if d == nil || d.IsEmpty() {
			return true
		}
	}
	r, c := m.Dims()
	return r == 0 || c == 0
}

// channelView validates c as a channel named name and returns its raw view.
//
// The scan over the raw storage is the same test as channel.ValidateNamed, summed in the same
// order; only when it finds a problem is channel.ValidateNamed called, to produce the canonical
// error message. This keeps validation of a 2000×2000 channel a single tight pass instead of
// four million interface calls to At.
func channelView(name string, c mat.Matrix) (matrix, error) {
	if isEmpty(c) {
		return matrix{}, channel.ValidateNamed(name, c)
	}
	r, k := c.Dims()
	if float64(r)*float64(k) > channel.MaxEntries {
		return matrix{}, channel.ValidateNamed(name, c)
	}
	v := view(c)
	for i := 0; i < v.rows; i++ {
		// A NaN or infinite entry makes the sum NaN or infinite, which fails the sum test, so
		// the loop only tracks the sum and the smallest entry (Go's WebAssembly backend pays
		// for every extra branch in this pass).
		s, low := 0.0, 0.0
		for _, x := range v.row(i) {
			s += x
			if x < low {
				low = x
			}
		}
		if low < 0 || !(math.Abs(s-1) <= channel.Tolerance) {
			return matrix{}, validateOrBug(name, c)
		}
	}
	return v, nil
}

// validateOrBug returns the error of channel.ValidateNamed, which must reject c because the
// fast scan did; it never returns nil.
func validateOrBug(name string, c mat.Matrix) error {
	if err := channel.ValidateNamed(name, c); err != nil {
		return err
	}
	return argerr.New(name, "invalid channel")
}

// priorAndChannel validates a prior and a channel of matching size.
func priorAndChannel(prior []float64, c mat.Matrix) (matrix, error) {
	if err := channel.ValidateDistribution("prior", prior); err != nil {
		return matrix{}, err
	}
	v, err := channelView("channel", c)
	if err != nil {
		return matrix{}, err
	}
	if v.rows != len(prior) {
		return matrix{}, argerr.New("prior", "has %d entries but the channel has %d rows", len(prior), v.rows)
	}
	return v, nil
}

// gainView validates a gain (or loss) matrix named name for secrets of size n: non-empty, at most
// channel.MaxEntries entries, finite entries (any sign), and n columns.
func gainView(name string, g mat.Matrix, n int) (matrix, error) {
	if isEmpty(g) {
		return matrix{}, argerr.New(name, "empty matrix")
	}
	r, k := g.Dims()
	if float64(r)*float64(k) > channel.MaxEntries {
		return matrix{}, argerr.New(name, "%d×%d has %.3g entries, more than the limit of %d", r, k, float64(r)*float64(k), channel.MaxEntries)
	}
	if k != n {
		return matrix{}, argerr.New(name, "has %d columns but there are %d secrets (columns are secrets, rows are guesses)", k, n)
	}
	v := view(g)
	for i := 0; i < v.rows; i++ {
		for j, x := range v.row(i) {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return matrix{}, argerr.Cell(name, i, j, "is %v, expected a finite number", x)
			}
		}
	}
	return v, nil
}

// twoDistributions validates P and Q as distributions of equal length.
func twoDistributions(p, q []float64) error {
	if err := channel.ValidateDistribution("P", p); err != nil {
		return err
	}
	if err := channel.ValidateDistribution("Q", q); err != nil {
		return err
	}
	if len(p) != len(q) {
		return argerr.New("Q", "has %d entries but P has %d", len(q), len(p))
	}
	return nil
}

// outputs returns p(y) = Σ_x π_x C[x][y] for every column y.
func outputs(prior []float64, c matrix) []float64 {
	py := make([]float64, c.cols)
	for x, px := range prior {
		if px == 0 {
			continue
		}
		row := c.row(x)
		py := py[:len(row)]
		for y, v := range row {
			py[y] += px * v
		}
	}
	return py
}

// jointColumnMax returns max_x J[x][y] = max_x π_x C[x][y] for every column y.
func jointColumnMax(prior []float64, c matrix) []float64 {
	mx := make([]float64, c.cols)
	for x, px := range prior {
		if px == 0 {
			continue
		}
		row := c.row(x)
		mx := mx[:len(row)]
		for y, v := range row {
			if j := px * v; j > mx[y] {
				mx[y] = j
			}
		}
	}
	return mx
}

// sum is Σ v, compensated (vulnerabilities and leakages are sums of maxima).
func sum(v []float64) float64 {
	var s fsum.Sum
	for _, x := range v {
		s.Add(x)
	}
	return s.Value()
}

func maxOf(v []float64) float64 {
	m := math.Inf(-1)
	for _, x := range v {
		if x > m {
			m = x
		}
	}
	return m
}
