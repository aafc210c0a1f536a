package measure

import (
	"context"
	"fmt"
	"math"

	"github.com/qif-toolkit/qif/core/argerr"
	"gonum.org/v1/gonum/mat"
)

// DefaultCapacityTolerance is the gap, in bits, between the certified upper bound and the
// achieved mutual information at which ShannonCapacity stops when no tolerance is given.
const DefaultCapacityTolerance = 1e-9

// DefaultCapacityMaxIterations is the iteration limit of ShannonCapacity when none is given.
// Blahut–Arimoto usually reaches the default tolerance on random channels in well under a
// hundred iterations, but near-degenerate channels converge slowly; the limit bounds the
// running time, and the returned bounds still say how far from the capacity the result is.
const DefaultCapacityMaxIterations = 10_000

// CapacityOptions tunes ShannonCapacity. The zero value (or a nil pointer) means the defaults.
type CapacityOptions struct {
	// Tolerance is the stopping gap in bits: iteration stops once UpperBound − Capacity ≤
	// Tolerance. Zero means DefaultCapacityTolerance; negative or NaN is an error.
	Tolerance float64
	// MaxIterations bounds the number of iterations. Zero means DefaultCapacityMaxIterations;
	// negative is an error.
	MaxIterations int
	// Progress, when non-nil, is called after every iteration with the iteration number and the
	// current lower and upper bounds in bits; returning false stops the iteration early (the
	// result is then returned with Converged false and no error).
	Progress func(iteration int, lower, upper float64) bool
	// Context, when non-nil, is checked every iteration; once it is done ShannonCapacity returns
	// the best result so far together with the context's error.
	Context context.Context
}

// CapacityResult is the outcome of ShannonCapacity.
type CapacityResult struct {
	// Capacity is the mutual information I(X;Y) achieved by Prior, in bits: a lower bound on the
	// capacity.
	Capacity float64
	// Prior is the input distribution achieving Capacity (the maximizing prior, up to the gap).
	Prior []float64
	// Iterations is the number of Blahut–Arimoto iterations performed (bound evaluations).
	Iterations int
	// UpperBound is max_x D(C_x ‖ q) in bits for the output distribution q induced by Prior: a
	// certified upper bound on the capacity, so the true capacity lies in [Capacity, UpperBound].
	UpperBound float64
	// Converged reports whether UpperBound − Capacity ≤ Tolerance.
	Converged bool
}

// ShannonCapacity returns the Shannon capacity max_π I(X;Y) of the channel C, computed by the
// Blahut–Arimoto algorithm. Each iteration with prior r and output distribution q = rC computes
// D_x = D(C_x ‖ q) for every row; then I(r) = Σ_x r_x D_x ≤ capacity ≤ max_x D_x, and the prior
// is updated to r_x·e^{μ D_x}, normalized, where μ = 1 is the classical step and larger μ are
// tried adaptively (kept only while I increases). Iteration stops when the gap between the best
// lower and upper bounds is at most the tolerance (see CapacityOptions), so the result is
// certified to that accuracy.
//
// opts may be nil. When the iteration limit is reached first, the result is returned with
// Converged false and no error: its bounds are still valid.
func ShannonCapacity(C mat.Matrix, opts *CapacityOptions) (CapacityResult, error) {
	var o CapacityOptions
	if opts != nil {
		o = *opts
	}
	if math.IsNaN(o.Tolerance) || o.Tolerance < 0 {
		return CapacityResult{}, argerr.New("tolerance", "must be a positive number of bits, got %v", o.Tolerance)
	}
	if o.Tolerance == 0 {
		o.Tolerance = DefaultCapacityTolerance
	}
	if o.MaxIterations < 0 {
		return CapacityResult{}, argerr.New("maxIterations", "must be positive, got %d", o.MaxIterations)
	}
	if o.MaxIterations == 0 {
		o.MaxIterations = DefaultCapacityMaxIterations
	}
	c, err := channelView("channel", C)
	if err != nil {
		return CapacityResult{}, err
	}
	return blahutArimoto(dropZeroColumns(c), o)
}

// dropZeroColumns removes all-zero columns, which carry no information and would otherwise make
// q(y) = 0 and log q(y) = −∞ appear in every row's sum.
func dropZeroColumns(c matrix) matrix {
	colSum := make([]float64, c.cols)
	for x := 0; x < c.rows; x++ {
		row := c.row(x)
		colSum := colSum[:len(row)]
		for y, v := range row {
			colSum[y] += v
		}
	}
	keep := make([]int, 0, c.cols)
	for y, s := range colSum {
		if s > 0 {
			keep = append(keep, y)
		}
	}
	if len(keep) == c.cols {
		return c
	}
	out := matrix{rows: c.rows, cols: len(keep), stride: len(keep), data: make([]float64, c.rows*len(keep))}
	for x := 0; x < c.rows; x++ {
		src, dst := c.row(x), out.row(x)
		for j, y := range keep {
			dst[j] = src[y]
		}
	}
	return out
}

func blahutArimoto(c matrix, o CapacityOptions) (CapacityResult, error) {
	n, m := c.rows, c.cols
	// negH[x] = Σ_y C log C (nats), so that D_x = negH[x] − Σ_y C[x][y] log q(y) needs no
	// per-entry logarithm inside the iteration: only m logarithms and n exponentials each time.
	negH := make([]float64, n)
	for x := 0; x < n; x++ {
		s := 0.0
		for _, v := range c.row(x) {
			if v > 0 {
				s += v * math.Log(v)
			}
		}
		negH[x] = s
	}
	r := make([]float64, n)
	for x := range r {
		r[x] = 1 / float64(n)
	}
	q := make([]float64, m)
	for x := 0; x < n; x++ {
		axpy(q, r[x], c.row(x))
	}
	lq := make([]float64, m)
	qNext := make([]float64, m)
	d := make([]float64, n)
	w := make([]float64, n)
	// The last accepted point, to return to when an accelerated step lowers I.
	prevR := make([]float64, n)
	prevD := make([]float64, n)
	prevLower := math.Inf(-1)
	// Accelerated steps r_x ∝ r_x e^{μ D_x} (μ = 1 is Blahut–Arimoto): μ doubles after every
	// step that raises I, up to maxStep, and drops back to 1 when a step lowers I. Inputs that
	// are not in the optimal support then vanish μ times faster, which is what makes plain
	// Blahut–Arimoto slow (31 480 iterations to a 1e-9 gap on a random 200×200 channel, about
	// 2 800 with this rule). The bounds remain exact whatever the step.
	const maxStep = 1024
	shift := 0.0
	mu := 1.0

	var res CapacityResult
	bestUpper := math.Inf(1)
	for it := 1; ; it++ {
		zeroQ := false
		for y, v := range q {
			if v > 0 {
				lq[y] = math.Log(v)
			} else {
				zeroQ = true
			}
		}
		// One pass over the matrix computes every D_x and, fused with it, the unnormalized next
		// output distribution Σ_x w_x C_x for the next prior w ∝ r_x e^{μ D_x}. Whatever weights
		// are used, the next q is the output distribution of the next prior.
		for y := range qNext {
			qNext[y] = 0
		}
		for x := 0; x < n; x++ {
			row := c.row(x)
			var dx float64
			if zeroQ {
				dx = divergenceToZeroes(row, q, lq, negH[x])
			} else {
				dx = negH[x] - dot(row, lq)
			}
			d[x] = dx
			wx := 0.0
			if r[x] > 0 && !math.IsInf(dx, 1) {
				wx = r[x] * math.Exp(math.Min(mu*(dx-shift), 700))
			}
			w[x] = wx
			if wx > 0 {
				axpy(qNext, wx, row)
			}
		}
		lower, upper := 0.0, math.Inf(-1)
		for x, dx := range d {
			if r[x] > 0 {
				lower += r[x] * dx
			}
			if dx > upper {
				upper = dx
			}
		}
		if lower < prevLower && mu > 1 {
			// The accelerated step lowered I: go back to the previous point and take a plain
			// Blahut–Arimoto step from there, which never lowers I.
			mu = 1
			copy(r, prevR)
			copy(d, prevD)
			for x := range w {
				w[x] = r[x] * math.Exp(d[x]-shift)
			}
			for y := range qNext {
				qNext[y] = 0
			}
			for x := 0; x < n; x++ {
				if w[x] > 0 {
					axpy(qNext, w[x], c.row(x))
				}
			}
			lower = prevLower
		} else {
			copy(prevR, r)
			copy(prevD, d)
			prevLower = lower
			// Every output distribution q gives the upper bound max_x D(C_x‖q): keep the best.
			bestUpper = math.Min(bestUpper, upper*math.Log2E)
			lb := math.Max(lower*math.Log2E, 0) // I ≥ 0; only rounding makes it negative
			if lb >= res.Capacity || it == 1 {
				res.Capacity = lb
				res.Prior = append(res.Prior[:0], r...)
			}
			if bestUpper < res.Capacity {
				bestUpper = res.Capacity
			}
			mu = math.Min(2*mu, maxStep)
		}
		res.Iterations = it
		res.UpperBound = bestUpper
		if res.UpperBound-res.Capacity <= o.Tolerance {
			res.Converged = true
			return res, nil
		}
		if it >= o.MaxIterations {
			return res, nil
		}
		if o.Progress != nil && !o.Progress(it, res.Capacity, res.UpperBound) {
			return res, nil
		}
		if o.Context != nil {
			if err := o.Context.Err(); err != nil {
				return res, fmt.Errorf("shannon capacity: stopped after %d iterations: %w", it, err)
			}
		}
		shift = upper
		z := 0.0
		for _, v := range w {
			z += v
		}
		for x := range r {
			// A floor keeps every input alive: an input dropped to exactly 0 could never return.
			r[x] = math.Max(w[x]/z, 1e-250)
		}
		for y := range q {
			q[y] = qNext[y] / z
		}
	}
}

// divergenceToZeroes is D(C_x‖q) in nats when some q(y) is 0 (only after a prior entry has
// underflowed to 0): +Inf if the row has mass there, otherwise those terms are skipped.
func divergenceToZeroes(row, q, lq []float64, negH float64) float64 {
	s := negH
	for y, v := range row {
		if v > 0 {
			if q[y] == 0 {
				return math.Inf(1)
			}
			s -= v * lq[y]
		}
	}
	return s
}

func dot(a, b []float64) float64 {
	b = b[:len(a)]
	s0, s1 := 0.0, 0.0
	i := 0
	for ; i+1 < len(a); i += 2 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
	}
	if i < len(a) {
		s0 += a[i] * b[i]
	}
	return s0 + s1
}

func axpy(dst []float64, alpha float64, x []float64) {
	dst = dst[:len(x)]
	for i, v := range x {
		dst[i] += alpha * v
	}
}
