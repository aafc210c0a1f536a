package exact

import (
	"fmt"
	"math/big"
	"sort"
)

// BayesVulnerability returns V(π) = max_x π_x.
func BayesVulnerability(prior Vector) (*big.Rat, error) {
	if err := ValidateDistribution("prior", prior); err != nil {
		return nil, err
	}
	return maxOf(prior), nil
}

// BayesRisk returns 1 − V(π).
func BayesRisk(prior Vector) (*big.Rat, error) {
	v, err := BayesVulnerability(prior)
	if err != nil {
		return nil, err
	}
	return v.Sub(one, v), nil
}

// PosteriorBayesVulnerability returns V[π▷C] = Σ_y max_x π_x C[x][y].
func PosteriorBayesVulnerability(prior Vector, C *Matrix) (*big.Rat, error) {
	if err := measureInputs(prior, C); err != nil {
		return nil, err
	}
	return postBayes(prior, C), nil
}

// PosteriorBayesRisk returns 1 − V[π▷C].
func PosteriorBayesRisk(prior Vector, C *Matrix) (*big.Rat, error) {
	v, err := PosteriorBayesVulnerability(prior, C)
	if err != nil {
		return nil, err
	}
	return v.Sub(one, v), nil
}

// MultiplicativeBayesLeakage returns V[π▷C] / V(π).
func MultiplicativeBayesLeakage(prior Vector, C *Matrix) (*big.Rat, error) {
	if err := measureInputs(prior, C); err != nil {
		return nil, err
	}
	v := postBayes(prior, C)
	return v.Quo(v, maxOf(prior)), nil
}

// AdditiveBayesLeakage returns V[π▷C] − V(π).
func AdditiveBayesLeakage(prior Vector, C *Matrix) (*big.Rat, error) {
	if err := measureInputs(prior, C); err != nil {
		return nil, err
	}
	v := postBayes(prior, C)
	return v.Sub(v, maxOf(prior)), nil
}

// MaxCasePosteriorBayesVulnerability returns V^max[π▷C] = max_{y: p(y)>0} max_x δʸ[x], the
// Bayes vulnerability of the most vulnerable posterior.
func MaxCasePosteriorBayesVulnerability(prior Vector, C *Matrix) (*big.Rat, error) {
	if err := measureInputs(prior, C); err != nil {
		return nil, err
	}
	best := new(big.Rat)
	j, p, v := new(big.Rat), new(big.Rat), new(big.Rat)
	for y := 0; y < C.Cols; y++ {
		p.SetInt64(0)
		mx := new(big.Rat)
		for x, px := range prior {
			j.Mul(px, C.At(x, y))
			p.Add(p, j)
			if j.Cmp(mx) > 0 {
				mx.Set(j)
			}
		}
		if p.Sign() > 0 {
			if v.Quo(mx, p); v.Cmp(best) > 0 {
				best.Set(v)
			}
		}
	}
	return best, nil
}

// GVulnerability returns V_g(π) = max_w Σ_x G[w][x] π_x; G is |W|×|X| (rows = guesses).
func GVulnerability(G *Matrix, prior Vector) (*big.Rat, error) {
	if err := gainInputs("gain", G, prior, nil); err != nil {
		return nil, err
	}
	return bestAction(G, prior, true), nil
}

// PosteriorGVulnerability returns V_g[π▷C] = Σ_y max_w Σ_x G[w][x] π_x C[x][y].
func PosteriorGVulnerability(G *Matrix, prior Vector, C *Matrix) (*big.Rat, error) {
	if err := gainInputs("gain", G, prior, C); err != nil {
		return nil, err
	}
	return postG(G, prior, C, true), nil
}

// MultiplicativeGLeakage returns V_g[π▷C] / V_g(π); V_g(π) must be positive.
func MultiplicativeGLeakage(G *Matrix, prior Vector, C *Matrix) (*big.Rat, error) {
	if err := gainInputs("gain", G, prior, C); err != nil {
		return nil, err
	}
	pre := bestAction(G, prior, true)
	if pre.Sign() <= 0 {
		return nil, fmt.Errorf("gain: prior g-vulnerability is %s, multiplicative leakage needs it positive", pre.RatString())
	}
	v := postG(G, prior, C, true)
	return v.Quo(v, pre), nil
}

// AdditiveGLeakage returns V_g[π▷C] − V_g(π).
func AdditiveGLeakage(G *Matrix, prior Vector, C *Matrix) (*big.Rat, error) {
	if err := gainInputs("gain", G, prior, C); err != nil {
		return nil, err
	}
	v := postG(G, prior, C, true)
	return v.Sub(v, bestAction(G, prior, true)), nil
}

// LossRisk returns U_ℓ(π) = min_w Σ_x L[w][x] π_x; L is |W|×|X| (rows = actions).
func LossRisk(L *Matrix, prior Vector) (*big.Rat, error) {
	if err := gainInputs("loss", L, prior, nil); err != nil {
		return nil, err
	}
	return bestAction(L, prior, false), nil
}

// PosteriorLossRisk returns U_ℓ[π▷C] = Σ_y min_w Σ_x L[w][x] π_x C[x][y].
func PosteriorLossRisk(L *Matrix, prior Vector, C *Matrix) (*big.Rat, error) {
	if err := gainInputs("loss", L, prior, C); err != nil {
		return nil, err
	}
	return postG(L, prior, C, false), nil
}

// GuessingEntropy returns G(π) = Σ_i i·π_(i) with π sorted decreasingly, i = 1..n.
func GuessingEntropy(p Vector) (*big.Rat, error) {
	if err := ValidateDistribution("p", p); err != nil {
		return nil, err
	}
	if err := checkWork("p", float64(len(p))*(2+log2(len(p))), bits(p)); err != nil {
		return nil, err
	}
	return guesses(append(Vector(nil), p...)), nil
}

// PosteriorGuessingEntropy returns Σ_y p(y) G(δʸ) = Σ_y Σ_i i·J_(i)[y], the columns of the
// joint matrix J sorted decreasingly (no division needed).
func PosteriorGuessingEntropy(prior Vector, C *Matrix) (*big.Rat, error) {
	if err := measureInputs(prior, C); err != nil {
		return nil, err
	}
	g := new(big.Rat)
	col := make(Vector, 0, C.Rows)
	for y := 0; y < C.Cols; y++ {
		col = col[:0]
		for x, px := range prior {
			if j := new(big.Rat).Mul(px, C.At(x, y)); j.Sign() > 0 {
				col = append(col, j)
			}
		}
		g.Add(g, guesses(col))
	}
	return g, nil
}

// MultiplicativeBayesCapacity returns ML(C) = Σ_y max_x C[x][y], the largest multiplicative
// Bayes leakage over all priors (reached at the uniform prior).
func MultiplicativeBayesCapacity(C *Matrix) (*big.Rat, error) {
	if err := ValidateChannel("channel", C); err != nil {
		return nil, err
	}
	if err := checkWork("channel", float64(C.Rows)*float64(C.Cols), bits(C.Data)); err != nil {
		return nil, err
	}
	s := new(big.Rat)
	for y := 0; y < C.Cols; y++ {
		mx := C.At(0, y)
		for x := 1; x < C.Rows; x++ {
			if v := C.At(x, y); v.Cmp(mx) > 0 {
				mx = v
			}
		}
		s.Add(s, mx)
	}
	return s, nil
}

// MultiplicativeBayesRiskCapacity returns sup_π R(π)/R[π▷C] = 1/(1 − diam/2), diam the largest
// L1 distance between two rows of C. When diam = 2 (two rows with disjoint supports) the
// capacity is +∞: infinite is true and the value nil.
func MultiplicativeBayesRiskCapacity(C *Matrix) (value *big.Rat, infinite bool, err error) {
	if err := ValidateChannel("channel", C); err != nil {
		return nil, false, err
	}
	n := float64(C.Rows)
	if err := checkWork("channel", n*n/2*float64(C.Cols), bits(C.Data)); err != nil {
		return nil, false, err
	}
	diam, d, t := new(big.Rat), new(big.Rat), new(big.Rat)
	for a := 0; a < C.Rows; a++ {
		for b := a + 1; b < C.Rows; b++ {
			d.SetInt64(0)
			for y := 0; y < C.Cols; y++ {
				t.Sub(C.At(a, y), C.At(b, y))
				d.Add(d, t.Abs(t))
			}
			if d.Cmp(diam) > 0 {
				diam.Set(d)
			}
		}
	}
	// 1/(1 − diam/2) = 2/(2 − diam)
	t.Sub(big.NewRat(2, 1), diam)
	if t.Sign() == 0 {
		return nil, true, nil
	}
	return t.Quo(big.NewRat(2, 1), t), false, nil
}

// GainClass names a class of gain functions for AdditiveGCapacity.
type GainClass string

// Gain classes of AdditiveGCapacity (SPEC §7).
const (
	// OneSpanningVulnerability: 1 − Σ_y min_{x∈supp π} C[x][y].
	OneSpanningVulnerability GainClass = "oneSpanningVulnerability"
	// OneSpanningGain: Σ_y p(y)·tv(π, δʸ), tv the total variation distance.
	OneSpanningGain GainClass = "oneSpanningGain"
)

// AdditiveGCapacity returns the largest additive g-leakage of C under prior π over a class of
// gain functions (SPEC §7): OneSpanningVulnerability (the default for "") gives
// 1 − Σ_y min_{x∈supp π} C[x][y], OneSpanningGain gives Σ_y p(y)·tv(π, δʸ) =
// ½ Σ_y Σ_x |π_x p(y) − π_x C[x][y]|.
func AdditiveGCapacity(prior Vector, C *Matrix, class GainClass) (*big.Rat, error) {
	if err := measureInputs(prior, C); err != nil {
		return nil, err
	}
	s := new(big.Rat)
	switch class {
	case "", OneSpanningVulnerability:
		for y := 0; y < C.Cols; y++ {
			var mn *big.Rat
			for x, px := range prior {
				if px.Sign() > 0 && (mn == nil || C.At(x, y).Cmp(mn) < 0) {
					mn = C.At(x, y)
				}
			}
			s.Add(s, mn)
		}
		return s.Sub(one, s), nil
	case OneSpanningGain:
		py := outputDist(prior, C)
		t := new(big.Rat)
		for y, p := range py {
			for x, px := range prior {
				// π_x p(y) − π_x C[x][y] = π_x (p(y) − C[x][y])
				t.Sub(p, C.At(x, y))
				t.Mul(t, px)
				s.Add(s, t.Abs(t))
			}
		}
		return s.Quo(s, big.NewRat(2, 1)), nil
	}
	return nil, fmt.Errorf("gainClass: %q is not a gain class (expected %q or %q)", class, OneSpanningVulnerability, OneSpanningGain)
}

// StatisticalDistance returns max_T |P(T) − Q(T)| = ½ Σ |P − Q| for two distributions.
func StatisticalDistance(P, Q Vector) (*big.Rat, error) {
	if err := pairOfDistributions(P, Q); err != nil {
		return nil, err
	}
	s, t := new(big.Rat), new(big.Rat)
	for i := range P {
		t.Sub(P[i], Q[i])
		s.Add(s, t.Abs(t))
	}
	return s.Quo(s, big.NewRat(2, 1)), nil
}

// HockeyStick returns δ_ε(P‖Q) = Σ_y max(0, P(y) − e^ε Q(y)), with e^ε given as the rational
// expEpsilon ≥ 1.
func HockeyStick(P, Q Vector, expEpsilon *big.Rat) (*big.Rat, error) {
	if err := pairOfDistributions(P, Q); err != nil {
		return nil, err
	}
	if expEpsilon == nil || expEpsilon.Cmp(one) < 0 {
		return nil, fmt.Errorf("expEpsilon: e^ε must be a rational ≥ 1 (ε ≥ 0)")
	}
	s, t := new(big.Rat), new(big.Rat)
	for i := range P {
		t.Mul(expEpsilon, Q[i])
		if t.Sub(P[i], t); t.Sign() > 0 {
			s.Add(s, t)
		}
	}
	return s, nil
}

func pairOfDistributions(P, Q Vector) error {
	if err := ValidateDistribution("P", P); err != nil {
		return err
	}
	if err := ValidateDistribution("Q", Q); err != nil {
		return err
	}
	if len(P) != len(Q) {
		return fmt.Errorf("Q: has %d entries but P has %d", len(Q), len(P))
	}
	return checkWork("P, Q", 2*float64(len(P)), bits(P, Q))
}

// measureInputs validates a prior and a channel and checks the size of the n·m products.
func measureInputs(prior Vector, C *Matrix) error {
	if err := priorAndChannel(prior, C); err != nil {
		return err
	}
	return checkWork("prior, channel", 2*float64(C.Rows)*float64(C.Cols), bits(prior)+bits(C.Data))
}

// gainInputs validates a gain (or loss) matrix, a prior and, when C is not nil, a channel.
func gainInputs(name string, G *Matrix, prior Vector, C *Matrix) error {
	if C != nil {
		if err := priorAndChannel(prior, C); err != nil {
			return err
		}
	} else if err := ValidateDistribution("prior", prior); err != nil {
		return err
	}
	if err := gainFor(name, G, len(prior)); err != nil {
		return err
	}
	names, ops, b := name+", prior", float64(G.Rows)*float64(G.Cols), bits(G.Data)+bits(prior)
	if C != nil {
		// G·diag(π) (|W|·n) times C (n·m).
		names += ", channel"
		ops += float64(G.Rows) * float64(C.Rows) * float64(C.Cols)
		b += bits(C.Data)
	}
	return checkWork(names, ops, b)
}

func maxOf(v Vector) *big.Rat {
	m := v[0]
	for _, r := range v[1:] {
		if r.Cmp(m) > 0 {
			m = r
		}
	}
	return new(big.Rat).Set(m)
}

// postBayes is Σ_y max_x π_x C[x][y] for validated inputs.
func postBayes(prior Vector, C *Matrix) *big.Rat {
	s := new(big.Rat)
	j, mx := new(big.Rat), new(big.Rat)
	for y := 0; y < C.Cols; y++ {
		mx.SetInt64(0)
		for x, px := range prior {
			if j.Mul(px, C.At(x, y)); j.Cmp(mx) > 0 {
				mx.Set(j)
			}
		}
		s.Add(s, mx)
	}
	return s
}

// bestAction is the best over rows w of Σ_x G[w][x] π_x, largest when maximize.
func bestAction(G *Matrix, prior Vector, maximize bool) *big.Rat {
	var best *big.Rat
	for w := 0; w < G.Rows; w++ {
		v := dot(G.Row(w), prior)
		if best == nil || better(v, best, maximize) {
			best = v
		}
	}
	return best
}

func better(a, b *big.Rat, maximize bool) bool {
	c := a.Cmp(b)
	return (maximize && c > 0) || (!maximize && c < 0)
}

func dot(a, b []*big.Rat) *big.Rat {
	s, t := new(big.Rat), new(big.Rat)
	for i, v := range a {
		if v.Sign() != 0 && b[i].Sign() != 0 {
			s.Add(s, t.Mul(v, b[i]))
		}
	}
	return s
}

// postG is Σ_y best_w (G·diag(π)·C)[w][y] over the outputs with p(y) > 0.
func postG(G *Matrix, prior Vector, C *Matrix, maximize bool) *big.Rat {
	n := len(prior)
	gp := NewMatrix(G.Rows, n) // G·diag(π)
	for w := 0; w < G.Rows; w++ {
		for x, px := range prior {
			gp.Data[w*n+x].Mul(G.At(w, x), px)
		}
	}
	py := outputDist(prior, C)
	total := new(big.Rat)
	col := make([]*big.Rat, n)
	for y := 0; y < C.Cols; y++ {
		if py[y].Sign() == 0 {
			continue
		}
		for x := range col {
			col[x] = C.At(x, y)
		}
		var best *big.Rat
		for w := 0; w < G.Rows; w++ {
			v := dot(gp.Row(w), col)
			if best == nil || better(v, best, maximize) {
				best = v
			}
		}
		total.Add(total, best)
	}
	return total
}

// outputDist is p(y) = Σ_x π_x C[x][y].
func outputDist(prior Vector, C *Matrix) Vector {
	p := make(Vector, C.Cols)
	t := new(big.Rat)
	for y := range p {
		p[y] = new(big.Rat)
		for x, px := range prior {
			if px.Sign() != 0 {
				p[y].Add(p[y], t.Mul(px, C.At(x, y)))
			}
		}
	}
	return p
}

// guesses sorts v decreasingly (in place) and returns Σ_i i·v_(i), i = 1..len(v).
func guesses(v Vector) *big.Rat {
	sort.SliceStable(v, func(a, b int) bool { return v[a].Cmp(v[b]) > 0 })
	g, t := new(big.Rat), new(big.Rat)
	for i, r := range v {
		g.Add(g, t.Mul(r, big.NewRat(int64(i+1), 1)))
	}
	return g
}

func log2(n int) float64 {
	b := 0.0
	for n > 1 {
		n >>= 1
		b++
	}
	return b
}
