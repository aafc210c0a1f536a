package exact

import (
	"fmt"
	"math/big"
	"sort"

	"github.com/qif-toolkit/qif/core/argerr"
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
	J, err := jointOf(prior, C)
	if err != nil {
		return nil, err
	}
	return postBayes(J), nil
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
	v, err := PosteriorBayesVulnerability(prior, C)
	if err != nil {
		return nil, err
	}
	return v.Quo(v, maxOf(prior)), nil
}

// AdditiveBayesLeakage returns V[π▷C] − V(π).
func AdditiveBayesLeakage(prior Vector, C *Matrix) (*big.Rat, error) {
	v, err := PosteriorBayesVulnerability(prior, C)
	if err != nil {
		return nil, err
	}
	return v.Sub(v, maxOf(prior)), nil
}

// MaxCasePosteriorBayesVulnerability returns V^max[π▷C] = max_{y: p(y)>0} max_x δʸ[x], the
// Bayes vulnerability of the most vulnerable posterior.
func MaxCasePosteriorBayesVulnerability(prior Vector, C *Matrix) (*big.Rat, error) {
	J, err := jointOf(prior, C)
	if err != nil {
		return nil, err
	}
	// max_x J[x][y] / p(y) = (column max)/(column sum) of the numerators.
	sums := J.colSums()
	var bestMax, bestSum *big.Int
	l, r := new(big.Int), new(big.Int)
	for y, s := range sums {
		if s.Sign() == 0 {
			continue
		}
		mx := J.at(0, y)
		for x := 1; x < J.rows; x++ {
			if v := J.at(x, y); v.Cmp(mx) > 0 {
				mx = v
			}
		}
		if bestSum == nil || l.Mul(mx, bestSum).Cmp(r.Mul(bestMax, s)) > 0 {
			bestMax, bestSum = mx, s
		}
	}
	return frac(bestMax, bestSum), nil
}

// GVulnerability returns V_g(π) = max_w Σ_x G[w][x] π_x; G is |W|×|X| (rows = guesses).
func GVulnerability(G *Matrix, prior Vector) (*big.Rat, error) {
	g, p, err := gainAndPrior("gain", G, prior)
	if err != nil {
		return nil, err
	}
	return bestAction(g, p, true), nil
}

// PosteriorGVulnerability returns V_g[π▷C] = Σ_y max_w Σ_x G[w][x] π_x C[x][y].
func PosteriorGVulnerability(G *Matrix, prior Vector, C *Matrix) (*big.Rat, error) {
	g, J, err := gainAndJoint("gain", G, prior, C)
	if err != nil {
		return nil, err
	}
	return postG(g, J, true), nil
}

// MultiplicativeGLeakage returns V_g[π▷C] / V_g(π); V_g(π) must be positive.
func MultiplicativeGLeakage(G *Matrix, prior Vector, C *Matrix) (*big.Rat, error) {
	post, err := PosteriorGVulnerability(G, prior, C)
	if err != nil {
		return nil, err
	}
	pre, err := GVulnerability(G, prior)
	if err != nil {
		return nil, err
	}
	if pre.Sign() <= 0 {
		return nil, argerr.New("gain", "prior g-vulnerability is %s, multiplicative leakage needs it positive", inMessage(pre))
	}
	return post.Quo(post, pre), nil
}

// AdditiveGLeakage returns V_g[π▷C] − V_g(π).
func AdditiveGLeakage(G *Matrix, prior Vector, C *Matrix) (*big.Rat, error) {
	post, err := PosteriorGVulnerability(G, prior, C)
	if err != nil {
		return nil, err
	}
	pre, err := GVulnerability(G, prior)
	if err != nil {
		return nil, err
	}
	return post.Sub(post, pre), nil
}

// LossRisk returns U_ℓ(π) = min_w Σ_x L[w][x] π_x; L is |W|×|X| (rows = actions).
func LossRisk(L *Matrix, prior Vector) (*big.Rat, error) {
	l, p, err := gainAndPrior("loss", L, prior)
	if err != nil {
		return nil, err
	}
	return bestAction(l, p, false), nil
}

// PosteriorLossRisk returns U_ℓ[π▷C] = Σ_y min_w Σ_x L[w][x] π_x C[x][y].
func PosteriorLossRisk(L *Matrix, prior Vector, C *Matrix) (*big.Rat, error) {
	l, J, err := gainAndJoint("loss", L, prior, C)
	if err != nil {
		return nil, err
	}
	return postG(l, J, false), nil
}

// GuessingEntropy returns G(π) = Σ_i i·π_(i) with π sorted decreasingly, i = 1..n.
func GuessingEntropy(p Vector) (*big.Rat, error) {
	if err := ValidateDistribution("p", p); err != nil {
		return nil, err
	}
	s, err := scaledOf("p", p, 1, len(p))
	if err != nil {
		return nil, err
	}
	return frac(guesses(append([]*big.Int(nil), s.num...)), s.den), nil
}

// PosteriorGuessingEntropy returns Σ_y p(y) G(δʸ) = Σ_y Σ_i i·J_(i)[y], the columns of the
// joint matrix J sorted decreasingly (no division needed).
func PosteriorGuessingEntropy(prior Vector, C *Matrix) (*big.Rat, error) {
	J, err := jointOf(prior, C)
	if err != nil {
		return nil, err
	}
	total := new(big.Int)
	col := make([]*big.Int, 0, J.rows)
	for y := 0; y < J.cols; y++ {
		col = col[:0]
		for x := 0; x < J.rows; x++ {
			if v := J.at(x, y); v.Sign() > 0 {
				col = append(col, v)
			}
		}
		total.Add(total, guesses(col))
	}
	return frac(total, J.den), nil
}

// MultiplicativeBayesCapacity returns ML(C) = Σ_y max_x C[x][y], the largest multiplicative
// Bayes leakage over all priors (reached at the uniform prior).
func MultiplicativeBayesCapacity(C *Matrix) (*big.Rat, error) {
	c, err := channelScaled(C)
	if err != nil {
		return nil, err
	}
	s := new(big.Int)
	for y := 0; y < c.cols; y++ {
		s.Add(s, colMax(c, y))
	}
	return frac(s, c.den), nil
}

// CheckBayesRiskCapacitySize refuses a rows×cols channel for MultiplicativeBayesRiskCapacity
// on its size alone: the n²/2 row distances cost n²/2·m subtractions of numbers at least one
// word long, whatever the entries. Callers that parse the entries themselves (the JavaScript
// API) call it first.
func CheckBayesRiskCapacitySize(rows, cols int) error {
	n := float64(rows)
	return checkProducts("channel", n*n/2*float64(cols), 1, 1)
}

// MultiplicativeBayesRiskCapacity returns sup_π R(π)/R[π▷C] = 1/(1 − diam/2), diam the largest
// L1 distance between two rows of C. When diam = 2 (two rows with disjoint supports) the
// capacity is +∞: infinite is true and the value nil.
func MultiplicativeBayesRiskCapacity(C *Matrix) (value *big.Rat, infinite bool, err error) {
	if err := checkMatrix("channel", C); err != nil {
		return nil, false, err
	}
	if err := CheckBayesRiskCapacitySize(C.Rows, C.Cols); err != nil {
		return nil, false, err
	}
	ops := float64(C.Rows) * float64(C.Rows) / 2 * float64(C.Cols)
	if err := ValidateChannel("channel", C); err != nil {
		return nil, false, err
	}
	l, err := lcmWithin("channel", C.Data, affordableBits(ops, 1))
	if err != nil {
		return nil, false, err
	}
	if err := checkProducts("channel", ops, 1, l.BitLen()); err != nil {
		return nil, false, err
	}
	if err := checkProducts("channel", float64(len(C.Data)), bits(C.Data), l.BitLen()); err != nil {
		return nil, false, err
	}
	c := scale(C.Data, C.Rows, C.Cols, l)
	diam, d, t := new(big.Int), new(big.Int), new(big.Int)
	for a := 0; a < c.rows; a++ {
		for b := a + 1; b < c.rows; b++ {
			d.SetInt64(0)
			for y := 0; y < c.cols; y++ {
				d.Add(d, t.Abs(t.Sub(c.at(a, y), c.at(b, y))))
			}
			if d.Cmp(diam) > 0 {
				diam.Set(d)
			}
		}
	}
	// 1/(1 − (diam/L)/2) = 2L/(2L − diam)
	twoL := new(big.Int).Lsh(c.den, 1)
	if t.Sub(twoL, diam).Sign() == 0 {
		return nil, true, nil
	}
	return frac(twoL, t), false, nil
}

// GainClass names a class of gain functions for AdditiveGCapacity.
type GainClass string

// Gain classes of AdditiveGCapacity (the classes of libqif).
const (
	// OneSpanningVulnerability: 1 − Σ_y min_{x∈supp π} C[x][y].
	OneSpanningVulnerability GainClass = "oneSpanningVulnerability"
	// OneSpanningGain: Σ_y p(y)·tv(π, δʸ), tv the total variation distance.
	OneSpanningGain GainClass = "oneSpanningGain"
)

// AdditiveGCapacity returns the largest additive g-leakage of C under prior π over a class of
// gain functions (libqif's definitions): OneSpanningVulnerability (the default for "") gives
// 1 − Σ_y min_{x∈supp π} C[x][y], OneSpanningGain gives Σ_y p(y)·tv(π, δʸ) =
// ½ Σ_y Σ_x |π_x p(y) − J[x][y]|.
func AdditiveGCapacity(prior Vector, C *Matrix, class GainClass) (*big.Rat, error) {
	switch class {
	case "", OneSpanningVulnerability:
		if err := priorAndChannel(prior, C); err != nil {
			return nil, err
		}
		// Column minima by comparison (cross-multiplying two entries' numerators and
		// denominators), then one exact sum of the m minima: no common denominator of the
		// whole channel, whose size grows with the number of distinct denominators.
		if err := checkProducts("channel", 2*float64(len(C.Data)), bits(C.Data), bits(C.Data)); err != nil {
			return nil, err
		}
		mins := make([]*big.Rat, C.Cols)
		for y := range mins {
			for x, px := range prior {
				if v := C.At(x, y); px.Sign() > 0 && (mins[y] == nil || v.Cmp(mins[y]) < 0) {
					mins[y] = v
				}
			}
		}
		s, err := sum("channel", mins)
		if err != nil {
			return nil, err
		}
		return s.Sub(one, s), nil
	case OneSpanningGain:
		if err := priorAndChannel(prior, C); err != nil {
			return nil, err
		}
		if err := checkWork("prior, channel", float64(C.Rows)*float64(C.Cols), bits(prior)+bits(C.Data)); err != nil {
			return nil, err
		}
		// The sum below takes 2·rows·cols products of numbers as long as the joint
		// distribution's common denominator: refuse before building the joint when a cheap
		// lower bound on that denominator is already too long.
		if err := jointDenominatorAffordable("prior, channel", prior, C, 2*float64(C.Rows)*float64(C.Cols)); err != nil {
			return nil, err
		}
		J, err := joint(prior, C)
		if err != nil {
			return nil, err
		}
		// With π_x = r_x/L and p(y) = s_y/L (row and column sums of the numerators),
		// π_x p(y) − J[x][y] = (r_x s_y − L·J[x][y]) / L².
		b := J.den.BitLen()
		if err := checkProducts("prior, channel", 2*float64(J.rows)*float64(J.cols), b, b); err != nil {
			return nil, err
		}
		s := J.colSums()
		r := J.rowSums()
		total, t, u := new(big.Int), new(big.Int), new(big.Int)
		for x := 0; x < J.rows; x++ {
			for y := 0; y < J.cols; y++ {
				t.Mul(r[x], s[y])
				t.Sub(t, u.Mul(J.den, J.at(x, y)))
				total.Add(total, t.Abs(t))
			}
		}
		return fracOf(total, J.den, J.den, big.NewInt(2)), nil
	}
	return nil, fmt.Errorf("gainClass: %q is not a gain class (expected %q or %q)", class, OneSpanningVulnerability, OneSpanningGain)
}

// StatisticalDistance returns max_T |P(T) − Q(T)| = ½ Σ |P − Q| for two distributions.
func StatisticalDistance(P, Q Vector) (*big.Rat, error) {
	s, err := pairOfDistributions(P, Q)
	if err != nil {
		return nil, err
	}
	n := len(P)
	d, t := new(big.Int), new(big.Int)
	for i := 0; i < n; i++ {
		d.Add(d, t.Abs(t.Sub(s.num[i], s.num[n+i])))
	}
	return fracOf(d, s.den, big.NewInt(2)), nil
}

// HockeyStick returns δ_ε(P‖Q) = Σ_y max(0, P(y) − e^ε Q(y)), with e^ε given as the rational
// expEpsilon ≥ 1.
func HockeyStick(P, Q Vector, expEpsilon *big.Rat) (*big.Rat, error) {
	if expEpsilon == nil || expEpsilon.Cmp(one) < 0 {
		return nil, argerr.New("expEpsilon", "e^ε must be a rational ≥ 1 (ε ≥ 0)")
	}
	s, err := pairOfDistributions(P, Q)
	if err != nil {
		return nil, err
	}
	// P − (a/b)Q = (b·P − a·Q)/(b·L) over the numerators.
	a, b := expEpsilon.Num(), expEpsilon.Denom()
	n := len(P)
	d, t, u := new(big.Int), new(big.Int), new(big.Int)
	for i := 0; i < n; i++ {
		if t.Sub(t.Mul(b, s.num[i]), u.Mul(a, s.num[n+i])); t.Sign() > 0 {
			d.Add(d, t)
		}
	}
	return fracOf(d, s.den, b), nil
}

// pairOfDistributions validates P and Q and writes them over one denominator (P's entries,
// then Q's).
func pairOfDistributions(P, Q Vector) (*scaled, error) {
	if err := ValidateDistribution("P", P); err != nil {
		return nil, err
	}
	if err := ValidateDistribution("Q", Q); err != nil {
		return nil, err
	}
	if len(P) != len(Q) {
		return nil, argerr.New("Q", "has %d entries but P has %d", len(Q), len(P))
	}
	return scaledOf("P, Q", append(append([]*big.Rat(nil), P...), Q...), 2, len(P))
}

// jointOf validates a prior and a channel and returns their joint matrix over its common
// denominator.
func jointOf(prior Vector, C *Matrix) (*scaled, error) {
	if err := priorAndChannel(prior, C); err != nil {
		return nil, err
	}
	if err := checkWork("prior, channel", float64(C.Rows)*float64(C.Cols), bits(prior)+bits(C.Data)); err != nil {
		return nil, err
	}
	return joint(prior, C)
}

// channelScaled validates C and writes it over its common denominator.
func channelScaled(C *Matrix) (*scaled, error) {
	if err := ValidateChannel("channel", C); err != nil {
		return nil, err
	}
	return scaledOf("channel", C.Data, C.Rows, C.Cols)
}

// gainAndPrior validates a gain (or loss) matrix and a prior and scales both.
func gainAndPrior(name string, G *Matrix, prior Vector) (g, p *scaled, err error) {
	if err := ValidateDistribution("prior", prior); err != nil {
		return nil, nil, err
	}
	if err := gainFor(name, G, len(prior)); err != nil {
		return nil, nil, err
	}
	if g, err = scaledOf(name, G.Data, G.Rows, G.Cols); err != nil {
		return nil, nil, err
	}
	if p, err = scaledOf("prior", prior, len(prior), 1); err != nil {
		return nil, nil, err
	}
	return g, p, checkProducts(name+", prior", float64(G.Rows)*float64(G.Cols), g.den.BitLen()+bits(G.Data), p.den.BitLen())
}

// gainAndJoint validates a gain (or loss) matrix, a prior and a channel, and scales the gain
// and the joint matrix.
func gainAndJoint(name string, G *Matrix, prior Vector, C *Matrix) (g, J *scaled, err error) {
	if J, err = jointOf(prior, C); err != nil {
		return nil, nil, err
	}
	if err := gainFor(name, G, len(prior)); err != nil {
		return nil, nil, err
	}
	if g, err = scaledOf(name, G.Data, G.Rows, G.Cols); err != nil {
		return nil, nil, err
	}
	ops := float64(G.Rows) * float64(C.Rows) * float64(C.Cols)
	return g, J, checkProducts(name+", prior, channel", ops, g.den.BitLen()+bits(G.Data), J.den.BitLen())
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

func colMax(s *scaled, y int) *big.Int {
	m := s.at(0, y)
	for x := 1; x < s.rows; x++ {
		if v := s.at(x, y); v.Cmp(m) > 0 {
			m = v
		}
	}
	return m
}

// postBayes is Σ_y max_x J[x][y].
func postBayes(J *scaled) *big.Rat {
	s := new(big.Int)
	for y := 0; y < J.cols; y++ {
		s.Add(s, colMax(J, y))
	}
	return frac(s, J.den)
}

// bestAction is the best over rows w of Σ_x G[w][x] π_x (p is n×1), largest when maximize.
func bestAction(g, p *scaled, maximize bool) *big.Rat {
	var best *big.Int
	t := new(big.Int)
	for w := 0; w < g.rows; w++ {
		v := new(big.Int)
		for x := 0; x < g.cols; x++ {
			if a, b := g.at(w, x), p.num[x]; a.Sign() != 0 && b.Sign() != 0 {
				v.Add(v, t.Mul(a, b))
			}
		}
		if best == nil || better(v, best, maximize) {
			best = v
		}
	}
	return fracOf(best, g.den, p.den)
}

func better(a, b *big.Int, maximize bool) bool {
	c := a.Cmp(b)
	return (maximize && c > 0) || (!maximize && c < 0)
}

// postG is Σ_y best_w (G·J)[w][y] over the outputs with p(y) > 0.
func postG(g, J *scaled, maximize bool) *big.Rat {
	sums := J.colSums()
	total := new(big.Int)
	v, t := new(big.Int), new(big.Int)
	best := new(big.Int)
	for y := 0; y < J.cols; y++ {
		if sums[y].Sign() == 0 {
			continue
		}
		for w := 0; w < g.rows; w++ {
			v.SetInt64(0)
			for x := 0; x < g.cols; x++ {
				if a, b := g.at(w, x), J.at(x, y); a.Sign() != 0 && b.Sign() != 0 {
					v.Add(v, t.Mul(a, b))
				}
			}
			if w == 0 || better(v, best, maximize) {
				best.Set(v)
			}
		}
		total.Add(total, best)
	}
	return fracOf(total, g.den, J.den)
}

// rowSums returns Σ_j num[i][j] for every row i.
func (s *scaled) rowSums() []*big.Int {
	out := make([]*big.Int, s.rows)
	for i := range out {
		out[i] = new(big.Int)
		for _, v := range s.num[i*s.cols : (i+1)*s.cols] {
			out[i].Add(out[i], v)
		}
	}
	return out
}

// guesses sorts v decreasingly (in place) and returns Σ_i i·v_(i), i = 1..len(v).
func guesses(v []*big.Int) *big.Int {
	sort.SliceStable(v, func(a, b int) bool { return v[a].Cmp(v[b]) > 0 })
	g, t := new(big.Int), new(big.Int)
	for i, r := range v {
		g.Add(g, t.Mul(r, big.NewInt(int64(i+1))))
	}
	return g
}
