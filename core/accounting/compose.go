package accounting

import (
	"context"
	"math"
	"math/cmplx"

	"gonum.org/v1/gonum/dsp/fourier"
)

// ffts caches one real FFT plan per length (plans hold their twiddle factors).
type ffts map[int]*fourier.FFT

func (f ffts) plan(n int) *fourier.FFT {
	p, ok := f[n]
	if !ok {
		p = fourier.NewFFT(n)
		f[n] = p
	}
	return p
}

// fftLen is the least n' ≥ n of the form 2^a 3^b 5^c (lengths the FFT handles at full speed),
// which wastes less than the next power of two.
func fftLen(n int) int {
	best := 1
	for best < n {
		best <<= 1
	}
	for p5 := 1; p5 < best; p5 *= 5 {
		for p35 := p5; p35 < best; p35 *= 3 {
			m := p35
			for m < n {
				m <<= 1
			}
			best = min(best, m)
		}
	}
	return best
}

// convolve is the PLD of the sum of independent losses of a and b (same grid), truncated.
// Short inputs are convolved directly; long ones by FFT.
func (f ffts) convolve(a, b *pld, tau float64, pess bool) (*pld, error) {
	n := len(a.m) + len(b.m) - 1
	if n > maxPoints {
		return nil, errTooFine
	}
	out := &pld{h: a.h, off: a.off + b.off, shift: a.shift + b.shift, inf: a.inf + b.inf - a.inf*b.inf, slack: a.slack + b.slack}
	if min(len(a.m), len(b.m)) <= 48 {
		out.m = make([]float64, n)
		for i, x := range a.m {
			if x == 0 {
				continue
			}
			row := out.m[i : i+len(b.m)]
			for j, y := range b.m {
				row[j] += x * y
			}
		}
	} else {
		L := fftLen(n)
		p := f.plan(L)
		fa := p.Coefficients(nil, padded(a.m, L))
		if a == b {
			for i := range fa {
				fa[i] *= fa[i]
			}
		} else {
			fb := p.Coefficients(nil, padded(b.m, L))
			for i := range fa {
				fa[i] *= fb[i]
			}
		}
		seq := p.Sequence(nil, fa)
		for i := range seq[:n] {
			seq[i] /= float64(L)
		}
		out.m = seq[:n]
	}
	out.truncate(tau, pess)
	return out, nil
}

// padded copies x into a slice of length L, zero beyond.
func padded(x []float64, L int) []float64 {
	out := make([]float64, L)
	copy(out, x)
	return out
}

// power is the k-fold self-composition of d by repeated squaring, truncating after every
// product; progress is called after each product.
func (f ffts) power(ctx context.Context, d *pld, k int, tau float64, pess bool) (*pld, error) {
	var acc *pld
	base := d
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var err error
		if k&1 == 1 {
			if acc == nil {
				acc = base
			} else if acc, err = f.convolve(acc, base, tau, pess); err != nil {
				return nil, err
			}
		}
		k >>= 1
		if k == 0 {
			return acc, nil
		}
		if base, err = f.convolve(base, base, tau, pess); err != nil {
			return nil, err
		}
	}
}

// powerFFT is the k-fold self-composition of d in one transform: the transform of d raised to
// the k-th power (in polar form, so that the phase keeps its digits for large k) on a circular
// window that holds the sum except for tails bounded by Chernoff's inequality,
// P(S ≥ t) ≤ min_λ M(λ)^k e^{−λt}. Mass beyond the window wraps around (aliasing) and lands
// somewhere inside it: the pessimistic PLD adds the bound on the upper tail to +∞ (so that no
// mass is placed lower than it is), the optimistic one records the bound on both tails as a
// slack subtracted from δ. Far fewer transforms than squaring (one pair instead of 2 log₂ k).
func (f ffts) powerFFT(d *pld, k int, tau float64, pess bool) (*pld, error) {
	n := len(d.m)
	mass, mean, m2 := 0.0, 0.0, 0.0
	for j, x := range d.m {
		mass += x
		mean += x * float64(j)
	}
	if !(mass > 0) {
		return &pld{h: d.h, off: k * d.off, shift: float64(k) * d.shift, m: []float64{0}, inf: 1 - math.Pow(1-d.inf, float64(k)), slack: d.slack * float64(k)}, nil
	}
	mean /= mass
	for j, x := range d.m {
		m2 += x * (float64(j) - mean) * (float64(j) - mean)
	}
	sd := math.Sqrt(float64(k) * m2 / mass)
	// ln M(λ) = ln Σ m_j e^{λ(j − mean)} on a fixed geometric grid of λ (both signs), computed once;
	// Chernoff: P(S − k·mean ≥ t) ≤ min_λ e^{k ln M(λ) − λt}. The grid spans the Gaussian optimum
	// t/sd² for the windows tried and far below it (a skewed law, such as the subsampled
	// Gaussian's, wants a smaller λ).
	type point struct{ lambda, logM float64 }
	var grid [2][]point
	var ys, lms []float64 // j − mean and ln m_j over the positive entries
	for j, x := range d.m {
		if x > 0 {
			ys, lms = append(ys, float64(j)-mean), append(lms, math.Log(x))
		}
	}
	for side, sign := range [2]float64{1, -1} {
		for e := -24; e <= 4; e++ {
			lambda := sign * math.Ldexp(1/math.Max(sd, 1e-300), e)
			top := math.Inf(-1)
			for i, y := range ys {
				top = math.Max(top, lms[i]+lambda*y)
			}
			sum := 0.0
			for i, y := range ys {
				sum += math.Exp(lms[i] + lambda*y - top)
			}
			grid[side] = append(grid[side], point{lambda, top + math.Log(sum)})
		}
	}
	tail := func(t, sign float64) float64 {
		side := 0
		if sign < 0 {
			side = 1
		}
		best := 1.0
		for _, g := range grid[side] {
			best = math.Min(best, math.Exp(float64(k)*g.logM-sign*g.lambda*t))
		}
		return best
	}
	full := float64(k) * float64(n-1) // the whole support of the sum, in grid steps
	var lo, hi, tailLo, tailHi float64
	for c := 10.0; ; c *= 1.3 {
		half := c*sd + float64(n)
		lo, hi = math.Max(math.Floor(float64(k)*mean-half), 0), math.Min(math.Ceil(float64(k)*mean+half), full)
		tailLo, tailHi = 0, 0
		if lo > 0 {
			tailLo = tail(float64(k)*mean-lo, -1)
		}
		if hi < full {
			tailHi = tail(hi-float64(k)*mean, 1)
		}
		if (tailLo <= tau && tailHi <= tau) || hi-lo+1 > maxPoints {
			break
		}
	}
	if hi-lo+1 > maxPoints {
		return nil, errTooFine
	}
	L := fftLen(int(hi-lo) + 1)
	p := f.plan(L)
	// Centred on its mean, so that the low frequencies' phases are near 0: a relative error of
	// the twiddle factors then does not become, raised to the k-th power, a shift of the sum.
	jm := int(math.Round(mean))
	x := make([]float64, L)
	for j, v := range d.m {
		x[((j-jm)%L+L)%L] += v
	}
	c := p.Coefficients(nil, x)
	kf := float64(k)
	for i, z := range c {
		r, th := cmplx.Abs(z), cmplx.Phase(z)
		c[i] = cmplx.Rect(math.Pow(r, kf), math.Mod(th*kf, 2*math.Pi))
	}
	seq := p.Sequence(nil, c)
	W := int(hi-lo) + 1
	out := &pld{h: d.h, off: k*d.off + int(lo), shift: kf * d.shift, m: make([]float64, W),
		inf: -math.Expm1(kf * math.Log1p(-d.inf)), slack: d.slack * kf}
	for i := range out.m {
		out.m[i] = seq[((int(lo)+i-k*jm)%L+L)%L] / float64(L)
	}
	if pess {
		out.inf += tailHi
	} else {
		out.slack += tailLo + tailHi
	}
	out.truncate(tau, pess)
	return out, nil
}
