package exact

import (
	"math/big"

	"github.com/qif-toolkit/qif/core/argerr"
)

// jointDenominatorAffordable refuses, before any of the work, a computation that takes ops
// products of two numbers as long as the common denominator L of the joint distribution
// J[x][y] = π_x·C[x][y] when a lower bound on L is already too long for them (checkProducts).
//
// The bound: for π_x > 0, C[x][y] = J[x][y] / π_x, so den(C[x][y]) divides den(J[x][y])·num(π_x);
// hence the least common multiple D of the channel's denominators on the rows of positive
// prior divides L·N, N the least common multiple of the prior's positive numerators, and
// bits(L) ≥ bits(D) − bits(N). D is computed only up to the length that decides (a channel
// typed with a different denominator per row stops after a few rows), at the cost of one
// remainder per distinct denominator — against the million products of building the joint
// and writing it over L that the refusal otherwise came after.
func jointDenominatorAffordable(names string, prior Vector, C *Matrix, ops float64) error {
	// The longest L the products can afford.
	affordable := func(b int) bool { return checkProducts(names, ops, b, b) == nil }
	if !affordable(1) {
		return checkProducts(names, ops, 1, 1)
	}
	lo, hi := 1, MaxDenominatorBits // affordable(lo), and hi is the bound searched up to
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if affordable(mid) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	maxL := lo
	n := big.NewInt(1)
	g := new(big.Int)
	for _, p := range prior {
		if p.Sign() > 0 && (!p.Num().IsInt64() || p.Num().Int64() > 1) {
			g.GCD(nil, nil, n, p.Num())
			n.Mul(n, new(big.Int).Quo(p.Num(), g))
		}
	}
	// bits(L) ≥ bits(D) − bits(N) > maxL as soon as bits(D) > maxL + bits(N).
	limit := maxL + n.BitLen()
	d := big.NewInt(1)
	r := new(big.Int)
	var last *big.Int // denominators repeat along a row
	for x, p := range prior {
		if p.Sign() == 0 {
			continue
		}
		for _, v := range C.Row(x) {
			den := v.Denom()
			if last != nil && den.Cmp(last) == 0 || den.IsInt64() && den.Int64() == 1 {
				continue
			}
			last = den
			if r.Rem(d, den).Sign() == 0 {
				continue
			}
			g.GCD(nil, nil, d, den)
			d.Mul(d, r.Quo(den, g))
			if d.BitLen() > limit {
				return argerr.New(names, "too large for exact arithmetic: the joint distribution's common denominator has more than %d bits (the channel's denominators alone need more than %d), and the %.2g products of numbers that long the measure takes exceed the work limit of %.2g word operations: use the floating-point function, or fewer or shorter numbers", maxL, limit, ops, MaxWork)
			}
		}
	}
	return nil
}
