package estimate

import "math"

// The few distributions the estimates need, written here rather than imported from gonum's
// stat/distuv, which links gonum's mathext (Bessel and other special functions) into the page's
// WebAssembly module: 22 KB gzipped for three quantiles and a sampler.

// normalQuantile is Φ⁻¹(p) of the standard normal distribution.
func normalQuantile(p float64) float64 { return math.Sqrt2 * math.Erfinv(2*p-1) }

// normalCDF is Φ(z).
func normalCDF(z float64) float64 { return 0.5 * math.Erfc(-z/math.Sqrt2) }

// gammaP is the regularized lower incomplete gamma function P(a, x) = γ(a, x)/Γ(a), a > 0,
// by its series for x < a + 1 and by the continued fraction of Q = 1 − P beyond (Press et al.,
// Numerical Recipes, §6.2), both to double precision.
func gammaP(a, x float64) float64 {
	if x <= 0 {
		return 0
	}
	lg, _ := math.Lgamma(a)
	front := math.Exp(a*math.Log(x) - x - lg)
	if x < a+1 {
		sum, term := 1/a, 1/a
		for n := 1; n < 1000 && math.Abs(term) > math.Abs(sum)*1e-17; n++ {
			term *= x / (a + float64(n))
			sum += term
		}
		return math.Min(1, sum*front)
	}
	// Lentz's method for the continued fraction of Q.
	const tiny = 1e-300
	b := x + 1 - a
	c, d := 1/tiny, 1/b
	h := d
	for i := 1; i < 1000; i++ {
		b += 2
		var del float64
		c, d, del = lentzStep(-float64(i)*(float64(i)-a), b, c, d)
		h *= del
		if math.Abs(del-1) < 1e-16 {
			break
		}
	}
	return math.Max(0, 1-front*h)
}

// betaI is the regularized incomplete beta function I_x(a, b), a, b > 0, by its continued
// fraction (Press et al., Numerical Recipes, §6.4), using the symmetry I_x(a, b) = 1 − I_{1−x}(b, a)
// where the fraction converges slowly.
func betaI(a, b, x float64) float64 {
	if x <= 0 {
		return 0
	}
	if x >= 1 {
		return 1
	}
	la, _ := math.Lgamma(a)
	lb, _ := math.Lgamma(b)
	lab, _ := math.Lgamma(a + b)
	front := math.Exp(lab - la - lb + a*math.Log(x) + b*math.Log1p(-x))
	if x < (a+1)/(a+b+2) {
		return front * betaCF(a, b, x) / a
	}
	return 1 - front*betaCF(b, a, 1-x)/b
}

func betaCF(a, b, x float64) float64 {
	const tiny = 1e-300
	qab, qap, qam := a+b, a+1, a-1
	c, d := 1.0, 1-qab*x/qap
	if math.Abs(d) < tiny {
		d = tiny
	}
	d = 1 / d
	h := d
	for m := 1; m < 10000; m++ {
		fm := float64(m)
		m2 := 2 * fm
		var del float64
		c, d, del = lentzStep(fm*(b-fm)*x/((qam+m2)*(a+m2)), 1, c, d)
		h *= del
		c, d, del = lentzStep(-(a+fm)*(qab+fm)*x/((a+m2)*(qap+m2)), 1, c, d)
		h *= del
		if math.Abs(del-1) < 1e-16 {
			break
		}
	}
	return h
}

// lentzStep is one step of the modified Lentz method for a continued fraction b₀ + a₁/(b₁ +
// a₂/(b₂ + …)): with the next term's numerator aa and denominator bb, the new C and 1/D and the
// factor by which the value changes.
func lentzStep(aa, bb, c, d float64) (c2, d2, del float64) {
	const tiny = 1e-300
	d = bb + aa*d
	if math.Abs(d) < tiny {
		d = tiny
	}
	c = bb + aa/c
	if math.Abs(c) < tiny {
		c = tiny
	}
	d = 1 / d
	return c, d, d * c
}

// invert returns the x in [lo, hi] with f(x) = p for an increasing f, by bisection to the
// resolution of float64 (f's own accuracy is the limit).
func invert(f func(float64) float64, p, lo, hi float64) float64 {
	for i := 0; i < 200; i++ {
		mid := 0.5 * (lo + hi)
		if mid <= lo || mid >= hi {
			break
		}
		if f(mid) < p {
			lo = mid
		} else {
			hi = mid
		}
	}
	return 0.5 * (lo + hi)
}

// chiSquareQuantile is the p-quantile of χ² with k > 0 degrees of freedom: P(k/2, x/2) = p.
func chiSquareQuantile(p float64, k int) float64 {
	f := func(x float64) float64 { return gammaP(float64(k)/2, x/2) }
	hi := float64(k) + 10
	for f(hi) < p {
		hi *= 2
	}
	return invert(f, p, 0, hi)
}

// betaQuantile is the p-quantile of the Beta(a, b) distribution.
func betaQuantile(p, a, b float64) float64 {
	return invert(func(x float64) float64 { return betaI(a, b, x) }, p, 0, 1)
}

// binomial draws from the binomial distribution with n trials of probability p: Knuth's
// recursion (The Art of Computer Programming, vol. 2, §3.4.1 F) — the a-th smallest of n uniforms
// is Beta(a, n+1−a); whether it falls below p halves the trials left — then n ≤ 16 Bernoulli
// trials. Exact, with O(log n) Beta draws.
func binomial(n int, p float64, r *rng) int {
	x := 0
	for n > 16 {
		a := 1 + n/2
		b := n + 1 - a
		y := betaRand(float64(a), float64(b), r)
		if y >= p {
			n, p = a-1, p/y
		} else {
			x += a
			n, p = b-1, (p-y)/(1-y)
		}
	}
	for ; n > 0; n-- {
		if r.Float64() < p {
			x++
		}
	}
	return x
}

// betaRand draws from Beta(a, b), a, b ≥ 1, as G_a/(G_a + G_b).
func betaRand(a, b float64, r *rng) float64 {
	ga := gammaRand(a, r)
	return ga / (ga + gammaRand(b, r))
}

// gammaRand draws from Gamma(a, 1), a ≥ 1 (Marsaglia and Tsang, "A simple method for
// generating gamma variables", 2000).
func gammaRand(a float64, r *rng) float64 {
	d := a - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		z := normalRand(r)
		v := 1 + c*z
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := r.Float64()
		if u < 1-0.0331*z*z*z*z || math.Log(u) < 0.5*z*z+d*(1-v+math.Log(v)) {
			return d * v
		}
	}
}

// normalRand draws from N(0, 1) by Marsaglia's polar method (one of the pair).
func normalRand(r *rng) float64 {
	for {
		u, v := 2*r.Float64()-1, 2*r.Float64()-1
		s := u*u + v*v
		if s > 0 && s < 1 {
			return u * math.Sqrt(-2*math.Log(s)/s)
		}
	}
}
