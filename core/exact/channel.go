package exact

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/qif-toolkit/qif/core/argerr"
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
	J, err := jointOf(prior, C)
	if err != nil {
		return nil, err
	}
	if err := checkWork("prior, channel", float64(J.rows)*float64(J.cols), J.den.BitLen()); err != nil {
		return nil, err
	}
	var out []Posterior
	for y, s := range J.colSums() {
		if s.Sign() != 0 {
			out = append(out, Posterior{Output: y, Prob: frac(s, J.den), Dist: column(J, y, s)})
		}
	}
	return out, nil
}

// column returns J[·][y]/s as reduced fractions.
func column(J *scaled, y int, s *big.Int) Vector {
	d := make(Vector, J.rows)
	for x := range d {
		d[x] = frac(J.at(x, y), s)
	}
	return d
}

// primitiveKey is a canonical text of the direction of column y of s: its numerators divided
// by their gcd. Two non-zero columns have equal keys exactly when they are proportional.
func primitiveKey(s *scaled, y int) string {
	g := new(big.Int)
	for x := 0; x < s.rows; x++ {
		g.GCD(nil, nil, g, s.at(x, y))
	}
	var b strings.Builder
	q := new(big.Int)
	for x := 0; x < s.rows; x++ {
		b.WriteString(q.Quo(s.at(x, y), g).String())
		b.WriteByte(',')
	}
	return b.String()
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
	J, err := jointOf(prior, C)
	if err != nil {
		return nil, err
	}
	// The keys and the inners reduce up to n·m fractions of the joint's size.
	if err := checkWork("prior, channel", 2*float64(J.rows)*float64(J.cols), J.den.BitLen()); err != nil {
		return nil, err
	}
	h := &HyperDistribution{}
	class := map[string]int{}
	var inners []*big.Rat
	var outer []*big.Int
	for y, s := range J.colSums() {
		if s.Sign() == 0 {
			continue
		}
		// Posteriors are equal exactly when the joint's columns are proportional.
		key := primitiveKey(J, y)
		k, seen := class[key]
		if !seen {
			k = len(outer)
			class[key] = k
			outer = append(outer, new(big.Int))
			h.Outputs = append(h.Outputs, nil)
			inners = append(inners, column(J, y, s)...)
		}
		outer[k].Add(outer[k], s)
		h.Outputs[k] = append(h.Outputs[k], y)
	}
	for _, o := range outer {
		h.Outer = append(h.Outer, frac(o, J.den))
	}
	h.Inners = &Matrix{Rows: len(outer), Cols: len(prior), Data: inners}
	return h, nil
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
	c, err := channelScaled(C)
	if err != nil {
		return nil, err
	}
	// The keys and the result reduce up to 2·n·m fractions of the channel's size.
	if err := checkWork("channel", 2*float64(C.Rows)*float64(C.Cols), c.den.BitLen()); err != nil {
		return nil, err
	}
	class := map[string]int{}
	var cols [][]int
	for y, s := range c.colSums() {
		if s.Sign() == 0 {
			continue
		}
		key := primitiveKey(c, y)
		k, seen := class[key]
		if !seen {
			k = len(cols)
			class[key] = k
			cols = append(cols, nil)
		}
		cols[k] = append(cols[k], y)
	}
	out := &Matrix{Rows: C.Rows, Cols: len(cols), Data: make([]*big.Rat, C.Rows*len(cols))}
	t := new(big.Int)
	for x := 0; x < C.Rows; x++ {
		for k, ys := range cols {
			t.SetInt64(0)
			for _, y := range ys {
				t.Add(t, c.at(x, y))
			}
			out.Data[x*len(cols)+k] = frac(t, c.den)
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
		return nil, argerr.New("B", "has %d rows but A has %d columns", B.Rows, A.Cols)
	}
	if float64(A.Rows)*float64(B.Cols) > MaxEntries {
		return nil, fmt.Errorf("A, B: the cascade would be %d×%d, more than the limit of %d entries", A.Rows, B.Cols, MaxEntries)
	}
	return mul(A, B)
}

// mul is the matrix product A·B, each row of A written over its own common denominator and B
// over one (so that the dot products are integer sums, reduced once per entry).
func mul(A, B *Matrix) (*Matrix, error) {
	b, err := scaledOf("B", B.Data, B.Rows, B.Cols)
	if err != nil {
		return nil, err
	}
	rows := make([]*scaled, A.Rows)
	ba := 1
	for x := range rows {
		if rows[x], err = scaledOf("A", A.Row(x), 1, A.Cols); err != nil {
			return nil, err
		}
		ba = max(ba, rows[x].den.BitLen()+bits(A.Row(x)))
	}
	ops := float64(A.Rows) * float64(A.Cols) * float64(B.Cols)
	if err := checkProducts("A, B", ops, ba, b.den.BitLen()); err != nil {
		return nil, err
	}
	if err := checkWork("A, B", float64(A.Rows)*float64(B.Cols), ba+b.den.BitLen()+bits(B.Data)); err != nil {
		return nil, err
	}
	out := &Matrix{Rows: A.Rows, Cols: B.Cols, Data: make([]*big.Rat, A.Rows*B.Cols)}
	acc := make([]*big.Int, B.Cols)
	for z := range acc {
		acc[z] = new(big.Int)
	}
	t, den := new(big.Int), new(big.Int)
	for x, a := range rows {
		for z := range acc {
			acc[z].SetInt64(0)
		}
		for y, ay := range a.num {
			if ay.Sign() == 0 {
				continue
			}
			for z, bz := range b.num[y*B.Cols : (y+1)*B.Cols] {
				if bz.Sign() != 0 {
					acc[z].Add(acc[z], t.Mul(ay, bz))
				}
			}
		}
		den.Mul(a.den, b.den)
		for z, v := range acc {
			out.Data[x*B.Cols+z] = frac(v, den)
		}
	}
	return out, nil
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
		return nil, argerr.New("B", "has %d rows but A has %d rows", B.Rows, A.Rows)
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
