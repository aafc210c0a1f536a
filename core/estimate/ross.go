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
}

func newRossData(s *Sample, k int) *rossData {
	d := &rossData{dim: s.Dim, L: len(s.SecretNames), k: k, psi: digammaTable(s.N)}
	if s.Dim == 1 {
		ps := make([]rossPt, s.N)
		for i := range ps {
			ps[i] = rossPt{x: s.Vectors[i], sec: s.Secret[i]}
		}
		slices.SortFunc(ps, func(a, b rossPt) int {
			switch {
			case a.x < b.x:
				return -1
			case a.x > b.x:
				return 1
			}
			return 0
		})
		d.v, d.sec = make([]float64, s.N), make([]int32, s.N)
		for i, p := range ps {
			d.v[i], d.sec[i] = p.x, p.sec
		}
		return d
	}
	d.v, d.sec = s.Vectors, s.Secret
	return d
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

// rossPt is one observation of a line with its secret.
type rossPt struct {
	x   float64
	sec int32
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
// subsequence, the k-th neighbour is found by walking outwards and the counts by binary search.
func (d *rossData) line(v []float64, sec []int32) float64 {
	order, start := classes(sec, d.L)
	a := make([]float64, len(v))
	for i, j := range order {
		a[i] = v[j]
	}
	sum, used := 0.0, 0
	for c := 0; c < d.L; c++ {
		cls := a[start[c]:start[c+1]]
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
			ki := within(cls, x, dist) - 1
			mi := within(v, x, dist) - 1
			sum += d.psi[ki] - d.psi[mi]
		}
		sum -= float64(nc) * d.psi[nc]
		used += nc
	}
	if used == 0 {
		return 0
	}
	return (d.psi[used] + sum/float64(used)) * math.Log2E
}

// within is the number of sorted values a with |a_j − x| ≤ dist, computed with the same
// subtractions as the distances (so the k-th neighbour itself always counts).
func within(a []float64, x, dist float64) int {
	lo, hi := 0, len(a) // first j with x − a_j ≤ dist
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if x-a[m] <= dist {
			hi = m
		} else {
			lo = m + 1
		}
	}
	left := lo
	lo, hi = left, len(a) // first j with a_j − x > dist
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if a[m]-x > dist {
			hi = m
		} else {
			lo = m + 1
		}
	}
	return lo - left
}

// space is the estimator for observations of two or more coordinates: a k-d tree per secret for
// the k-th neighbour and one over all samples for the counts.
func (d *rossData) space(v []float64, sec []int32) float64 {
	dim := d.dim
	order, start := classes(sec, d.L)
	all := newChebTree(v, dim)
	best := make([]float64, d.k+1)
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
			dist := tree.kth(q, kc+1, best)
			ki := tree.count(q, dist) - 1
			mi := all.count(q, dist) - 1
			sum += d.psi[ki] - d.psi[mi]
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
