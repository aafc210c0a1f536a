package exact

import (
	"fmt"
	"math/big"
	"strings"
)

// Posterior is the posterior distribution on secrets after one output.
type Posterior struct {
	Output int      // the output y (column of the channel)
	Prob   *big.Rat // p(y) = Σ_x π_x C[x][y] > 0
	Dist   Vector   // δʸ[x] = π_x C[x][y] / p(y)
}

// Posteriors returns one posterior per output with p(y) > 0, in increasing order of y; outputs
// with p(y) = 0 have none. Equal posteriors are not merged (see Hyper). Every posterior sums to
// exactly 1.
func Posteriors(prior Vector, C *Matrix) ([]Posterior, error) {
	if err := measureInputs(prior, C); err != nil {
		return nil, err
	}
	py := outputDist(prior, C)
	var out []Posterior
	for y, p := range py {
		if p.Sign() == 0 {
			continue
		}
		d := make(Vector, len(prior))
		for x, px := range prior {
			d[x] = new(big.Rat).Mul(px, C.At(x, y))
			d[x].Quo(d[x], p)
		}
		out = append(out, Posterior{Output: y, Prob: p, Dist: d})
	}
	return out, nil
}

// HyperDistribution is [π▷C]: a distribution (Outer) over the distinct posteriors (the rows
// of Inners), in order of first appearance by output index.
type HyperDistribution struct {
	Outer   Vector  // Outer[k] = Σ p(y) over the outputs whose posterior is row k
	Inners  *Matrix // k×|X|, row k the k-th distinct posterior
	Outputs [][]int // Outputs[k]: the outputs, increasing, whose posterior is row k
}

// Hyper returns the hyper-distribution [π▷C]: outputs with p(y) = 0 are dropped and outputs
// with equal posteriors (exactly equal: no tolerance) are merged, their probabilities added.
// Outer sums to exactly 1 and Σ_k Outer[k]·Inners[k] = π exactly.
func Hyper(prior Vector, C *Matrix) (*HyperDistribution, error) {
	post, err := Posteriors(prior, C)
	if err != nil {
		return nil, err
	}
	h := &HyperDistribution{}
	class := map[string]int{}
	var inners []*big.Rat
	for _, p := range post {
		k, seen := class[key(p.Dist)]
		if !seen {
			k = len(h.Outer)
			class[key(p.Dist)] = k
			h.Outer = append(h.Outer, new(big.Rat))
			h.Outputs = append(h.Outputs, nil)
			inners = append(inners, p.Dist...)
		}
		h.Outer[k].Add(h.Outer[k], p.Prob)
		h.Outputs[k] = append(h.Outputs[k], p.Output)
	}
	h.Inners = &Matrix{Rows: len(h.Outer), Cols: len(prior), Data: inners}
	return h, nil
}

// key is a canonical text of a vector of reduced fractions: equal vectors, equal keys.
func key(v Vector) string {
	var b strings.Builder
	for _, r := range v {
		b.WriteString(r.RatString())
		b.WriteByte(',')
	}
	return b.String()
}

// Reduction is a reduced channel with the map from its columns to the original ones.
type Reduction struct {
	Channel *Matrix // the reduced channel
	Columns [][]int // Columns[k]: the original columns summed into column k, increasing
}

// Reduce returns the reduced (abstract) channel of C: all-zero columns are dropped and
// proportional columns (exactly proportional: equal after dividing each by its sum) merged
// into their sum, in order of first appearance. It has the same hyper-distribution as C for
// every prior.
func Reduce(C *Matrix) (*Reduction, error) {
	if err := ValidateChannel("channel", C); err != nil {
		return nil, err
	}
	if err := checkWork("channel", 2*float64(C.Rows)*float64(C.Cols), bits(C.Data)); err != nil {
		return nil, err
	}
	class := map[string]int{}
	var cols [][]int
	col := make(Vector, C.Rows)
	for y := 0; y < C.Cols; y++ {
		s := new(big.Rat)
		for x := 0; x < C.Rows; x++ {
			s.Add(s, C.At(x, y))
		}
		if s.Sign() == 0 {
			continue
		}
		for x := range col {
			col[x] = new(big.Rat).Quo(C.At(x, y), s)
		}
		k, seen := class[key(col)]
		if !seen {
			k = len(cols)
			class[key(col)] = k
			cols = append(cols, nil)
		}
		cols[k] = append(cols[k], y)
	}
	out := NewMatrix(C.Rows, len(cols))
	for x := 0; x < C.Rows; x++ {
		for k, ys := range cols {
			for _, y := range ys {
				out.Data[x*len(cols)+k].Add(out.Data[x*len(cols)+k], C.At(x, y))
			}
		}
	}
	return &Reduction{Channel: out, Columns: cols}, nil
}

// Cascade returns A·B, (A·B)[x][z] = Σ_y A[x][y] B[y][z]: the output of A fed to B.
func Cascade(A, B *Matrix) (*Matrix, error) {
	if err := ValidateChannel("A", A); err != nil {
		return nil, err
	}
	if err := ValidateChannel("B", B); err != nil {
		return nil, err
	}
	if B.Rows != A.Cols {
		return nil, fmt.Errorf("B: has %d rows but A has %d columns", B.Rows, A.Cols)
	}
	if float64(A.Rows)*float64(B.Cols) > MaxEntries {
		return nil, fmt.Errorf("A, B: the cascade would be %d×%d, more than the limit of %d entries", A.Rows, B.Cols, MaxEntries)
	}
	if err := checkWork("A, B", float64(A.Rows)*float64(A.Cols)*float64(B.Cols), bits(A.Data)+bits(B.Data)); err != nil {
		return nil, err
	}
	return mul(A, B), nil
}

// mul is the matrix product, skipping zero entries of A (channels are often sparse).
func mul(A, B *Matrix) *Matrix {
	out := NewMatrix(A.Rows, B.Cols)
	t := new(big.Rat)
	for x := 0; x < A.Rows; x++ {
		dst := out.Row(x)
		for y, a := range A.Row(x) {
			if a.Sign() == 0 {
				continue
			}
			for z, b := range B.Row(y) {
				if b.Sign() != 0 {
					dst[z].Add(dst[z], t.Mul(a, b))
				}
			}
		}
	}
	return out
}

// Parallel returns A∥B, (A∥B)[x][(y,z)] = A[x][y]·B[x][z], the pair (y, z) being column
// y·k + z (k the columns of B): both outputs observed on the same secret.
func Parallel(A, B *Matrix) (*Matrix, error) {
	if err := ValidateChannel("A", A); err != nil {
		return nil, err
	}
	if err := ValidateChannel("B", B); err != nil {
		return nil, err
	}
	if B.Rows != A.Rows {
		return nil, fmt.Errorf("B: has %d rows but A has %d rows", B.Rows, A.Rows)
	}
	n, m, k := A.Rows, A.Cols, B.Cols
	if float64(n)*float64(m)*float64(k) > MaxEntries {
		return nil, fmt.Errorf("A, B: the parallel composition would be %d×%d, more than the limit of %d entries", n, m*k, MaxEntries)
	}
	if err := checkWork("A, B", float64(n)*float64(m)*float64(k), bits(A.Data)+bits(B.Data)); err != nil {
		return nil, err
	}
	out := NewMatrix(n, m*k)
	for x := 0; x < n; x++ {
		for y, a := range A.Row(x) {
			for z, b := range B.Row(x) {
				out.Data[x*m*k+y*k+z].Mul(a, b)
			}
		}
	}
	return out, nil
}
