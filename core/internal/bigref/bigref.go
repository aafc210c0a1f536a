// Package bigref computes references for the tests in 256-bit floating point (math/big),
// independently of package math: log₂ by the atanh series, and the entropies and mutual
// information built on it. It is imported only by tests.
package bigref

import "math/big"

// Prec is the precision of the references, in bits.
const Prec = 256

func num(x float64) *big.Float { return new(big.Float).SetPrec(Prec).SetFloat64(x) }

// Log2 is log₂ x (x > 0): x = m·2^e with m in [1, 2), and ln m = 2·atanh(z), z = (m−1)/(m+1) ≤
// 1/3, by its series; ln 2 = 2·atanh(1/3) the same way.
func Log2(x float64) *big.Float {
	m := num(x)
	e := m.MantExp(m) // m in [0.5, 1)
	m.Mul(m, num(2))
	e--
	z := new(big.Float).SetPrec(Prec).Quo(new(big.Float).SetPrec(Prec).Sub(m, num(1)), new(big.Float).SetPrec(Prec).Add(m, num(1)))
	r := new(big.Float).SetPrec(Prec).Quo(atanh2(z), ln2)
	return r.Add(r, new(big.Float).SetPrec(Prec).SetInt64(int64(e)))
}

var ln2 = atanh2(new(big.Float).SetPrec(Prec).Quo(num(1), num(3)))

// atanh2 is 2·atanh(z) = 2·Σ z^(2k+1)/(2k+1) for |z| ≤ 1/3 (90 terms: below 2^-280 of the first).
func atanh2(z *big.Float) *big.Float {
	sum := new(big.Float).SetPrec(Prec)
	pow := new(big.Float).SetPrec(Prec).Set(z)
	z2 := new(big.Float).SetPrec(Prec).Mul(z, z)
	for k := 0; k < 90 && pow.Sign() != 0; k++ {
		sum.Add(sum, new(big.Float).SetPrec(Prec).Quo(pow, new(big.Float).SetPrec(Prec).SetInt64(int64(2*k+1))))
		pow.Mul(pow, z2)
	}
	return sum.Mul(sum, num(2))
}

// Entropy is −Σ p log₂ p over the positive entries, rounded to float64 at the end.
func Entropy(p []float64) float64 {
	s := new(big.Float).SetPrec(Prec)
	for _, v := range p {
		if v > 0 {
			s.Sub(s, new(big.Float).SetPrec(Prec).Mul(num(v), Log2(v)))
		}
	}
	f, _ := s.Float64()
	return f
}

// MutualInformation is Σ_{x,y} J log₂(J / (π_x p(y))) with J = π_x C[x][y] and p(y) = Σ_x J,
// every product and sum in 256 bits (c is given by rows).
func MutualInformation(prior []float64, c [][]float64) float64 {
	m := len(c[0])
	py := make([]*big.Float, m)
	for y := range py {
		py[y] = new(big.Float).SetPrec(Prec)
		for x := range c {
			py[y].Add(py[y], new(big.Float).SetPrec(Prec).Mul(num(prior[x]), num(c[x][y])))
		}
	}
	s := new(big.Float).SetPrec(Prec)
	for x := range c {
		for y, v := range c[x] {
			if prior[x] == 0 || v == 0 {
				continue
			}
			j := new(big.Float).SetPrec(Prec).Mul(num(prior[x]), num(v))
			// log₂(J/(π p)) = log₂ C − log₂ p(y); p(y) is not a float64, so log₂ of its rounding
			// is off by at most 2^-53 relative, far below what the test allows.
			pf, _ := py[y].Float64()
			l := new(big.Float).SetPrec(Prec).Sub(Log2(v), Log2(pf))
			s.Add(s, j.Mul(j, l))
		}
	}
	f, _ := s.Float64()
	return f
}
