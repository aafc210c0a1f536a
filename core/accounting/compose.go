package accounting

import (
	"context"

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

// fftLen is the least power of two ≥ n.
func fftLen(n int) int {
	m := 1
	for m < n {
		m <<= 1
	}
	return m
}

// convolve is the PLD of the sum of independent losses of a and b (same grid), truncated.
// Short inputs are convolved directly; long ones by FFT.
func (f ffts) convolve(a, b *pld, tau float64, pess bool) (*pld, error) {
	n := len(a.m) + len(b.m) - 1
	if n > maxPoints {
		return nil, errTooFine
	}
	out := &pld{h: a.h, off: a.off + b.off, shift: a.shift + b.shift, inf: a.inf + b.inf - a.inf*b.inf}
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
