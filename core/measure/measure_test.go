package measure

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestUniformClosedForms(t *testing.T) {
	for _, n := range []int{1, 2, 3, 7, 64} {
		u := uniform(n)
		ln := math.Log2(float64(n))
		near(t, "H(uniform)", must(t)(ShannonEntropy(u)), ln, 1e-12)
		near(t, "H_inf(uniform)", must(t)(MinEntropy(u)), ln, 1e-12)
		for _, a := range []float64{0, 0.3, 1, 2, 5.5, 300, math.Inf(1)} {
			near(t, "H_alpha(uniform)", must(t)(RenyiEntropy(u, a)), ln, 1e-12)
		}
		near(t, "G(uniform)", must(t)(GuessingEntropy(u)), float64(n+1)/2, 1e-12)
		near(t, "V(uniform)", must(t)(BayesVulnerability(u)), 1/float64(n), 1e-15)
	}
	// A point mass has every entropy 0 and guessing entropy 1.
	d := []float64{0, 1, 0}
	for _, a := range []float64{0, 0.5, 1, 2, math.Inf(1)} {
		near(t, "H_alpha(point)", must(t)(RenyiEntropy(d, a)), 0, 1e-15)
	}
	near(t, "G(point)", must(t)(GuessingEntropy(d)), 1, 0)
}

func TestRenyi(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 200; trial++ {
		p := randDist(rng, 1+rng.IntN(8), trial%2 == 0)
		// Independent closed forms: Hartley = log₂|supp|, collision entropy −log₂ Σ p².
		supp, sq := 0, 0.0
		for _, v := range p {
			if v > 0 {
				supp++
			}
			sq += v * v
		}
		near(t, "H_0", must(t)(RenyiEntropy(p, 0)), math.Log2(float64(supp)), 1e-12)
		near(t, "H_2", must(t)(RenyiEntropy(p, 2)), -math.Log2(sq), 1e-12)
		near(t, "H_inf", must(t)(RenyiEntropy(p, math.Inf(1))), must(t)(MinEntropy(p)), 0)
		// Continuity at α = 1 and α → ∞, and monotonicity in α.
		h := naiveH(p)
		near(t, "H_{1-1e-7}", must(t)(RenyiEntropy(p, 1-1e-7)), h, 1e-5)
		near(t, "H_{1+1e-7}", must(t)(RenyiEntropy(p, 1+1e-7)), h, 1e-5)
		hinf := -math.Log2(maxOf(p))
		near(t, "H_{1e4}", must(t)(RenyiEntropy(p, 1e4)), hinf, 1e-3*math.Max(1, hinf)+4e-4)
		prev := math.Inf(1)
		for _, a := range []float64{0, 0.25, 0.5, 0.999, 1, 1.001, 2, 3, 10, math.Inf(1)} {
			v := must(t)(RenyiEntropy(p, a))
			if v > prev+1e-12 {
				t.Errorf("H_α not decreasing at α=%g: %g > %g (p=%v)", a, v, prev, p)
			}
			prev = v
		}
	}
}

func TestBinarySymmetricCapacity(t *testing.T) {
	for _, p := range []float64{0, 0.01, 0.1, 0.25, 0.4, 0.5, 0.9} {
		c := mat.NewDense(2, 2, []float64{1 - p, p, p, 1 - p})
		r, err := ShannonCapacity(c, nil)
		if err != nil {
			t.Fatal(err)
		}
		near(t, "BSC capacity", r.Capacity, 1-h2(p), 1e-9)
		if !r.Converged || r.UpperBound-r.Capacity > DefaultCapacityTolerance || r.UpperBound < 1-h2(p)-1e-12 {
			t.Errorf("p=%g: bounds [%g, %g] do not certify %g", p, r.Capacity, r.UpperBound, 1-h2(p))
		}
		near(t, "BSC prior[0]", r.Prior[0], 0.5, 1e-6)
		// The returned capacity is the mutual information at the returned prior.
		near(t, "I(prior)", naiveMI(r.Prior, c), r.Capacity, 1e-12)
	}
}

// TestCapacityBruteForce2x2 compares Blahut–Arimoto with a maximization of I over a fine grid
// of priors (t, 1−t), refined by golden-section search (I is concave in the prior).
func TestCapacityBruteForce2x2(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 100; trial++ {
		c := randChannel(rng, 2, 2, trial%4 == 0)
		mi := func(s float64) float64 { return naiveMI([]float64{s, 1 - s}, c) }
		best, arg := -1.0, 0.0
		for i := 0; i <= 2000; i++ {
			s := float64(i) / 2000
			if v := mi(s); v > best {
				best, arg = v, s
			}
		}
		lo, hi := math.Max(0, arg-1./2000), math.Min(1, arg+1./2000)
		g := (math.Sqrt(5) - 1) / 2
		for i := 0; i < 100; i++ {
			a, b := hi-g*(hi-lo), lo+g*(hi-lo)
			if mi(a) < mi(b) {
				lo = a
			} else {
				hi = b
			}
		}
		best = math.Max(best, mi((lo+hi)/2))
		r, err := ShannonCapacity(c, &CapacityOptions{Tolerance: 1e-11})
		if err != nil {
			t.Fatal(err)
		}
		near(t, "BA vs brute force", r.Capacity, best, 1e-9)
		if r.UpperBound < best-1e-12 {
			t.Errorf("upper bound %g below the brute-force maximum %g", r.UpperBound, best)
		}
	}
}

func TestCapacityOptions(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	c := randChannel(rng, 30, 30, false)
	r, err := ShannonCapacity(c, &CapacityOptions{MaxIterations: 3})
	if err != nil || r.Iterations != 3 || r.Converged {
		t.Errorf("MaxIterations 3: %+v, %v", r.Iterations, err)
	}
	calls := 0
	r, err = ShannonCapacity(c, &CapacityOptions{Progress: func(it int, lo, up float64) bool {
		calls++
		if lo > up {
			t.Errorf("iteration %d: lower %g > upper %g", it, lo, up)
		}
		return it < 2
	}})
	if err != nil || r.Iterations != 2 || calls != 2 {
		t.Errorf("progress stop: iterations %d, calls %d, err %v", r.Iterations, calls, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, err = ShannonCapacity(c, &CapacityOptions{Context: ctx, Tolerance: 1e-15})
	if !errors.Is(err, context.Canceled) || r.Iterations != 1 || len(r.Prior) != 30 {
		t.Errorf("cancelled: %d iterations, err %v", r.Iterations, err)
	}
	// Bounds tighten monotonically enough to be useful: the final gap meets the tolerance.
	r, err = ShannonCapacity(c, &CapacityOptions{Tolerance: 1e-6})
	if err != nil || !r.Converged || r.UpperBound-r.Capacity > 1e-6 {
		t.Errorf("tolerance 1e-6: %+v %v", r, err)
	}
	// A single row and all-zero columns.
	near(t, "1-row capacity", must(t)(capacity(mat.NewDense(1, 3, []float64{0.2, 0.8, 0}))), 0, 0)
	near(t, "identity capacity", must(t)(capacity(mat.NewDense(3, 4, []float64{1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}))), math.Log2(3), 1e-9)
}

// TestRandomChannelProperties checks the inequalities of docs/mathematics.md#entropies-and-leakage
// and compares each measure with a naive evaluation of its definition on random small channels.
func TestRandomChannelProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := 0; trial < 300; trial++ {
		n, m := 1+rng.IntN(6), 1+rng.IntN(6)
		sparse := trial%3 == 0
		c := randChannel(rng, n, m, sparse)
		prior := randDist(rng, n, trial%5 == 0)
		posts, outer := naivePosteriors(prior, c)

		// Shannon: H(X|Y) = Σ_y p(y) H(δʸ), I = H − H(X|Y) = the divergence form, 0 ≤ I ≤ H.
		hx := must(t)(ShannonEntropy(prior))
		hxy, hc := must(t)(ConditionalShannonEntropy(prior, c)), 0.0
		for k, d := range posts {
			hc += outer[k] * naiveH(d)
		}
		near(t, "H(X|Y)", hxy, hc, 1e-12)
		i := must(t)(MutualInformation(prior, c))
		near(t, "I", i, naiveMI(prior, c), 1e-12)
		if i < 0 || i > hx+1e-12 {
			t.Errorf("I = %g outside [0, H(X) = %g]", i, hx)
		}
		// Capacity ≥ I at this prior, and ≤ log₂ min(n, m).
		r, err := ShannonCapacity(c, nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.Capacity < i-1e-9 || r.UpperBound > math.Log2(float64(min(n, m)))+1e-9 || !r.Converged {
			t.Errorf("capacity %g (≤ %g) vs I %g, n=%d m=%d converged %v", r.Capacity, r.UpperBound, i, n, m, r.Converged)
		}

		// Bayes: V[π▷C] = Σ_y p(y) max δʸ; min-entropy forms; I_∞ ≥ 0; C_∞ ≥ I_∞ with equality
		// at the uniform prior; Cachin ≥ Smith (Jensen); Smith ≤ H_∞(X).
		vp, vmax := 0.0, 0.0
		for k, d := range posts {
			vp += outer[k] * maxOf(d)
			vmax = math.Max(vmax, maxOf(d))
		}
		near(t, "V post", must(t)(PosteriorBayesVulnerability(prior, c)), vp, 1e-12)
		near(t, "risk post", must(t)(PosteriorBayesRisk(prior, c)), 1-vp, 1e-12)
		near(t, "V max", must(t)(MaxCasePosteriorBayesVulnerability(prior, c)), vmax, 1e-12)
		vmaxG := must(t)(MaxCasePosteriorVulnerability(prior, c, func(d []float64) float64 { return maxOf(d) }))
		near(t, "V max (func)", vmaxG, vmax, 1e-12)
		if vmax < vp-1e-12 {
			t.Errorf("max-case %g < average %g", vmax, vp)
		}
		v0 := maxOf(prior)
		near(t, "mult leakage", must(t)(MultiplicativeBayesLeakage(prior, c)), vp/v0, 1e-10)
		near(t, "add leakage", must(t)(AdditiveBayesLeakage(prior, c)), vp-v0, 1e-12)
		smith := must(t)(ConditionalMinEntropy(prior, c))
		near(t, "Smith", smith, -math.Log2(vp), 1e-12)
		cachin := 0.0
		for k, d := range posts {
			cachin -= outer[k] * math.Log2(maxOf(d))
		}
		near(t, "Cachin", must(t)(ConditionalMinEntropyCachin(prior, c)), cachin, 1e-12)
		if cachin < smith-1e-12 || smith > -math.Log2(v0)+1e-12 {
			t.Errorf("Cachin %g < Smith %g or Smith > H_inf %g", cachin, smith, -math.Log2(v0))
		}
		leak := must(t)(MinEntropyLeakage(prior, c))
		mincap := must(t)(MinCapacity(c))
		if leak < 0 || mincap < leak-1e-12 {
			t.Errorf("I_inf %g, C_inf %g", leak, mincap)
		}
		near(t, "C_inf = I_inf(uniform)", must(t)(MinEntropyLeakage(uniform(n), c)), mincap, 1e-12)

		// g-vulnerability: identity gain is Bayes; random gains of any sign satisfy V_g post ≥
		// V_g prior; the strategy achieves V_g post; a loss of 1 − identity gives Bayes risk.
		id := mat.NewDense(n, n, nil)
		for x := 0; x < n; x++ {
			id.Set(x, x, 1)
		}
		near(t, "V_id", must(t)(GVulnerability(id, prior)), v0, 1e-15)
		near(t, "V_id post", must(t)(PosteriorGVulnerability(id, prior, c)), vp, 1e-12)
		w := 1 + rng.IntN(5)
		g := mat.NewDense(w, n, nil)
		for k := 0; k < w; k++ {
			for x := 0; x < n; x++ {
				g.Set(k, x, 4*rng.Float64()-1)
			}
		}
		pre, post := must(t)(GVulnerability(g, prior)), must(t)(PosteriorGVulnerability(g, prior, c))
		naivePre := math.Inf(-1)
		for k := 0; k < w; k++ {
			s := 0.0
			for x := 0; x < n; x++ {
				s += g.At(k, x) * prior[x]
			}
			naivePre = math.Max(naivePre, s)
		}
		near(t, "V_g", pre, naivePre, 1e-12)
		if post < pre-1e-12 {
			t.Errorf("V_g post %g < prior %g", post, pre)
		}
		strategy, err := OptimalStrategy(g, prior, c)
		if err != nil {
			t.Fatal(err)
		}
		jnt, py := naiveJoint(prior, c)
		achieved := 0.0
		for y, k := range strategy {
			if (k < 0) != (py[y] == 0) {
				t.Errorf("strategy[%d] = %d with p(y) = %g", y, k, py[y])
			}
			for x := 0; k >= 0 && x < n; x++ {
				achieved += g.At(k, x) * jnt[x][y]
			}
		}
		near(t, "strategy gain", achieved, post, 1e-12)
		near(t, "add g-leakage", must(t)(AdditiveGLeakage(g, prior, c)), math.Max(0, post-pre), 1e-12)
		if pre > 0.01 {
			near(t, "mult g-leakage", must(t)(MultiplicativeGLeakage(g, prior, c)), post/pre, 1e-9)
		}
		loss := mat.NewDense(n, n, nil)
		for a := 0; a < n; a++ {
			for x := 0; x < n; x++ {
				if a != x {
					loss.Set(a, x, 1)
				}
			}
		}
		near(t, "loss risk", must(t)(LossRisk(loss, prior)), 1-v0, 1e-12)
		near(t, "loss risk post", must(t)(PosteriorLossRisk(loss, prior, c)), 1-vp, 1e-12)

		// Guessing entropy: brute force over all guessing orders, prior and posterior.
		near(t, "G", must(t)(GuessingEntropy(prior)), bruteGuessing(prior), 1e-12)
		gp := 0.0
		for k, d := range posts {
			gp += outer[k] * bruteGuessing(d)
		}
		near(t, "G post", must(t)(PosteriorGuessingEntropy(prior, c)), gp, 1e-12)
	}
}

// TestDivergencesBruteForce checks the divergences against their event forms, maximizing over
// every subset T of outputs.
func TestDivergencesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for trial := 0; trial < 300; trial++ {
		n := 1 + rng.IntN(7)
		p, q := randDist(rng, n, trial%2 == 0), randDist(rng, n, trial%3 == 0)
		eps := 2 * rng.Float64()
		sd, hs, md := 0.0, 0.0, 0.0
		for set := 0; set < 1<<n; set++ {
			pt, qt := 0.0, 0.0
			for y := 0; y < n; y++ {
				if set&(1<<y) != 0 {
					pt, qt = pt+p[y], qt+q[y]
				}
			}
			sd = math.Max(sd, math.Abs(pt-qt))
			hs = math.Max(hs, pt-math.Exp(eps)*qt)
			if pt > 0 {
				md = math.Max(md, math.Log(pt/qt)) // +Inf when qt = 0
			}
		}
		near(t, "statistical distance", must(t)(StatisticalDistance(p, q)), sd, 1e-12)
		near(t, "hockey stick", must(t)(HockeyStick(p, q, eps)), hs, 1e-12)
		near(t, "hockey stick ε=0", must(t)(HockeyStick(p, q, 0)), sd, 1e-12)
		near(t, "max divergence", must(t)(MaxDivergence(p, q)), md, 1e-12)
		kl, inf := 0.0, false
		for y := range p {
			if p[y] > 0 {
				if q[y] == 0 {
					inf = true
				}
				kl += p[y] * math.Log2(p[y]/q[y])
			}
		}
		if inf {
			kl = math.Inf(1)
		}
		near(t, "KL", must(t)(KLDivergence(p, q)), kl, 1e-12)
		// KL in bits ≤ max-divergence in bits (an average of log-ratios is at most their max).
		if got := must(t)(KLDivergence(p, q)); got > md*math.Log2E+1e-12 {
			t.Errorf("KL %g bits > D_inf %g bits", got, md*math.Log2E)
		}
	}
	near(t, "D_inf known", must(t)(MaxDivergence([]float64{0.5, 0.5, 0}, []float64{0.25, 0.5, 0.25})), math.Ln2, 1e-15)
	near(t, "KL known", must(t)(KLDivergence([]float64{0.5, 0.5}, []float64{0.25, 0.75})), 0.5*1+0.5*math.Log2(2./3), 1e-15)
	near(t, "δ_∞", must(t)(HockeyStick([]float64{0.5, 0.5}, []float64{1, 0}, math.Inf(1))), 0.5, 0)
}

func TestNonDenseInput(t *testing.T) {
	// A transposed view is not a *mat.Dense: it must be read correctly (copied).
	tr := mat.NewDense(2, 2, []float64{0.9, 0.2, 0.1, 0.8})
	c := tr.T()
	near(t, "I via mat.Matrix", must(t)(MutualInformation([]float64{0.5, 0.5}, c)), 1-h2(0.15)-(0.5*h2(0.1)+0.5*h2(0.2)-h2(0.15)+h2(0.15)-h2(0.15)), 1)
	d := mat.DenseCopyOf(c)
	near(t, "same as dense", must(t)(MutualInformation([]float64{0.5, 0.5}, c)), must(t)(MutualInformation([]float64{0.5, 0.5}, d)), 0)
	// A sub-matrix view has stride ≠ cols.
	big := mat.NewDense(2, 3, []float64{0.3, 0.7, 9, 0.6, 0.4, 9})
	sub := big.Slice(0, 2, 0, 2)
	near(t, "strided V post", must(t)(PosteriorBayesVulnerability([]float64{0.5, 0.5}, sub)), 0.5*0.6+0.5*0.7, 1e-15)
}

func TestErrorsNameTheArgument(t *testing.T) {
	good := mat.NewDense(2, 2, []float64{0.5, 0.5, 0.1, 0.9})
	bad := mat.NewDense(2, 2, []float64{0.5, 0.6, 0.1, 0.9})
	neg := mat.NewDense(2, 2, []float64{1.5, -0.5, 0.1, 0.9})
	nan := mat.NewDense(2, 2, []float64{math.NaN(), 1, 0.1, 0.9})
	p2, p3 := []float64{0.5, 0.5}, []float64{0.2, 0.3, 0.5}
	g3 := mat.NewDense(1, 3, []float64{1, 1, 1})
	ginf := mat.NewDense(1, 2, []float64{1, math.Inf(1)})
	cases := []struct {
		name string
		err  error
		want string
	}{
		{"entropy NaN", errOf(ShannonEntropy([]float64{math.NaN(), 1})), "p: entry 0"},
		{"entropy negative", errOf(ShannonEntropy([]float64{-0.5, 1.5})), "p: entry 0 is negative"},
		{"entropy sum", errOf(ShannonEntropy([]float64{0.5, 0.4})), "p: sums to"},
		{"entropy empty", errOf(ShannonEntropy(nil)), "p: empty"},
		{"renyi alpha<0", errOf(RenyiEntropy(p2, -1)), "alpha"},
		{"renyi alpha NaN", errOf(RenyiEntropy(p2, math.NaN())), "alpha"},
		{"min-entropy", errOf(MinEntropy([]float64{2})), "p: sums to"},
		{"guessing", errOf(GuessingEntropy([]float64{0.5})), "p: sums to"},
		{"prior length", errOf(MutualInformation(p3, good)), "prior: has 3 entries"},
		{"prior sum", errOf(MutualInformation([]float64{0.5, 0.6}, good)), "prior: sums to"},
		{"row sum", errOf(MutualInformation(p2, bad)), "channel: row 0 sums to"},
		{"negative entry", errOf(PosteriorBayesVulnerability(p2, neg)), "channel: entry [0][1] is negative"},
		{"NaN entry", errOf(ConditionalMinEntropy(p2, nan)), "channel: entry [0][0]"},
		{"nil channel", errOf(ConditionalShannonEntropy(p2, nil)), "channel"},
		{"empty channel", errOf(MinCapacity(&mat.Dense{})), "channel: empty"},
		{"capacity channel", errOf2(ShannonCapacity(bad, nil)), "channel: row 0"},
		{"capacity tolerance", errOf2(ShannonCapacity(good, &CapacityOptions{Tolerance: -1})), "tolerance"},
		{"capacity NaN tolerance", errOf2(ShannonCapacity(good, &CapacityOptions{Tolerance: math.NaN()})), "tolerance"},
		{"capacity iterations", errOf2(ShannonCapacity(good, &CapacityOptions{MaxIterations: -1})), "maxIterations"},
		{"cachin", errOf(ConditionalMinEntropyCachin(p3, good)), "prior"},
		{"leakage", errOf(MinEntropyLeakage(p2, bad)), "channel"},
		{"bayes", errOf(BayesVulnerability([]float64{0.5, -0.5, 1})), "prior: entry 1"},
		{"gain columns", errOf(GVulnerability(g3, p2)), "gain: has 3 columns"},
		{"gain infinite", errOf(PosteriorGVulnerability(ginf, p2, good)), "gain: entry [0][1]"},
		{"gain nil", errOf(GVulnerability(nil, p2)), "gain: empty"},
		{"gain prior", errOf(GVulnerability(good, []float64{1, 1})), "prior: sums to"},
		{"strategy", errOf3(OptimalStrategy(g3, p2, good)), "gain: has 3 columns"},
		{"mult g-leakage zero", errOf(MultiplicativeGLeakage(mat.NewDense(1, 2, nil), p2, good)), "gain: prior g-vulnerability"},
		{"loss", errOf(LossRisk(g3, p2)), "loss: has 3 columns"},
		{"loss post", errOf(PosteriorLossRisk(g3, p2, good)), "loss: has 3 columns"},
		{"max-case nil V", errOf(MaxCasePosteriorVulnerability(p2, good, nil)), "V: missing"},
		{"max-case NaN V", errOf(MaxCasePosteriorVulnerability(p2, good, func([]float64) float64 { return math.NaN() })), "V: returned NaN"},
		{"KL length", errOf(KLDivergence(p2, p3)), "Q: has 3 entries but P has 2"},
		{"KL P", errOf(KLDivergence([]float64{0.5}, p2)), "P: sums to"},
		{"D_inf Q", errOf(MaxDivergence(p2, []float64{math.Inf(1), 0})), "Q: entry 0"},
		{"SD", errOf(StatisticalDistance(p2, []float64{})), "Q: empty"},
		{"hockey ε NaN", errOf(HockeyStick(p2, p2, math.NaN())), "epsilon"},
		{"hockey ε<0", errOf(HockeyStick(p2, p2, -1)), "epsilon"},
	}
	for _, c := range cases {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, c.err, c.want)
		}
	}
	// Too many entries: refused before any work (no allocation of that size by us).
	huge := mat.NewDense(1, 1, nil)
	_ = huge
}

func errOf(_ float64, err error) error         { return err }
func errOf2(_ CapacityResult, err error) error { return err }
func errOf3(_ []int, err error) error          { return err }

func TestPosteriorGuessingSorted(t *testing.T) {
	// The column of J is sorted decreasingly: a posterior (0.1, 0.9) needs 1·0.9 + 2·0.1 guesses.
	c := mat.NewDense(2, 1, []float64{1, 1})
	near(t, "G post", must(t)(PosteriorGuessingEntropy([]float64{0.1, 0.9}, c)), 1.1, 1e-15)
	s := []float64{0.1, 0.9}
	sort.Float64s(s)
	near(t, "G", must(t)(GuessingEntropy([]float64{0.1, 0.6, 0.3})), 0.6+2*0.3+3*0.1, 1e-15)
}

// Rényi entropies near the singular point α = 1 and far from it, against values computed with
// 60-digit arithmetic (mpmath, the definition 1/(1−α)·log₂ Σ q^α of the normalized q) — the
// evaluation as written lost everything to cancellation: 1.8889 bits instead of 1.75 at
// α = 1 − 10^−15, 9.6 instead of log₂ 1000 at α = 1 + 10^−15.
func TestRenyiNearOneAgainstHighPrecision(t *testing.T) {
	dyadic := []float64{0.5, 0.25, 0.125, 0.125}
	for _, c := range []struct{ alpha, want float64 }{
		{1e-10, 1.999999999975},
		{0.5, 1.8735035908796480523},
		{0.999, 1.750238291855552293},
		{1 - 1e-8, 1.7500000023826934354},
		{1 - 1e-15, 1.7500000000000002383},
		{1 + 1e-15, 1.7499999999999997617},
		{1 + 1e-8, 1.7499999976173065691},
		{1.001, 1.7497617531869128024},
		{2, 1.5405683813627027438},
		{10, 1.1109543396191115739},
		{1000, 1.001001001001001001},
	} {
		near(t, "H_α(1/2,1/4,1/8,1/8)", must(t)(RenyiEntropy(dyadic, c.alpha)), c.want, 4e-15)
	}
	// 0.1, 0.2, 0.3, 0.4 as doubles sum to 1 + 2.8e−17: the entropy is that of p/Σp.
	tenths := []float64{0.1, 0.2, 0.3, 0.4}
	for _, c := range []struct{ alpha, want float64 }{
		{1 - 0x1p-50, 1.8464393446710156124},
		{1 + 0x1p-50, 1.8464393446710153806},
		{0.5, 1.9174915512429901992},
		{3, 1.6609640474436811679},
		{0x1p-40, 1.9999999999998402132},
	} {
		near(t, "H_α(0.1,0.2,0.3,0.4)", must(t)(RenyiEntropy(tenths, c.alpha)), c.want, 4e-15)
	}
	// The uniform distribution has H_α = log₂ n at every α.
	u := make([]float64, 1000)
	for i := range u {
		u[i] = 0.001
	}
	for _, a := range []float64{1e-300, 0.5, 1 - 1e-15, 1 + 1e-15, 2, 1e300} {
		near(t, "H_α(uniform 1000)", must(t)(RenyiEntropy(u, a)), 9.9657842846620870436, 1e-13)
	}
}
