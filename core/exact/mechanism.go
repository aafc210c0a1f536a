package exact

import (
	"fmt"
	"math/big"

	"github.com/qif-toolkit/qif/core/argerr"
)

// MaxExpEpsilonBits bounds the numerator and denominator of e^ε (in bits): powers of it up to
// the size of a mechanism are computed exactly.
const MaxExpEpsilonBits = 4096

// checkExpEpsilon checks that e^ε is a rational > 1 (ε > 0) of reasonable size.
func checkExpEpsilon(e *big.Rat) error {
	if e == nil {
		return argerr.New("expEpsilon", "missing (e^ε as a rational, such as 2 for ε = ln 2)")
	}
	if e.Cmp(one) <= 0 {
		return argerr.New("expEpsilon", "e^ε must be greater than 1 (ε > 0), got %s", inMessage(e))
	}
	if b := bits([]*big.Rat{e}); b > MaxExpEpsilonBits {
		return argerr.New("expEpsilon", "%d-bit numerator or denominator, more than the limit of %d bits", b, MaxExpEpsilonBits)
	}
	return nil
}

func checkMechanismSize(n, m int) error {
	if n < 1 {
		return argerr.New("n", "must be at least 1, got %d", n)
	}
	if m < 1 {
		return argerr.New("m", "must be at least 1, got %d", m)
	}
	if float64(n)*float64(m) > MaxEntries {
		return fmt.Errorf("n, m: %d×%d has more than the limit of %d entries for exact arithmetic", n, m, MaxEntries)
	}
	return nil
}

// RandomizedResponse returns the randomized response mechanism on inputs 0..n−1 and outputs
// 0..m−1 for e^ε = expEpsilon: an input x < m reports itself with probability e^ε/(m−1+e^ε)
// and each other output with 1/(m−1+e^ε); an input x ≥ m gets the uniform row 1/m (the
// exact twin of mechanism.RandomizedResponse).
func RandomizedResponse(n int, expEpsilon *big.Rat, m int) (*Matrix, error) {
	if err := checkMechanismSize(n, m); err != nil {
		return nil, err
	}
	if err := checkExpEpsilon(expEpsilon); err != nil {
		return nil, err
	}
	den := new(big.Rat).Add(expEpsilon, big.NewRat(int64(m-1), 1))
	diag := new(big.Rat).Quo(expEpsilon, den)
	off := new(big.Rat).Inv(den)
	uniform := big.NewRat(1, int64(m))
	c := &Matrix{Rows: n, Cols: m, Data: make([]*big.Rat, n*m)}
	for x := 0; x < n; x++ {
		for y := 0; y < m; y++ {
			v := off
			switch {
			case x >= m:
				v = uniform
			case x == y:
				v = diag
			}
			c.Data[x*m+y] = new(big.Rat).Set(v)
		}
	}
	return c, nil
}

// TruncatedGeometric returns the truncated geometric mechanism on inputs 0..n−1 and outputs
// 0..m−1, m ≥ n, for e^ε = expEpsilon and α = 1/expEpsilon (the exact twin of
// mechanism.TruncatedGeometric):
//
//	C[x][y]   = (1−α)/(1+α)·α^{|x−y|}   for 0 < y < m−1,
//	C[x][0]   = α^{x}/(1+α),
//	C[x][m−1] = α^{m−1−x}/(1+α),
//
// and the single column of ones when m = 1.
func TruncatedGeometric(n int, expEpsilon *big.Rat, m int) (*Matrix, error) {
	if err := checkMechanismSize(n, m); err != nil {
		return nil, err
	}
	if m < n {
		return nil, argerr.New("m", "the truncated geometric needs m ≥ n outputs (n = %d, m = %d)", n, m)
	}
	if err := checkExpEpsilon(expEpsilon); err != nil {
		return nil, err
	}
	if err := checkWork("n, m, expEpsilon", float64(n)*float64(m), (n+m)*bits([]*big.Rat{expEpsilon})); err != nil {
		return nil, err
	}
	c := &Matrix{Rows: n, Cols: m, Data: make([]*big.Rat, n*m)}
	if m == 1 {
		for x := range c.Data {
			c.Data[x] = new(big.Rat).SetInt64(1)
		}
		return c, nil
	}
	alpha := new(big.Rat).Inv(expEpsilon)
	pow := make([]*big.Rat, n+m) // α^k
	pow[0] = new(big.Rat).SetInt64(1)
	for k := 1; k < len(pow); k++ {
		pow[k] = new(big.Rat).Mul(pow[k-1], alpha)
	}
	onePlus := new(big.Rat).Add(one, alpha)
	inv := new(big.Rat).Inv(onePlus)                             // 1/(1+α)
	k := new(big.Rat).Quo(new(big.Rat).Sub(one, alpha), onePlus) // (1−α)/(1+α)
	for x := 0; x < n; x++ {
		row := c.Data[x*m : (x+1)*m]
		row[0] = new(big.Rat).Mul(pow[x], inv)
		for y := 1; y < m-1; y++ {
			row[y] = new(big.Rat).Mul(k, pow[abs(x-y)])
		}
		row[m-1] = new(big.Rat).Mul(pow[m-1-x], inv)
	}
	return c, nil
}

// Utility is the expected gain of the answer mechanism H (rows = true answers y, columns =
// reported answers z) under the prior π, with the best guess for each output:
// U = Σ_z max_w Σ_y π_y H[y][z] gain[w][y]. gain is |W|×n; nil is the binary gain, for which
// U = Σ_z max_y π_y H[y][z] (the exact twin of mechanism.Utility).
func Utility(prior Vector, H, gain *Matrix) (*big.Rat, error) {
	return bestResponse(prior, H, "gain", gain, true)
}

// ExpectedLoss is the loss twin of Utility: Σ_z min_w Σ_y π_y H[y][z] loss[w][y]; nil is the
// 0-1 loss, whose expected loss is 1 − Utility with the binary gain.
func ExpectedLoss(prior Vector, H, loss *Matrix) (*big.Rat, error) {
	return bestResponse(prior, H, "loss", loss, false)
}

func bestResponse(prior Vector, H *Matrix, name string, score *Matrix, maximize bool) (*big.Rat, error) {
	if err := ValidateChannel("mechanism", H); err != nil {
		return nil, err
	}
	if err := ValidateDistribution("prior", prior); err != nil {
		return nil, err
	}
	if len(prior) != H.Rows {
		return nil, argerr.New("prior", "has %d entries but the mechanism has %d rows", len(prior), H.Rows)
	}
	if score == nil {
		J, err := jointOf(prior, H)
		if err != nil {
			return nil, err
		}
		u := postBayes(J)
		if !maximize {
			u.Sub(one, u)
		}
		return u, nil
	}
	g, J, err := gainAndJoint(name, score, prior, H)
	if err != nil {
		return nil, err
	}
	return postG(g, J, maximize), nil
}
