package estimate

import (
	"math"
	"slices"
)

// The nearest-neighbour estimator of the mutual information between a discrete secret and
// numeric observations (Ross, "Mutual information between discrete and continuous data sets",
// PLoS ONE 2014), in the style of Kraskov, Stögbauer and Grassberger (2004). For sample i with
// secret x_i: d_i is the max-norm distance to its k-th nearest neighbour among the N_{x_i}
// samples of the same secret, k_i the number of those within d_i (k, or more on ties) and m_i the
// number of all samples within d_i (i itself excluded from both); then
//
//	I = ψ(N) − ⟨ψ(N_x)⟩ + ⟨ψ(k_i)⟩ − ⟨ψ(m_i)⟩   (nats),
//
// ⟨·⟩ the mean over the samples and ψ the digamma function. Counting every sample at distance
// exactly d_i (k_i ≥ k) is the treatment of ties of Gao, Kannan, Oh and Viswanath ("Estimating
// mutual information for discrete-continuous mixtures", NeurIPS 2017): with repeated values
// (d_i = 0) the terms become those of the plug-in estimate instead of diverging.

// rossData is a sample prepared for repeated estimates (groups, shuffles): one-dimensional
// observations sorted, or the points as they are.
type rossData struct {
	dim int
	v   []float64 // the observations, sorted when dim = 1
	sec []int32   // the secret of each observation, in the same order
	L   int
	k   int
	psi []float64 // ψ(0..n), ψ(0) unused
	// visit, when set, is told every progressStep(dim) samples how many this estimate has visited;
	// false cancels (cancelled is then set and the estimates return at once).
	visit     func(points int) bool
	cancelled bool
	seen      int       // samples visited by the current estimate (the groups add up)
	all       *chebTree // the tree of all of v (dim ≥ 2), the same for the sample and its shuffles
}

// progressStep is how many samples an estimate visits between progress reports: on a line a
// sample costs a few binary-search steps, in more dimensions a few k-d tree walks.
func progressStep(dim int) int {
	if dim > 1 {
		return 1 << 12
	}
	return 1 << 16
}

// step counts one visited sample and reports every progressStep; false: cancelled.
func (d *rossData) step() bool {
	d.seen++
	if d.visit == nil || d.seen%progressStep(d.dim) != 0 {
		return true
	}
	return d.visit(d.seen)
}

func newRossData(s *Sample, k int) *rossData {
	d := &rossData{dim: s.Dim, L: len(s.SecretNames), k: k, psi: digammaTable(s.N)}
	if s.Dim == 1 {
		d.v, d.sec = sortLineByValue(s.Vectors, s.Secret)
		return d
	}
	d.v, d.sec = s.Vectors, s.Secret
	return d
}

// breakTies spreads the repeated values of each coordinate uniformly within (−Δ/2, Δ/2) of
// themselves, Δ the least gap between the coordinate's distinct values (see NearestNeighbourMI),
// and returns the number of coordinates it changed. The observations are copied before they
// change (the sample's own stay as they are); a line stays sorted, since offsets smaller than
// half the gap keep the order of distinct values and equal values may come in any order.
func (d *rossData) breakTies(rng *rng) int {
	n := len(d.sec)
	if n < 2 {
		return 0
	}
	changed := 0
	col := make([]float64, n)
	var copied bool
	for c := 0; c < d.dim; c++ {
		for i := range col {
			col[i] = d.v[i*d.dim+c]
		}
		if d.dim > 1 {
			slices.Sort(col)
		}
		gap, repeated := math.Inf(1), false
		for i := 1; i < n; i++ {
			switch g := col[i] - col[i-1]; {
			case g == 0:
				repeated = true
			case g < gap:
				gap = g
			}
		}
		if !repeated {
			continue
		}
		if math.IsInf(gap, 1) { // one value only: any spread keeps it recoverable
			gap = math.Max(1, math.Abs(col[0]))
		}
		if !copied {
			d.v = append([]float64(nil), d.v...)
			copied = true
		}
		for i := 0; i < n; i++ {
			j := i*d.dim + c
			d.v[j] += (rng.Float64() - 0.5) * gap * (1 - 1e-9)
		}
		changed++
	}
	if changed > 0 && d.dim == 1 {
		// Equal values took offsets in sample order: sort again (with their secrets).
		d.v, d.sec = sortLineByValue(d.v, d.sec)
	}
	return changed
}

// digammaTable is ψ(i) for i = 0..n (ψ(0) set to 0, never read): ψ(1) = −γ, ψ(i+1) = ψ(i) + 1/i.
func digammaTable(n int) []float64 {
	t := make([]float64, n+1)
	if n >= 1 {
		t[1] = -0.57721566490153286061
	}
	for i := 1; i < n; i++ {
		t[i+1] = t[i] + 1/float64(i)
	}
	return t
}

// sortLineByValue sorts one-dimensional observations with their secrets, by a least-significant-
// digit radix sort on the order-preserving integer image of the floats (four passes of 16 bits,
// a pass skipped when every key shares its digit): linear time, twice as fast as a comparison
// sort on a million values.
func sortLineByValue(xs []float64, secrets []int32) ([]float64, []int32) {
	n := len(xs)
	key, sec := make([]uint64, n), make([]int32, n)
	for i, x := range xs {
		b := math.Float64bits(x + 0) // −0 sorts with 0
		if b>>63 != 0 {
			b = ^b
		} else {
			b |= 1 << 63
		}
		key[i], sec[i] = b, secrets[i]
	}
	key2, sec2 := make([]uint64, n), make([]int32, n)
	var count [1 << 16]int
	for shift := uint(0); shift < 64; shift += 16 {
		clear(count[:])
		for _, k := range key {
			count[(k>>shift)&0xffff]++
		}
		if count[(key[0]>>shift)&0xffff] == n {
			continue
		}
		at := 0
		for i, c := range count {
			count[i] = at
			at += c
		}
		for i, k := range key {
			j := &count[(k>>shift)&0xffff]
			key2[*j], sec2[*j] = k, sec[i]
			*j++
		}
		key, key2, sec, sec2 = key2, key, sec2, sec
	}
	v := make([]float64, n)
	for i, b := range key {
		if b>>63 != 0 {
			b &^= 1 << 63
		} else {
			b = ^b
		}
		v[i] = math.Float64frombits(b)
	}
	return v, sec
}

// estimate is the estimator on the samples of v and sec, in bits. Secrets seen once are left
// out (they have no neighbour), and a secret with at most k samples uses k = its count − 1.
func (d *rossData) estimate(v []float64, sec []int32) float64 {
	if d.dim == 1 {
		return d.line(v, sec)
	}
	return d.space(v, sec)
}

// classes groups the indices 0..n−1 by secret (increasing within each): order[start[c]:start[c+1]]
// are those of secret c.
func classes(sec []int32, L int) (order []int32, start []int) {
	start = make([]int, L+1)
	for _, x := range sec {
		start[x+1]++
	}
	for c := 0; c < L; c++ {
		start[c+1] += start[c]
	}
	next := slices.Clone(start[:L])
	order = make([]int32, len(sec))
	for i, x := range sec {
		order[next[x]] = int32(i)
		next[x]++
	}
	return order, start
}

// line is the estimator for sorted one-dimensional observations: each class's values are a sorted
// subsequence, the k-th neighbour is found by walking outwards in it, and the counts by searching
// outwards from the point's own position (in its class, and among all), galloping so that long
// runs of ties cost a logarithm.
func (d *rossData) line(v []float64, sec []int32) float64 {
	order, start := classes(sec, d.L)
	a := make([]float64, len(v))
	for i, j := range order {
		a[i] = v[j]
	}
	sum, used := 0.0, 0
	for c := 0; c < d.L; c++ {
		cls := a[start[c]:start[c+1]]
		pos := order[start[c]:start[c+1]]
		nc := len(cls)
		if nc < 2 {
			continue
		}
		kc := min(d.k, nc-1)
		for i, x := range cls {
			l, r := i-1, i+1
			var dist float64
			for s := 0; s < kc; s++ {
				if r >= nc || (l >= 0 && x-cls[l] <= cls[r]-x) {
					dist = x - cls[l]
					l--
				} else {
					dist = cls[r] - x
					r++
				}
			}
			// cls[l+1:r] are within dist; ties may extend the run on either side.
			ki := reachRight(cls, r, x, dist) - reachLeft(cls, l, x, dist) - 1
			p := int(pos[i])
			mi := reachRight(v, p+1, x, dist) - reachLeft(v, p-1, x, dist) - 1
			sum += d.psi[ki] - d.psi[mi]
			if !d.step() {
				return math.NaN()
			}
		}
		sum -= float64(nc) * d.psi[nc]
		used += nc
	}
	if used == 0 {
		return 0
	}
	return (d.psi[used] + sum/float64(used)) * math.Log2E
}

// reachLeft returns the smallest j ≤ from+1 such that every a[j..from] satisfies x − a ≤ dist
// (a sorted, everything right of from known to satisfy it), galloping then bisecting.
func reachLeft(a []float64, from int, x, dist float64) int {
	if from < 0 || x-a[from] > dist {
		return from + 1
	}
	good, step := from, 1 // a[good] satisfies; look for a failing index left of it
	bad := -1
	for {
		j := good - step
		if j < 0 {
			break
		}
		if x-a[j] > dist {
			bad = j
			break
		}
		good, step = j, 2*step
	}
	for good-bad > 1 {
		m := int(uint(good+bad) >> 1)
		if x-a[m] <= dist {
			good = m
		} else {
			bad = m
		}
	}
	return good
}

// reachRight returns the end (exclusive) of the run a[from..] with a − x ≤ dist, galloping.
func reachRight(a []float64, from int, x, dist float64) int {
	if from >= len(a) || a[from]-x > dist {
		return from
	}
	good, step := from, 1
	bad := len(a)
	for {
		j := good + step
		if j >= len(a) {
			break
		}
		if a[j]-x > dist {
			bad = j
			break
		}
		good, step = j, 2*step
	}
	for bad-good > 1 {
		m := int(uint(good+bad) >> 1)
		if a[m]-x <= dist {
			good = m
		} else {
			bad = m
		}
	}
	return good + 1
}

// space is the estimator for observations of two or more coordinates: a k-d tree per secret for
// the k-th neighbour and one over all samples for the counts.
func (d *rossData) space(v []float64, sec []int32) float64 {
	dim := d.dim
	order, start := classes(sec, d.L)
	var all *chebTree
	if len(v) == len(d.v) && &v[0] == &d.v[0] { // the whole sample: its tree serves every shuffle
		if d.all == nil {
			d.all = newChebTree(v, dim)
		}
		all = d.all
	} else {
		all = newChebTree(v, dim)
	}
	best := make([]float64, d.k+2)
	sum, used := 0.0, 0
	buf := make([]float64, 0, len(v))
	for c := 0; c < d.L; c++ {
		idx := order[start[c]:start[c+1]]
		nc := len(idx)
		if nc < 2 {
			continue
		}
		kc := min(d.k, nc-1)
		buf = buf[:0]
		for _, j := range idx {
			buf = append(buf, v[int(j)*dim:int(j)*dim+dim]...)
		}
		tree := newChebTree(buf, dim)
		for i := 0; i < nc; i++ {
			q := buf[i*dim : i*dim+dim]
			// The k+1 nearest of the secret's samples besides q: when the next one is farther
			// than the k-th, exactly k are within its distance and no count is needed.
			b := tree.kth(q, kc+2, best)
			dist, ki := b[kc], kc
			if len(b) > kc+1 && b[kc+1] <= dist {
				ki = tree.count(q, dist) - 1
			}
			mi := all.count(q, dist) - 1
			sum += d.psi[ki] - d.psi[mi]
			if !d.step() {
				return math.NaN()
			}
		}
		sum -= float64(nc) * d.psi[nc]
		used += nc
	}
	if used == 0 {
		return 0
	}
	return (d.psi[used] + sum/float64(used)) * math.Log2E
}

// subset returns the observations and secrets of the samples in idx (increasing, so that sorted
// one-dimensional observations stay sorted).
func (d *rossData) subset(idx []int32) ([]float64, []int32) {
	v := make([]float64, 0, len(idx)*d.dim)
	sec := make([]int32, len(idx))
	for i, j := range idx {
		v = append(v, d.v[int(j)*d.dim:int(j)*d.dim+d.dim]...)
		sec[i] = d.sec[j]
	}
	return v, sec
}
