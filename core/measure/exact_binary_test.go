package measure

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/qif-toolkit/qif/core/internal/bigref"
	"gonum.org/v1/gonum/mat"
)

// What is exact in binary comes out exact: entropies of dyadic distributions, and the mutual
// information of the identity channel (every posterior a point mass), by hand.
func TestExactInBinary(t *testing.T) {
	u8 := make([]float64, 8)
	for i := range u8 {
		u8[i] = 1.0 / 8
	}
	identity := mat.NewDense(8, 8, nil)
	for i := 0; i < 8; i++ {
		identity.Set(i, i, 1)
	}
	check := func(what string, got, want float64, err error) {
		t.Helper()
		if err != nil || got != want {
			t.Errorf("%s = %.17g (%v), want exactly %v", what, got, err, want)
		}
	}
	h, err := ShannonEntropy(u8)
	check("H(uniform 8)", h, 3, err)
	h, err = ShannonEntropy([]float64{0.5, 0.25, 0.25})
	check("H(½,¼,¼)", h, 1.5, err)
	mi, err := MutualInformation(u8, identity)
	check("I(uniform 8; identity)", mi, 3, err)
	hc, err := ConditionalShannonEntropy(u8, identity)
	check("H(X|Y) of the identity", hc, 0, err)
	// A channel that halves the uncertainty: pairs of secrets merged, I = 3 − 1 = 2.
	pairs := mat.NewDense(8, 4, nil)
	for i := 0; i < 8; i++ {
		pairs.Set(i, i/2, 1)
	}
	mi, err = MutualInformation(u8, pairs)
	check("I(uniform 8; pairs)", mi, 2, err)
	kl, err := KLDivergence([]float64{0.5, 0.5, 0, 0}, []float64{0.25, 0.25, 0.25, 0.25})
	check("D((½,½,0,0) ‖ uniform 4)", kl, 1, err)
	l, err := MinEntropyLeakage(u8, identity)
	check("min-entropy leakage of the identity", l, 3, err)
}

// Random priors and channels against 256-bit references: entropy within 2 ulps, mutual
// information within 4 ulps of the terms it is made of, H(X) + H(Y) + H(Y|X) ≤ H(X) + 2 log₂ m
// (they cancel in it).
func TestShannonAgainstBigFloat(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 40; trial++ {
		n, m := 1+rng.IntN(12), 1+rng.IntN(12)
		prior := randomDist(rng, n)
		rows := make([][]float64, n)
		c := mat.NewDense(n, m, nil)
		for x := range rows {
			rows[x] = randomDist(rng, m)
			c.SetRow(x, rows[x])
		}
		h, _ := ShannonEntropy(prior)
		ulp := func(v float64) float64 { return math.Nextafter(math.Abs(v), math.Inf(1)) - math.Abs(v) }
		if ref := bigref.Entropy(prior); math.Abs(h-ref) > 2*ulp(ref) {
			t.Errorf("trial %d: H = %.17g, reference %.17g", trial, h, ref)
		}
		mi, _ := MutualInformation(prior, c)
		ref := bigref.MutualInformation(prior, rows)
		if math.Abs(mi-ref) > 4*ulp(h+2*math.Log2(float64(m))) {
			t.Errorf("trial %d (%d×%d): I = %.17g, reference %.17g", trial, n, m, mi, ref)
		}
	}
}

// randomDist is a distribution on n points, some of them 0.
func randomDist(rng *rand.Rand, n int) []float64 {
	p := make([]float64, n)
	s := 0.0
	for i := range p {
		if rng.IntN(4) != 0 || i == 0 {
			p[i] = rng.ExpFloat64()
			s += p[i]
		}
	}
	for i := range p {
		p[i] /= s
	}
	return p
}
