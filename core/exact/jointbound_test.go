package exact

import (
	"errors"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/qif-toolkit/qif/core/argerr"
)

// kOverSum is an n×n channel of the fractions a user types: row x is k_y/Σk with k_y in 1..9,
// so that the rows have different denominators.
func kOverSum(n int, seed uint64) *Matrix {
	rng := rand.New(rand.NewPCG(seed, seed+1))
	C := NewMatrix(n, n)
	k := make([]int64, n)
	for x := 0; x < n; x++ {
		z := int64(0)
		for y := range k {
			k[y] = 1 + rng.Int64N(9)
			z += k[y]
		}
		for y := range k {
			C.Data[x*n+y] = big.NewRat(k[y], z)
		}
	}
	return C
}

func uniformVector(n int) Vector {
	v := make(Vector, n)
	for i := range v {
		v[i] = big.NewRat(1, int64(n))
	}
	return v
}

// The additive capacity over 1-spanning gain functions of a 700×700 channel of fractions k/Σk
// is refused before the joint distribution is built, naming the arguments and the reason; and
// the refusal is the one the whole computation reaches: the joint's common denominator, built
// here, is longer than the products can afford, and at least as long as the bound says.
func TestOneSpanningGainRefusedUpFront(t *testing.T) {
	n := 700
	C, prior := kOverSum(n, 7), uniformVector(n)
	_, err := AdditiveGCapacity(prior, C, OneSpanningGain)
	var ae *argerr.Error
	if !errors.As(err, &ae) || ae.Arg != "prior, channel" || !strings.Contains(err.Error(), "too large for exact arithmetic: the joint distribution's common denominator has more than") {
		t.Fatalf("got %v", err)
	}
	J, err := joint(prior, C)
	if err != nil {
		t.Fatal(err)
	}
	ops := 2 * float64(n) * float64(n)
	if b := J.den.BitLen(); checkProducts("prior, channel", ops, b, b) == nil {
		t.Fatalf("the joint's denominator has %d bits, which the products afford: refused wrongly", b)
	}
	D, err := lcmOfDenominators("channel", C.Data)
	if err != nil {
		t.Fatal(err)
	}
	if J.den.BitLen() < D.BitLen() { // the prior's numerators are 1: bits(L) ≥ bits(D)
		t.Fatalf("joint denominator %d bits, channel's %d", J.den.BitLen(), D.BitLen())
	}
}

// Below the limit the bound refuses nothing: a 40×40 channel of fractions k/Σk under a prior
// whose numerators could cancel the channel's denominators gets its capacity, equal to
// ½ Σ_y Σ_x |π_x p(y) − J[x][y]| summed here in big.Rat.
func TestOneSpanningGainBelowTheBound(t *testing.T) {
	n := 40
	C := kOverSum(n, 9)
	prior := make(Vector, n)
	total := int64(n * (n + 1) / 2)
	for i := range prior {
		prior[i] = big.NewRat(int64(i+1), total)
	}
	got, err := AdditiveGCapacity(prior, C, OneSpanningGain)
	if err != nil {
		t.Fatal(err)
	}
	want := new(big.Rat)
	for y := 0; y < n; y++ {
		py := new(big.Rat)
		for x := 0; x < n; x++ {
			py.Add(py, new(big.Rat).Mul(prior[x], C.At(x, y)))
		}
		for x := 0; x < n; x++ {
			d := new(big.Rat).Sub(new(big.Rat).Mul(prior[x], py), new(big.Rat).Mul(prior[x], C.At(x, y)))
			want.Add(want, d.Abs(d))
		}
	}
	want.Quo(want, big.NewRat(2, 1))
	if got.Cmp(want) != 0 {
		t.Fatalf("got %s, want %s", got.RatString(), want.RatString())
	}
}
