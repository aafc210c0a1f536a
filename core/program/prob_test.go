package program

import (
	"math/big"
	"math/rand"
	"testing"
)

// The two-word probabilities against math/big on random fractions, near 2^64 included, where
// products and sums must move to big.Rat without losing anything.
func TestProbArithmetic(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	pick := func() *big.Rat {
		switch r.Intn(4) {
		case 0: // a power-of-two denominator, as fair coins give
			d := uint64(1) << uint(r.Intn(64))
			return new(big.Rat).SetFrac(new(big.Int).SetUint64(r.Uint64()%d), new(big.Int).SetUint64(d))
		case 1: // near the limit of a word
			d := ^uint64(0) - uint64(r.Intn(1000))
			return new(big.Rat).SetFrac(new(big.Int).SetUint64(r.Uint64()%d), new(big.Int).SetUint64(d))
		case 2: // beyond a word
			d := new(big.Int).Lsh(big.NewInt(int64(3+r.Intn(100))), 70)
			return new(big.Rat).SetFrac(new(big.Int).Rand(r, d), d)
		}
		d := int64(1 + r.Intn(1000))
		return big.NewRat(r.Int63n(d+1), d)
	}
	for i := 0; i < 20000; i++ {
		a, b := pick(), pick()
		pa, pb := probOf(a), probOf(b)
		if got, want := mulP(pa, pb).Rat(), new(big.Rat).Mul(a, b); got.Cmp(want) != 0 {
			t.Fatalf("%s · %s = %s, want %s", a, b, got, want)
		}
		if got, want := addP(pa, pb).Rat(), new(big.Rat).Add(a, b); got.Cmp(want) != 0 {
			t.Fatalf("%s + %s = %s, want %s", a, b, got, want)
		}
		if got, want := complement(pa).Rat(), new(big.Rat).Sub(big.NewRat(1, 1), a); got.Cmp(want) != 0 {
			t.Fatalf("1 − %s = %s, want %s", a, got, want)
		}
		if p := mulP(pa, pb); p.r == nil && gcd64(p.n, p.d) > 1 && p.n != 0 {
			t.Fatalf("%d/%d is not reduced", p.n, p.d)
		}
	}
}
