package exact

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/qif-toolkit/qif/core/argerr"
)

// MaxEntries bounds rows×columns of one exact matrix (and the length of one vector). A
// million rationals take tens of megabytes; larger inputs belong to the floating-point
// packages.
const MaxEntries = 1_000_000

// MaxWork bounds the estimated cost of one exact computation, in word operations (about the
// cost of multiplying two 64-bit words, with the loop around it). Each function estimates its
// cost from the sizes and the bit lengths of its numbers before it starts and refuses a
// computation above MaxWork: see checkWork and checkProducts for the two kinds of operation.
// On the channels of BenchmarkMeasures the estimates run at 2·10⁷ to 2·10⁸ word operations per
// second natively (measured on a shared 2-core machine), so a computation at MaxWork takes
// between half a second and five seconds natively, a few times more in WebAssembly.
const MaxWork = 1e8

// Costs of one operation beyond its words, in word operations (fitted on BenchmarkMeasures).
const (
	ratOverhead    = 100 // a big.Rat product or sum: allocation and the gcd's set-up
	linearOverhead = 8   // an integer multiply-add or comparison
)

// bits is the largest bit length of a numerator or denominator among the entries.
func bits(vs ...[]*big.Rat) int {
	b := 1
	for _, v := range vs {
		for _, r := range v {
			if r == nil {
				continue
			}
			b = max(b, r.Num().BitLen(), r.Denom().BitLen())
		}
	}
	return b
}

// checkWork refuses about ops rational operations (products, sums, reductions) on numbers of
// up to b bits when they exceed MaxWork: each costs about ratOverhead + w² word operations,
// w = 1 + b/64 (the gcd that reduces a result is quadratic). names lists the arguments that
// make it large.
func checkWork(names string, ops float64, b int) error {
	w := 1 + float64(b)/64
	return checkCost(names, ops, b, ops*(ratOverhead+w*w))
}

func checkCost(names string, ops float64, b int, work float64) error {
	if work > MaxWork {
		return argerr.New(names, "too large for exact arithmetic (about %.2g operations on numbers of up to %d bits, %.2g word operations; the limit is %.2g): use the floating-point function, or fewer or shorter numbers", ops, b, work, MaxWork)
	}
	return nil
}

// checkMatrix checks that m is a non-empty matrix of consistent size with every entry set.
func checkMatrix(name string, m *Matrix) error {
	if m == nil {
		return argerr.New(name, "missing matrix")
	}
	if m.Rows < 1 || m.Cols < 1 {
		return argerr.New(name, "empty matrix (%d×%d)", m.Rows, m.Cols)
	}
	if float64(m.Rows)*float64(m.Cols) > MaxEntries {
		return argerr.New(name, "%d×%d has more than the limit of %d entries for exact arithmetic", m.Rows, m.Cols, MaxEntries)
	}
	if len(m.Data) != m.Rows*m.Cols {
		return argerr.New(name, "%d entries for a %d×%d matrix", len(m.Data), m.Rows, m.Cols)
	}
	for k, r := range m.Data {
		if r == nil {
			return argerr.Cell(name, k/m.Cols, k%m.Cols, "is missing")
		}
	}
	return nil
}

// ValidateDistribution checks that p is a probability distribution in exact arithmetic:
// non-empty, no negative entry, and a sum of exactly 1. The error names the argument and, for
// the sum, gives it exactly ("prior: sums to 9/10, expected exactly 1").
func ValidateDistribution(name string, p Vector) error {
	if len(p) == 0 {
		return argerr.New(name, "empty distribution")
	}
	if len(p) > MaxEntries {
		return argerr.New(name, "%d entries, more than the limit of %d for exact arithmetic", len(p), MaxEntries)
	}
	for i, r := range p {
		if r == nil {
			return argerr.Entry(name, i, "is missing")
		}
		if r.Sign() < 0 {
			return argerr.Entry(name, i, "is negative (%s)", inMessage(r))
		}
	}
	s, err := sum(name, p)
	if err != nil {
		return err
	}
	if s.Cmp(one) != 0 {
		return argerr.New(name, "sums to %s, expected exactly 1%s", inMessage(s), roundedHint(s))
	}
	return nil
}

// roundedHint is the advice added to "sums to s, expected exactly 1" when s misses 1 by what
// floating point would (between 10⁻²⁰ and 10⁻⁹): entries written as numbers (1/3 is
// 0.3333333333333333 in JavaScript, read as that decimal exactly) rather than as fractions.
func roundedHint(s *big.Rat) string {
	d := new(big.Rat).Sub(s, one)
	d.Abs(d)
	if d.Cmp(big.NewRat(1, 1_000_000_000)) > 0 || d.Cmp(new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Exp(big.NewInt(10), big.NewInt(20), nil))) < 0 {
		return ""
	}
	return ` — close to 1, as when fractions are written as numbers (1/3 is 0.3333333333333333): write them as strings, such as "1/3"`
}

// ValidateChannel checks that c is a channel in exact arithmetic: a non-empty matrix with no
// negative entry whose every row sums to exactly 1. The error names the argument and the
// first offending row with its exact sum ("channel: row 2 sums to 11/12, expected exactly 1").
func ValidateChannel(name string, c *Matrix) error {
	if err := checkMatrix(name, c); err != nil {
		return err
	}
	for i := 0; i < c.Rows; i++ {
		for j, r := range c.Row(i) {
			if r.Sign() < 0 {
				return argerr.Cell(name, i, j, "is negative (%s)", inMessage(r))
			}
		}
		s, err := sum(name, c.Row(i))
		if err != nil {
			return err
		}
		if s.Cmp(one) != 0 {
			return argerr.Row(name, i, "sums to %s, expected exactly 1%s", inMessage(s), roundedHint(s))
		}
	}
	return nil
}

// priorAndChannel validates a prior and a channel on the same secrets.
func priorAndChannel(prior Vector, c *Matrix) error {
	if err := ValidateDistribution("prior", prior); err != nil {
		return err
	}
	if err := ValidateChannel("channel", c); err != nil {
		return err
	}
	if len(prior) != c.Rows {
		return argerr.New("prior", "has %d entries but the channel has %d rows", len(prior), c.Rows)
	}
	return nil
}

// gainFor validates a gain (or loss) matrix whose columns are the n secrets.
func gainFor(name string, g *Matrix, n int) error {
	if err := checkMatrix(name, g); err != nil {
		return err
	}
	if g.Cols != n {
		return argerr.New(name, "has %d columns but there are %d secrets (rows = guesses, columns = secrets)", g.Cols, n)
	}
	return nil
}

var one = big.NewRat(1, 1)

// inMessage writes a number for an error message: the reduced fraction, or, when its numerator
// or denominator has more than 24 digits, their first and last digits with the digit counts and
// the nearest float64, so that one message never carries hundreds of digits ("sums to
// 100000000000…000001/100000000000…000000 (301/301 digits, ≈ 1)").
func inMessage(r *big.Rat) string {
	num, den := r.Num().String(), r.Denom().String()
	if len(num) <= 24 && len(den) <= 24 {
		return r.RatString()
	}
	cut := func(s string) string {
		digits := strings.TrimPrefix(s, "-")
		if len(digits) <= 24 {
			return s
		}
		return s[:len(s)-len(digits)] + digits[:12] + "…" + digits[len(digits)-6:]
	}
	f, _ := r.Float64()
	count := func(s string) int { return len(strings.TrimPrefix(s, "-")) }
	return fmt.Sprintf("%s/%s (%d/%d digits, ≈ %.6g)", cut(num), cut(den), count(num), count(den), f)
}
