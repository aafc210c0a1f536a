package infopriv

import (
	"fmt"
	"math"
	"sort"

	"github.com/qif-toolkit/qif/core/argerr"
	"github.com/qif-toolkit/qif/core/channel"
	"gonum.org/v1/gonum/mat"
)

// binaryEntropy is h(p) = −p log2 p − (1−p) log2(1−p), with 0 log 0 = 0. log2(1−p) is taken as
// log1p(−p)/ln 2, which keeps its size −p/ln 2 for p below the rounding of 1 − p.
func binaryEntropy(p float64) float64 {
	if p <= 0 || p >= 1 {
		return 0
	}
	return -(p*math.Log(p) + (1-p)*math.Log1p(-p)) / math.Ln2
}

// entropyBits is the Shannon entropy of a distribution in bits (0 log 0 = 0).
func entropyBits(q []float64) float64 {
	h := 0.0
	for _, v := range q {
		if v > 0 {
			h -= v * math.Log2(v)
		}
	}
	return h
}

// checkProbability refuses NaN and values outside [0, 1], naming the argument.
func checkProbability(name string, p float64) error {
	if math.IsNaN(p) {
		return argerr.New(name, "is NaN, expected a number in [0, 1]")
	}
	if p < 0 || p > 1 {
		return argerr.New(name, "%v is outside [0, 1]", p)
	}
	return nil
}

// checkFinite refuses NaN and ±Inf, naming the argument.
func checkFinite(name string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return argerr.New(name, "is %v, expected a finite number", v)
	}
	return nil
}

// BinarySymmetricCapacity is the capacity 1 − h(p) bits of the binary symmetric channel with flip
// probability p, which by Wu (2019) §4.1 is also the individual channel capacity of the binary
// symmetric (randomized-response) privacy channel of a binary query. p must lie in [0, 1].
//
// Near p = ½ the capacity vanishes like (2/ln 2)(½ − p)² and 1 − h(p) would lose it all to
// cancellation (1.1·10^−16 instead of 2.9·10^−18 at p = ½ − 10^−9). There it is computed as the
// divergence D(p‖½) in the form u·atanh(u) + ½·log1p(−u²), u = 1 − 2p, whose two terms are
// about 2u² and −u²; away from ½ (|u| ≥ ½, where 1 − h ≥ 0.18) as 1 − h(p).
func BinarySymmetricCapacity(p float64) (float64, error) {
	if err := checkProbability("p", p); err != nil {
		return 0, err
	}
	return bscCapacity(p), nil
}

func bscCapacity(p float64) float64 {
	if u := 1 - 2*p; math.Abs(u) < 0.5 {
		return math.Max(0, u*math.Atanh(u)+0.5*math.Log1p(-u*u)) / math.Ln2
	}
	return 1 - binaryEntropy(p)
}

// FlipProbabilityForCapacity inverts BinarySymmetricCapacity on p ∈ [0, ½]: it returns the flip
// probability p with 1 − h(p) = c (the other solution is 1 − p). c must lie in [0, 1] bits.
// The result is found by bisection on the capacity (decreasing on [0, ½]) down to adjacent
// floating-point numbers, so tiny capacities (p near ½) and capacities near 1 (p near 0) keep
// their relative precision; c = 1 gives p = 0 and c = 0 gives p = ½ exactly.
func FlipProbabilityForCapacity(c float64) (float64, error) {
	if err := checkProbability("capacity", c); err != nil {
		return 0, err
	}
	if c == 0 {
		return 0.5, nil
	}
	if c == 1 {
		return 0, nil
	}
	lo, hi := 0.0, 0.5 // capacity(lo) > c ≥ capacity(hi)
	for i := 0; i < 2100; i++ {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		if bscCapacity(mid) > c {
			lo = mid
		} else {
			hi = mid
		}
	}
	if bscCapacity(lo)-c < c-bscCapacity(hi) {
		return lo, nil
	}
	return hi, nil
}

// GaussianCapacity is the capacity ½ log2(1 + P/σ²) bits of the additive Gaussian channel with
// input power (second moment) at most P and noise standard deviation σ (Cover–Thomas §9.1). By
// Wu (2019) Theorem 5.1 it bounds the individual channel capacity of the Gaussian privacy channel
// (Wu (2019) Def. 14) when, with the other records fixed, the centred query value has second moment
// at most P — e.g. P = (Δ/2)² when one record moves the query within an interval of width Δ.
// P must be finite and ≥ 0, σ finite and > 0.
func GaussianCapacity(power, sigma float64) (float64, error) {
	if err := checkPower(power); err != nil {
		return 0, err
	}
	if err := checkSigma(sigma); err != nil {
		return 0, err
	}
	return gaussianCapacity(power, sigma), nil
}

// gaussianCapacity is ½ log2(1 + x), x = P/σ², without forming σ² or x where they over- or
// underflow: for σ = 10^−160 and P = 1, σ² underflows and x overflows, while the capacity is
// ½·log2(10^320) = 531.5 bits. x is formed as (P/σ)/σ when that is a normal number; beyond, the
// capacity is ½(log2 P − 2 log2 σ) (x > 2^1000: the 1 is below rounding) or x/(2 ln 2) (x below
// the normal range, computed from logarithms).
func gaussianCapacity(power, sigma float64) float64 {
	if power == 0 {
		return 0
	}
	x := power / sigma / sigma
	switch {
	case x > 0x1p1000:
		return 0.5 * (math.Log2(power) - 2*math.Log2(sigma))
	case x < 0x1p-1000:
		return 0.5 * math.Exp(math.Log(power)-2*math.Log(sigma)) / math.Ln2
	}
	return 0.5 * math.Log1p(x) / math.Ln2
}

func checkPower(power float64) error {
	if err := checkFinite("power", power); err != nil {
		return err
	}
	if power < 0 {
		return argerr.New("power", "%v is negative, expected P ≥ 0", power)
	}
	return nil
}

func checkSigma(sigma float64) error {
	if err := checkFinite("sigma", sigma); err != nil {
		return err
	}
	if sigma <= 0 {
		return argerr.New("sigma", "%v, expected σ > 0", sigma)
	}
	return nil
}

// SigmaForCapacity inverts GaussianCapacity in σ: the noise standard deviation σ = √(P / (2^{2c} −
// 1)) for which the Gaussian channel of power P has capacity c bits (Wu (2019) §5.1, read in bits).
// c = 0 gives +Inf (only infinite noise leaks nothing). P must be > 0 and c ≥ 0.
func SigmaForCapacity(power, c float64) (float64, error) {
	if err := checkPower(power); err != nil {
		return 0, err
	}
	if power == 0 {
		return 0, argerr.New("power", "is 0, every σ gives capacity 0; expected P > 0")
	}
	if math.IsNaN(c) || c < 0 {
		return 0, fmt.Errorf("capacity: %v, expected a number ≥ 0 (bits)", c)
	}
	if c == 0 {
		return math.Inf(1), nil
	}
	// σ = √P / √(2^{2c} − 1) = √P·2^{−c} / √(1 − 2^{−2c}), with 1 − 2^{−2c} = −expm1(−2c ln 2):
	// precise for small c, and neither P/(2^{2c} − 1) (P = 10^308, c = 10^−20) nor 2^{2c}
	// (c > 512 bits: a nearly noiseless channel) overflows. 2^{−c} is applied as an exponent
	// (Ldexp) after the fraction of c, so that it does not underflow before the product does.
	if c > 4000 {
		return 0, nil // below 2^512·2^−4000: no double
	}
	k := math.Floor(c)
	v := math.Sqrt(power) * math.Exp2(k-c) / math.Sqrt(-math.Expm1(-2*c*math.Ln2))
	return math.Ldexp(v, -int(k)), nil
}

// Variances holds the noise variances that Wu (2019) §5.2 compares for a real-valued query of
// sensitivity Δ.
type Variances struct {
	// Laplace is 2(Δ/ε)², the variance of the Laplace mechanism Lap(Δ/ε) (ε-DP).
	Laplace float64
	// GaussianMechanism is σ² with σ = Δ√(2 ln(1.25/δ))/ε, the Gaussian mechanism of Dwork and
	// Roth (Thm A.1), (ε, δ)-DP for ε < 1 (the formula is returned for any ε > 0).
	GaussianMechanism float64
	// GaussianPrivacyChannel is σ² = P/(2^{2c} − 1), the variance for which the Gaussian privacy
	// channel of power P has individual channel capacity c bits (Wu (2019) eq. (99), in bits).
	GaussianPrivacyChannel float64
	// Power is the P used.
	Power float64
}

// CompareVariances returns the three variances of Wu (2019) §5.2: the Laplace and Gaussian DP
// mechanisms at privacy ε (nats) and δ ∈ (0, 1), for sensitivity Δ > 0, and the Gaussian privacy
// channel at capacity c > 0 bits with input power P (P ≤ 0 is refused; use (Δ/2)² for a query
// whose value moves within an interval of width Δ when one record changes).
func CompareVariances(sensitivity, epsilon, delta, c, power float64) (Variances, error) {
	if err := checkFinite("sensitivity", sensitivity); err != nil {
		return Variances{}, err
	}
	if sensitivity <= 0 {
		return Variances{}, argerr.New("sensitivity", "%v, expected Δ > 0", sensitivity)
	}
	if math.IsNaN(epsilon) || epsilon <= 0 || math.IsInf(epsilon, 1) {
		return Variances{}, argerr.New("epsilon", "%v, expected a finite ε > 0", epsilon)
	}
	if math.IsNaN(delta) || delta <= 0 || delta >= 1 {
		return Variances{}, argerr.New("delta", "%v, expected δ in (0, 1) for the Gaussian mechanism", delta)
	}
	if math.IsNaN(c) || c <= 0 || math.IsInf(c, 1) {
		return Variances{}, fmt.Errorf("capacity: %v, expected a finite capacity > 0 bits", c)
	}
	if err := checkPower(power); err != nil {
		return Variances{}, err
	}
	if power == 0 {
		return Variances{}, argerr.New("power", "is 0, expected P > 0")
	}
	b := sensitivity / epsilon
	sigma, err := SigmaForCapacity(power, c)
	if err != nil {
		return Variances{}, err
	}
	return Variances{
		Laplace:                2 * b * b,
		GaussianMechanism:      2 * math.Log(1.25/delta) * b * b,
		GaussianPrivacyChannel: sigma * sigma,
		Power:                  power,
	}, nil
}

// DataIndependence describes how far a channel is data-independent (Wu (2019) Def. 10).
type DataIndependence struct {
	// DataIndependent reports whether every row is a permutation of one distribution q (within
	// the tolerance, compared after sorting).
	DataIndependent bool
	// Q is row 0 sorted decreasingly: the common distribution when DataIndependent.
	Q []float64
	// Bound is log2|Y| − H(q) bits (Wu (2019) eq. (43)), an upper bound on the capacity when the channel
	// is data-independent, |Y| = the number of columns; NaN otherwise.
	Bound float64
	// WeaklySymmetric reports data independence with equal column sums (Cover–Thomas §7.2):
	// the uniform prior then gives a uniform output and reaches Bound.
	WeaklySymmetric bool
	// Reachable reports whether Bound is the capacity: some prior makes the output uniform
	// (Wu (2019) Def. 11). True when WeaklySymmetric; otherwise decided from the Blahut–Arimoto
	// capacity within the tolerance. False when not data-independent.
	Reachable bool
	// Capacity is the Shannon capacity in bits (Blahut–Arimoto; equal to Bound, computed in
	// closed form, when WeaklySymmetric).
	Capacity float64
}

// DefaultTolerance is the tolerance used by DataIndependent when it is given tol ≤ 0: rows are
// permutations of each other when their sorted entries agree within it, columns sums are equal
// when they agree within it times the number of rows.
const DefaultTolerance = 1e-9

// AnalyzeDataIndependence decides whether c is data-independent, computes the bound
// log|Y| − H(q) and decides weak symmetry and whether the bound is reached (Wu (2019) §4.2,
// Corollary 1). tol ≤ 0 selects DefaultTolerance.
func AnalyzeDataIndependence(c *mat.Dense, tol float64) (DataIndependence, error) {
	if err := channel.Validate(c); err != nil {
		return DataIndependence{}, err
	}
	if math.IsNaN(tol) {
		return DataIndependence{}, argerr.New("tolerance", "is NaN")
	}
	if tol <= 0 {
		tol = DefaultTolerance
	}
	n, m := c.Dims()
	raw := c.RawMatrix()
	row := func(i int) []float64 { return raw.Data[i*raw.Stride : i*raw.Stride+m] }
	q := append([]float64(nil), row(0)...)
	sort.Sort(sort.Reverse(sort.Float64Slice(q)))
	res := DataIndependence{DataIndependent: true, Q: q, Bound: math.NaN()}
	buf := make([]float64, m)
	for i := 1; i < n && res.DataIndependent; i++ {
		copy(buf, row(i))
		sort.Sort(sort.Reverse(sort.Float64Slice(buf)))
		for j := range buf {
			if math.Abs(buf[j]-q[j]) > tol {
				res.DataIndependent = false
				break
			}
		}
	}
	if !res.DataIndependent {
		cp, err := capacityOf(c)
		if err != nil {
			return DataIndependence{}, err
		}
		res.Capacity = cp.capacity
		return res, nil
	}
	res.Bound = math.Log2(float64(m)) - entropyBits(q)
	if res.Bound < 0 { // rounding when q is uniform
		res.Bound = 0
	}
	sums := make([]float64, m)
	for i := 0; i < n; i++ {
		for j, v := range row(i) {
			sums[j] += v
		}
	}
	res.WeaklySymmetric = true
	for j := 1; j < m; j++ {
		if math.Abs(sums[j]-sums[0]) > tol*float64(n) {
			res.WeaklySymmetric = false
			break
		}
	}
	if res.WeaklySymmetric {
		res.Reachable = true
		res.Capacity = res.Bound
		return res, nil
	}
	cp, err := capacityOf(c)
	if err != nil {
		return DataIndependence{}, err
	}
	res.Capacity = cp.capacity
	res.Reachable = cp.capacity >= res.Bound-max(tol, cp.gap())
	return res, nil
}

// ExponentialResult is a discrete exponential privacy channel with its entropy and bound.
type ExponentialResult struct {
	// Channel has one row per true answer and one column per output.
	Channel *mat.Dense
	// Q is the common row distribution sorted decreasingly: q_k = e^{−βk}/Z, k = 0..m−1.
	Q []float64
	// Entropy is H(q) in bits (closed form, see ExponentialEntropy).
	Entropy float64
	// Bound is log2 m − H(q) bits, the bound of Wu (2019) eq. (43) on the individual channel capacity.
	Bound float64
}

// ExponentialChannel builds the discrete exponential privacy channel of Wu (2019) Def. 13 with
// parameter β > 0 from a distortion matrix d (rows = true answers r′, columns = outputs r,
// entries ≥ 0): row r′ ranks the outputs by increasing d(r′, r) — ties broken by the lower
// column index — and puts mass e^{−β·k}/Z on the output of rank k = 0..m−1, with
// Z = Σ_k e^{−βk}. (The PDF lost the formulas; this is the reconstruction from the text: the
// rank function (48) replaces the distortion itself, which is what makes every row a
// permutation of one distribution q, i.e. the channel data-independent — unlike the exponential
// mechanism, whose rows are proportional to e^{−β d} and are not permutations of each other.
// The paper numbers ranks from 1; the normalized distribution is the same.)
func ExponentialChannel(distortion *mat.Dense, beta float64) (ExponentialResult, error) {
	if distortion == nil || distortion.IsEmpty() {
		return ExponentialResult{}, fmt.Errorf("distortion: missing or empty matrix")
	}
	if math.IsNaN(beta) || beta <= 0 || math.IsInf(beta, 0) {
		return ExponentialResult{}, argerr.New("beta", "%v, expected a finite β > 0", beta)
	}
	n, m := distortion.Dims()
	if float64(n)*float64(m) > channel.MaxEntries {
		return ExponentialResult{}, fmt.Errorf("distortion: %d×%d has more than %d entries", n, m, channel.MaxEntries)
	}
	raw := distortion.RawMatrix()
	for i := 0; i < n; i++ {
		for j, v := range raw.Data[i*raw.Stride : i*raw.Stride+m] {
			if math.IsNaN(v) || v < 0 || math.IsInf(v, 0) {
				return ExponentialResult{}, fmt.Errorf("distortion: entry [%d][%d] is %v, expected a finite number ≥ 0", i, j, v)
			}
		}
	}
	q := exponentialQ(m, beta)
	out := mat.NewDense(n, m, nil)
	o := out.RawMatrix()
	order := make([]int, m)
	for i := 0; i < n; i++ {
		d := raw.Data[i*raw.Stride : i*raw.Stride+m]
		for j := range order {
			order[j] = j
		}
		sort.SliceStable(order, func(a, b int) bool { return d[order[a]] < d[order[b]] })
		for k, j := range order {
			o.Data[i*o.Stride+j] = q[k]
		}
	}
	h, _ := ExponentialEntropy(m, beta)
	bound := math.Log2(float64(m)) - h
	if bound < 0 {
		bound = 0
	}
	return ExponentialResult{Channel: out, Q: q, Entropy: h, Bound: bound}, nil
}

// MaxAnswers bounds AbsoluteDistortion (an n×n matrix, and an n×n channel built from it).
const MaxAnswers = 4096

// AbsoluteDistortion is the distortion |r′ − r| on answers 0..n−1 (an n×n matrix), the usual
// choice for numeric queries.
func AbsoluteDistortion(n int) (*mat.Dense, error) {
	if n < 1 {
		return nil, argerr.New("n", "%d, expected at least 1 answer", n)
	}
	if n > MaxAnswers {
		return nil, argerr.New("n", "%d answers, more than the limit of %d", n, MaxAnswers)
	}
	d := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			d.Set(i, j, math.Abs(float64(i-j)))
		}
	}
	return d, nil
}

// exponentialQ is q_k = e^{−βk}/Z for k = 0..m−1, computed as r^k(1−r)/(1−r^m) with r = e^{−β}.
func exponentialQ(m int, beta float64) []float64 {
	q := make([]float64, m)
	s := 0.0
	for k := range q {
		q[k] = math.Exp(-beta * float64(k))
		s += q[k]
	}
	for k := range q {
		q[k] /= s
	}
	return q
}

// ExponentialEntropy is H(q) in bits for q_k = e^{−βk}/Z on m outputs (Wu (2019) eqs. (51)–(62),
// reconstructed): with r = e^{−β}, Z = (1 − r^m)/(1 − r) (the geometric series (54)) and
// E[k] = r/(1 − r) − m r^m/(1 − r^m) (the series Σ k r^k of (55)–(59)), H = (ln Z + β E[k]) / ln 2.
// m ≥ 1, β > 0 finite.
func ExponentialEntropy(m int, beta float64) (float64, error) {
	if m < 1 {
		return 0, argerr.New("m", "%d, expected at least 1 output", m)
	}
	if math.IsNaN(beta) || beta <= 0 || math.IsInf(beta, 0) {
		return 0, argerr.New("beta", "%v, expected a finite β > 0", beta)
	}
	if m == 1 {
		return 0, nil
	}
	r := math.Exp(-beta)
	rm := math.Exp(-beta * float64(m))
	// 1 − r = −expm1(−β) keeps precision for small β. ln Z is a difference of log(1 − e^{−x}),
	// not the logarithm of the quotient: for large β (a nearly noiseless channel) Z = 1 + e^{−β}
	// + … and log(Z) kept only the first digits of its e^{−β} (H was 4.18524e−12 instead of
	// 4.18506e−12 bits at β = 30, m = 10). Both terms of H are positive.
	lnZ := log1mexp(beta*float64(m)) - log1mexp(beta)
	ek := r/(-math.Expm1(-beta)) - float64(m)*rm/(-math.Expm1(-beta*float64(m)))
	h := (lnZ + beta*ek) / math.Ln2
	if h < 0 {
		h = 0
	}
	return h, nil
}

// log1mexp is ln(1 − e^{−x}) for x > 0, accurate for small x (through expm1) and for large x
// (through log1p).
func log1mexp(x float64) float64 {
	if x < math.Ln2 {
		return math.Log(-math.Expm1(-x))
	}
	return math.Log1p(-math.Exp(-x))
}

// ExponentialBetaForBound returns the β for which the exponential privacy channel on m ≥ 2
// outputs has bound log2 m − H(q) = c bits, the "numerical method" of Wu (2019) eq. (63). The bound
// increases from 0 (β → 0, uniform rows) to log2 m (β → ∞), so c must lie in [0, log2 m); c = 0
// gives β = 0. Found by bisection on β to a relative precision of 1e-12.
func ExponentialBetaForBound(m int, c float64) (float64, error) {
	if m < 2 {
		return 0, argerr.New("m", "%d, expected at least 2 outputs", m)
	}
	lg := math.Log2(float64(m))
	if math.IsNaN(c) || c < 0 || c >= lg {
		return 0, fmt.Errorf("capacity: %v, expected a bound in [0, log2 m = %.6g) bits", c, lg)
	}
	if c == 0 {
		return 0, nil
	}
	bound := func(beta float64) float64 {
		h, _ := ExponentialEntropy(m, beta)
		return lg - h
	}
	lo, hi := 0.0, 1.0
	for bound(hi) < c {
		lo, hi = hi, 2*hi
		if hi > 1e6 {
			return 0, fmt.Errorf("capacity: %v bits is too close to log2 m = %.6g for a finite β", c, lg)
		}
	}
	for i := 0; i < 200 && hi-lo > 1e-12*hi; i++ {
		mid := (lo + hi) / 2
		if bound(mid) < c {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2, nil
}
