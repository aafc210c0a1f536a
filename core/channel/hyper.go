package channel

import (
	"math"
	"sort"

	"gonum.org/v1/gonum/mat"
)

// MergeTolerance is the absolute tolerance under which two posteriors (or two normalized
// columns, in Reduce) count as equal: δ and δ' are merged when max_x |δ[x] − δ'[x]| ≤
// MergeTolerance. It absorbs floating-point rounding (proportional columns give posteriors that
// agree to ~1e-16) while keeping genuinely different posteriors apart, even those of mechanisms
// with a tiny ε. Posteriors that differ by less than this are reported as one.
const MergeTolerance = 1e-9

// Posterior is the posterior distribution on secrets after observing one output.
type Posterior struct {
	Output int       // the output y (column index of the channel)
	Prob   float64   // p(y) = Σ_x π_x C[x][y], always > 0
	Dist   []float64 // δʸ[x] = π_x C[x][y] / p(y)
}

// HyperDistribution is the hyper-distribution [π▷C]: a distribution (Outer) over distinct
// posterior distributions (the rows of Inners).
//
// The posteriors are listed in the order in which they first appear when the outputs are read
// by increasing column index: Inners row 0 is the posterior of the first output with p(y) > 0,
// row 1 that of the next output whose posterior differs from row 0, and so on.
type HyperDistribution struct {
	// Outer[k] is the probability of the k-th distinct posterior: the sum of p(y) over the
	// outputs y that produce it.
	Outer []float64
	// Inners is k×|X|; row k is the k-th distinct posterior. When several outputs are merged,
	// the row is their p(y)-weighted average, so that Σ_k Outer[k]·Inners[k] = π exactly up
	// to rounding.
	Inners *mat.Dense
	// Outputs[k] lists, in increasing order, the outputs y (column indices of the channel)
	// whose posterior is the k-th one.
	Outputs [][]int
}

// denseOf returns the row-major data and stride of m, copying m when it is not a *mat.Dense.
// m must have been validated (non-empty).
func denseOf(m mat.Matrix) (data []float64, stride, rows, cols int) {
	raw := asDense(m).RawMatrix()
	return raw.Data, raw.Stride, raw.Rows, raw.Cols
}

// Joint returns the joint matrix J[x][y] = π_x C[x][y] of prior π and channel C, after
// validating both (errors name "prior" or "channel").
func Joint(prior []float64, c mat.Matrix) (*mat.Dense, error) {
	if err := validatePair(prior, c); err != nil {
		return nil, err
	}
	data, stride, n, m := denseOf(c)
	out := make([]float64, n*m)
	for x := 0; x < n; x++ {
		px := prior[x]
		row := data[x*stride : x*stride+m]
		dst := out[x*m : x*m+m]
		for y, v := range row {
			dst[y] = px * v
		}
	}
	return mat.NewDense(n, m, out), nil
}

// OutputDistribution returns p(y) = Σ_x π_x C[x][y], the distribution on outputs induced by
// prior π through channel C.
func OutputDistribution(prior []float64, c mat.Matrix) ([]float64, error) {
	if err := validatePair(prior, c); err != nil {
		return nil, err
	}
	data, stride, n, m := denseOf(c)
	return outputDist(prior, data, stride, n, m), nil
}

func outputDist(prior, data []float64, stride, n, m int) []float64 {
	p := make([]float64, m)
	for x := 0; x < n; x++ {
		px := prior[x]
		if px == 0 {
			continue
		}
		row := data[x*stride : x*stride+m]
		for y, v := range row {
			p[y] += px * v
		}
	}
	return p
}

// Posteriors returns one posterior per output y with p(y) > 0, in increasing order of y.
// Outputs with p(y) = 0 (exactly) have no posterior and are skipped; Output keeps the column
// index so that the caller can tell which outputs remain. Equal posteriors are not merged
// here (see Hyper).
func Posteriors(prior []float64, c mat.Matrix) ([]Posterior, error) {
	post, _, err := posteriors(prior, c)
	return post, err
}

// posteriors is Posteriors that also returns the buffer holding all the Dist vectors, one after
// the other in the order of post.
func posteriors(prior []float64, c mat.Matrix) ([]Posterior, []float64, error) {
	if err := validatePair(prior, c); err != nil {
		return nil, nil, err
	}
	data, stride, n, m := denseOf(c)
	p := outputDist(prior, data, stride, n, m)
	var out []Posterior
	cols := make([]int, 0, m)
	for y, py := range p {
		if py > 0 {
			cols = append(cols, y)
		}
	}
	flat := make([]float64, len(cols)*n)
	out = make([]Posterior, len(cols))
	for k, y := range cols {
		out[k] = Posterior{Output: y, Prob: p[y], Dist: flat[k*n : k*n+n : k*n+n]}
	}
	inv := make([]float64, len(cols))
	for k, y := range cols {
		inv[k] = 1 / p[y]
	}
	// The posteriors are columns of the joint matrix: transpose in tiles so that both the
	// reads (rows of C) and the writes (posterior vectors) stay in cache.
	const tile = 32
	for x0 := 0; x0 < n; x0 += tile {
		x1 := min(x0+tile, n)
		for k0 := 0; k0 < len(cols); k0 += tile {
			k1 := min(k0+tile, len(cols))
			for x := x0; x < x1; x++ {
				px := prior[x]
				if px == 0 {
					continue
				}
				row := data[x*stride : x*stride+m]
				for k := k0; k < k1; k++ {
					flat[k*n+x] = px * row[cols[k]] * inv[k]
				}
			}
		}
	}
	return out, flat, nil
}

// Hyper returns the hyper-distribution [π▷C]: outputs with p(y) = 0 are dropped, outputs
// whose posteriors are equal within MergeTolerance are merged (their probabilities added), and
// the distinct posteriors are listed in order of first appearance by output index (see
// HyperDistribution). Outer sums to 1 up to rounding.
func Hyper(prior []float64, c mat.Matrix) (*HyperDistribution, error) {
	post, flat, err := posteriors(prior, c)
	if err != nil {
		return nil, err
	}
	n := len(prior)
	vecs := make([][]float64, len(post))
	for k := range post {
		vecs[k] = post[k].Dist
	}
	classes := groupEqual(vecs, MergeTolerance)
	h := &HyperDistribution{
		Outer:   make([]float64, len(classes)),
		Outputs: make([][]int, len(classes)),
	}
	// The inners are compacted in place into the posteriors' buffer: every member of class k
	// has index ≥ k (classes are numbered in order of their first member), so row k can be
	// overwritten once the class is summed into tmp, without touching a row still to be read.
	tmp := make([]float64, n)
	for k, members := range classes {
		row := flat[k*n : k*n+n]
		if len(members) == 1 {
			j := members[0]
			if j != k {
				copy(row, post[j].Dist)
			}
			h.Outer[k] = post[j].Prob
			h.Outputs[k] = []int{post[j].Output}
			continue
		}
		clear(tmp)
		outs := make([]int, len(members))
		for i, j := range members {
			pr := post[j].Prob
			h.Outer[k] += pr
			// Σ_y p(y)δʸ over the class is Σ_y J[·][y]: the merged posterior is the
			// posterior of the merged output, which keeps Σ_k outer_k inner_k = π.
			for x, v := range post[j].Dist {
				tmp[x] += pr * v
			}
			outs[i] = post[j].Output
		}
		for x, v := range tmp {
			row[x] = v / h.Outer[k]
		}
		h.Outputs[k] = outs
	}
	h.Inners = mat.NewDense(len(classes), n, flat[:len(classes)*n:len(classes)*n])
	return h, nil
}

// groupEqual partitions the indices of vecs (all of the same length) into classes of vectors
// equal within tol in the max norm. Vectors are read in index order; each joins the class of the
// earliest class representative (the class's first vector) within tol of it, or starts a new
// class. Classes are returned in order of their first member, members in increasing order.
//
// To avoid comparing every pair, each vector gets a scalar key Σ_x w_x v[x] with fixed weights
// w_x in [0.5, 1.5): vectors within tol of each other have keys within tol·Σw, so only
// neighbours in key order need a full comparison.
func groupEqual(vecs [][]float64, tol float64) [][]int {
	m := len(vecs)
	if m == 0 {
		return nil
	}
	n := len(vecs[0])
	w := make([]float64, n)
	wsum := 0.0
	for x := range w {
		// Fractional parts of multiples of the golden ratio: spread out, deterministic.
		w[x] = 0.5 + math.Mod(float64(x+1)*0.6180339887498949, 1)
		wsum += w[x]
	}
	key := make([]float64, m)
	for i, v := range vecs {
		s := 0.0
		for x, vx := range v {
			s += w[x] * vx
		}
		key[i] = s
	}
	order := make([]int, m)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return key[order[a]] < key[order[b]] })
	pos := make([]int, m)
	for p, i := range order {
		pos[i] = p
	}
	// Slack for the rounding of the keys themselves.
	window := tol*wsum + 1e-12*(1+wsum)
	rep := make([]int, m) // rep[i] = index of the class representative of i
	classOf := make([]int, m)
	var classes [][]int
	for i := 0; i < m; i++ {
		best := -1
		scan := func(p int) bool {
			j := order[p]
			if math.Abs(key[j]-key[i]) > window {
				return false
			}
			if j < i && rep[j] == j && (best < 0 || j < best) && maxDiff(vecs[i], vecs[j]) <= tol {
				best = j
			}
			return true
		}
		for p := pos[i] - 1; p >= 0 && scan(p); p-- {
		}
		for p := pos[i] + 1; p < m && scan(p); p++ {
		}
		if best < 0 {
			rep[i] = i
			classOf[i] = len(classes)
			classes = append(classes, []int{i})
		} else {
			rep[i] = best
			classOf[i] = classOf[best]
			classes[classOf[i]] = append(classes[classOf[i]], i)
		}
	}
	return classes
}

func maxDiff(a, b []float64) float64 {
	d := 0.0
	for i, v := range a {
		if e := math.Abs(v - b[i]); e > d {
			d = e
		}
	}
	return d
}

// validatePair validates a channel, then a prior and the agreement of their sizes.
func validatePair(prior []float64, c mat.Matrix) error {
	if err := Validate(c); err != nil {
		return err
	}
	return ValidatePrior(prior, c)
}
