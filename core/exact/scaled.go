package exact

import (
	"math/big"

	"github.com/qif-toolkit/qif/core/argerr"
)

// Sums of fractions with different denominators are what makes exact arithmetic slow: adding
// n terms one by one reduces a growing fraction n times, and the denominators of typed
// channels differ from row to row. The functions of this package therefore bring each matrix
// to one common denominator L first (the least common multiple of its entries'
// denominators) and work with the integer numerators: sums, maxima and comparisons are then
// integer operations that grow linearly with the size of L, and each result is reduced once.
// On 200×200 channels with a different denominator per row this is 50–100 times faster than
// summing big.Rat values.

// MaxDenominatorBits bounds the common denominator of one matrix, in bits. Inputs whose
// denominators are many and large enough to exceed it are refused.
const MaxDenominatorBits = 1 << 20

// scaled is a rows×cols matrix of rationals over one common denominator: entry (i, j) is
// num[i*cols+j]/den, den > 0.
type scaled struct {
	rows, cols int
	num        []*big.Int
	den        *big.Int
}

func (s *scaled) at(i, j int) *big.Int { return s.num[i*s.cols+j] }

// lcmOfDenominators is the least common multiple of the denominators of data, or an error
// naming the argument when it has more than MaxDenominatorBits bits.
func lcmOfDenominators(name string, data []*big.Rat) (*big.Int, error) {
	return lcmWithin(name, data, MaxDenominatorBits)
}

// lcmWithin is lcmOfDenominators with a smaller bound: a caller that can afford only so many
// bits stops the computation there rather than after building a denominator of a million
// bits (which on a 700×700 channel with a different denominator per row took most of a
// minute before the refusal).
func lcmWithin(name string, data []*big.Rat, maxBits int) (*big.Int, error) {
	l := big.NewInt(1)
	r, g := new(big.Int), new(big.Int)
	var last *big.Int // denominators repeat along a row: skip the division then
	for _, v := range data {
		d := v.Denom()
		if last != nil && d.Cmp(last) == 0 {
			continue
		}
		last = d
		if d.Cmp(l) == 0 || d.IsInt64() && d.Int64() == 1 {
			continue
		}
		if r.Rem(l, d).Sign() == 0 {
			continue
		}
		g.GCD(nil, nil, l, d)
		l.Mul(l, r.Quo(d, g))
		if l.BitLen() > maxBits {
			if maxBits < MaxDenominatorBits {
				return nil, argerr.New(name, "too large for exact arithmetic: the common denominator of the %d entries has more than %d bits, more than the work limit of %.2g word operations allows (use the floating-point function, or fewer or shorter numbers)", len(data), maxBits, MaxWork)
			}
			return nil, argerr.New(name, "the common denominator of the entries has more than %d bits: too large for exact arithmetic", MaxDenominatorBits)
		}
	}
	return l, nil
}

// affordableBits is the largest bit length b for which ops multiply-adds of a-bit by b-bit
// numbers stay within MaxWork (the cost model of checkProducts), at least 64.
func affordableBits(ops float64, a int) int {
	wa := 1 + float64(a)/64
	wb := (MaxWork/ops - linearOverhead) * 4 / wa
	if wb > float64(MaxDenominatorBits)/64 {
		return MaxDenominatorBits
	}
	return max(64, int(64*(wb-1)))
}

// scale writes data (rows×cols) over the common denominator l, a multiple of every
// denominator.
func scale(data []*big.Rat, rows, cols int, l *big.Int) *scaled {
	s := &scaled{rows: rows, cols: cols, num: make([]*big.Int, len(data)), den: l}
	var last *big.Int // data often repeats a denominator along a row
	f := new(big.Int)
	for k, v := range data {
		if last == nil || v.Denom().Cmp(last) != 0 {
			last = v.Denom()
			f.Quo(l, last)
		}
		s.num[k] = new(big.Int).Mul(v.Num(), f)
	}
	return s
}

// scaledOf brings data to its least common denominator, checking the cost of the scaling
// before it (the common denominator is computed only up to the size the scaling can afford).
func scaledOf(name string, data []*big.Rat, rows, cols int) (*scaled, error) {
	b := bits(data)
	if err := checkProducts(name, float64(len(data)), b, 1); err != nil {
		return nil, err
	}
	l, err := lcmWithin(name, data, affordableBits(float64(len(data)), b))
	if err != nil {
		return nil, err
	}
	if err := checkProducts(name, float64(len(data)), b, l.BitLen()); err != nil {
		return nil, err
	}
	return scale(data, rows, cols, l), nil
}

// joint returns J[x][y] = π_x C[x][y] over its least common denominator, for validated inputs
// of checked size.
func joint(prior Vector, C *Matrix) (*scaled, error) {
	j := make([]*big.Rat, C.Rows*C.Cols)
	for x, px := range prior {
		for y, c := range C.Row(x) {
			j[x*C.Cols+y] = new(big.Rat).Mul(px, c)
		}
	}
	return scaledOf("prior, channel", j, C.Rows, C.Cols)
}

// colSums returns Σ_i num[i][j] for every column j.
func (s *scaled) colSums() []*big.Int {
	out := make([]*big.Int, s.cols)
	for j := range out {
		out[j] = new(big.Int)
	}
	for i := 0; i < s.rows; i++ {
		for j, v := range s.num[i*s.cols : (i+1)*s.cols] {
			if v.Sign() != 0 {
				out[j].Add(out[j], v)
			}
		}
	}
	return out
}

// frac returns num/den as a reduced rational.
func frac(num, den *big.Int) *big.Rat { return new(big.Rat).SetFrac(num, den) }

// fracOf is frac for a product of denominators.
func fracOf(num *big.Int, dens ...*big.Int) *big.Rat {
	d := big.NewInt(1)
	for _, x := range dens {
		d.Mul(d, x)
	}
	return frac(num, d)
}

// checkProducts refuses about ops integer multiply-adds of an a-bit by a b-bit number when
// they exceed MaxWork; each costs linearOverhead + wa·wb/4 word operations, w = 1 + bits/64
// (the inner loops of math/big multiply about four words in the time of the work unit; a
// comparison or a sum is a product with a one-word number).
func checkProducts(names string, ops float64, a, b int) error {
	wa, wb := 1+float64(a)/64, 1+float64(b)/64
	return checkCost(names, ops, max(a, b), ops*(linearOverhead+wa*wb/4))
}

// sum is Σ v exactly, over the common denominator (one reduction instead of len(v)).
func sum(name string, v []*big.Rat) (*big.Rat, error) {
	l, err := lcmOfDenominators(name, v)
	if err != nil {
		return nil, err
	}
	if err := checkProducts(name, float64(len(v)), bits(v), l.BitLen()); err != nil {
		return nil, err
	}
	s := scale(v, 1, len(v), l)
	t := new(big.Int)
	for _, x := range s.num {
		t.Add(t, x)
	}
	return frac(t, l), nil
}
