package mechanism

import (
	"math"

	"github.com/qif-toolkit/qif/core/argerr"
	"github.com/qif-toolkit/qif/core/channel"
	"github.com/qif-toolkit/qif/core/internal/matmul"
	"gonum.org/v1/gonum/mat"
)

// Utility is the expected gain of the answer mechanism H (n×m, rows = true answers y, columns =
// reported answers z) under the prior π on the true answers, when the user maps each reported z to
// the guess w that maximizes the expected gain (Alvim et al. (ICALP 2011) §6,
// docs/mathematics.md#optimal-mechanisms):
//
//	U = Σ_z max_w Σ_y π_y H[y][z] gain[w][y].
//
// gain is |W|×n (rows = guesses, columns = true answers); nil means the binary gain
// (identity: gain 1 for the right answer), for which U = Σ_z max_y π_y H[y][z] = 2^{−H_∞(Y|Z)}.
func Utility(prior []float64, H, gain *mat.Dense) (float64, error) {
	u, _, err := UtilityWithGuess(prior, H, gain)
	return u, err
}

// UtilityWithGuess is Utility together with the optimal guess for each output z (a row index
// of gain, or an answer index for the binary gain). Ties, including outputs of probability 0,
// go to the smallest index.
func UtilityWithGuess(prior []float64, H, gain *mat.Dense) (float64, []int, error) {
	return bestResponse(prior, H, gain, "gain", false)
}

// ExpectedLoss is the loss twin of UtilityWithGuess: Σ_z min_w Σ_y π_y H[y][z] loss[w][y],
// with the guess for each output that minimizes the expected loss. loss is |W|×n; nil means
// the 0-1 loss (1 for a wrong answer), whose expected loss is 1 − Utility with binary gain.
func ExpectedLoss(prior []float64, H, loss *mat.Dense) (float64, []int, error) {
	return bestResponse(prior, H, loss, "loss", true)
}

func bestResponse(prior []float64, H, score *mat.Dense, name string, minimize bool) (float64, []int, error) {
	if err := channel.ValidateNamed("mechanism", H); err != nil {
		return 0, nil, err
	}
	n, m := H.Dims()
	if err := channel.ValidateDistribution("prior", prior); err != nil {
		return 0, nil, err
	}
	if len(prior) != n {
		return 0, nil, argerr.New("prior", "has %d entries but the mechanism has %d rows", len(prior), n)
	}
	if score != nil && !score.IsEmpty() {
		if _, c := score.Dims(); c != n {
			return 0, nil, argerr.New(name, "has %d columns but the mechanism has %d rows (columns are the true answers)", c, n)
		}
		if err := checkFinite(name, score); err != nil {
			return 0, nil, err
		}
	} else {
		score = nil
	}
	// J[y][z] = π_y H[y][z], the joint distribution of true and reported answer.
	joint := mat.NewDense(n, m, nil)
	jd := joint.RawMatrix().Data
	for y := 0; y < n; y++ {
		hr := H.RawRowView(y)
		for z, v := range hr {
			jd[y*m+z] = prior[y] * v
		}
	}
	// Expected score of each guess w for each output z: S = gain·J (identity for binary gain,
	// where 0-1 loss is 1 − identity, i.e. Σ_y J[y][z] − J[w][z]).
	var s *mat.Dense
	if score != nil {
		s = matmul.Mul(score, joint)
	} else if minimize {
		s = mat.NewDense(n, m, nil)
		sd := s.RawMatrix().Data
		for z := 0; z < m; z++ {
			col := 0.0
			for y := 0; y < n; y++ {
				col += jd[y*m+z]
			}
			for y := 0; y < n; y++ {
				sd[y*m+z] = col - jd[y*m+z]
			}
		}
	} else {
		s = joint
	}
	w, _ := s.Dims()
	sd := s.RawMatrix().Data
	guess := make([]int, m)
	total := 0.0
	for z := 0; z < m; z++ {
		best, arg := sd[z], 0
		for k := 1; k < w; k++ {
			v := sd[k*m+z]
			if (!minimize && v > best) || (minimize && v < best) {
				best, arg = v, k
			}
		}
		guess[z] = arg
		total += best
	}
	return total, guess, nil
}

func checkFinite(name string, a *mat.Dense) error {
	r, c := a.Dims()
	if float64(r)*float64(c) > channel.MaxEntries {
		return argerr.New(name, "%d×%d has more than the limit of %d entries", r, c, channel.MaxEntries)
	}
	for i := 0; i < r; i++ {
		for j, v := range a.RawRowView(i) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return argerr.Cell(name, i, j, "is %v, expected a finite number", v)
			}
		}
	}
	return nil
}
