package estimate

import (
	"container/heap"
	"math"
	"slices"
)

// kdTree is a k-d tree over the distinct training vectors, each with the counts of the secrets
// seen with it. Identical vectors are merged first, so that a vote over a thousand copies of one
// point costs one visit (k-NN with "ties in distance all counted" must count every copy).
type kdTree struct {
	dim   int
	pts   []float64 // distinct points in tree order, dim coordinates each
	wt    []float64 // number of training samples at each point
	hist  []int32   // hist[off[i]:off[i+1]] alternates secret, count for point i
	off   []int32
	nodes []kdNode
}

// kdNode covers points [lo, hi); an inner node splits them at mid along axis.
type kdNode struct {
	lo, hi, mid int32
	axis        int32
	left, right int32   // child nodes, −1 for a leaf
	split       float64 // points left of mid are ≤ split along axis, the others ≥ split
}

const kdLeaf = 12

// newKDTree builds the tree of the vectors vecs (dim coordinates each) labelled with secrets.
func newKDTree(vecs []float64, secrets []int32, dim int) *kdTree {
	n := len(secrets)
	order := make([]int32, n)
	for i := range order {
		order[i] = int32(i)
	}
	if dim == 1 {
		t, _ := newLine(sortLine(vecs, secrets), n)
		return t
	}
	// Sort by (vector, secret), then merge runs: identical vectors become one point.
	slices.SortFunc(order, func(a, b int32) int {
		if c := slices.Compare(vecs[int(a)*dim:int(a)*dim+dim], vecs[int(b)*dim:int(b)*dim+dim]); c != 0 {
			return c
		}
		return int(secrets[a] - secrets[b])
	})
	t := &kdTree{dim: dim}
	for i := 0; i < n; {
		p := vecs[int(order[i])*dim : int(order[i])*dim+dim]
		t.pts = append(t.pts, p...)
		t.off = append(t.off, int32(len(t.hist)))
		w := 0
		for i < n && slices.Equal(vecs[int(order[i])*dim:int(order[i])*dim+dim], p) {
			x, c := secrets[order[i]], int32(0)
			for i < n && secrets[order[i]] == x && slices.Equal(vecs[int(order[i])*dim:int(order[i])*dim+dim], p) {
				c++
				i++
			}
			t.hist = append(t.hist, x, c)
			w += int(c)
		}
		t.wt = append(t.wt, float64(w))
	}
	t.off = append(t.off, int32(len(t.hist)))
	m := len(t.wt)
	perm := make([]int32, m)
	for i := range perm {
		perm[i] = int32(i)
	}
	t.build(perm, 0, int32(m))
	// Lay the points out in tree order, so that a leaf is one contiguous block.
	pts, wt := make([]float64, 0, len(t.pts)), make([]float64, m)
	hist, off := make([]int32, 0, len(t.hist)), make([]int32, 0, m+1)
	for i, p := range perm {
		pts = append(pts, t.pts[int(p)*dim:int(p)*dim+dim]...)
		wt[i] = t.wt[p]
		off = append(off, int32(len(hist)))
		hist = append(hist, t.hist[t.off[p]:t.off[p+1]]...)
	}
	t.pts, t.wt, t.hist, t.off = pts, wt, hist, append(off, int32(len(hist)))
	return t
}

// build makes the node over perm[lo:hi] and returns its index: the axis of widest spread, split
// at the median by quickselect.
func (t *kdTree) build(perm []int32, lo, hi int32) int32 {
	id := int32(len(t.nodes))
	t.nodes = append(t.nodes, kdNode{lo: lo, hi: hi, left: -1, right: -1})
	if hi-lo <= kdLeaf {
		return id
	}
	axis, spread := 0, -1.0
	for a := 0; a < t.dim; a++ {
		mn, mx := t.pts[int(perm[lo])*t.dim+a], t.pts[int(perm[lo])*t.dim+a]
		for _, p := range perm[lo:hi] {
			v := t.pts[int(p)*t.dim+a]
			mn, mx = min(mn, v), max(mx, v)
		}
		if mx-mn > spread {
			axis, spread = a, mx-mn
		}
	}
	mid := (lo + hi) / 2
	t.selectNth(perm[lo:hi], int(mid-lo), axis)
	// Read the split now: building the right child reorders the points from mid on.
	split := t.pts[int(perm[mid])*t.dim+axis]
	left := t.build(perm, lo, mid)
	right := t.build(perm, mid, hi)
	t.nodes[id].mid, t.nodes[id].axis, t.nodes[id].left, t.nodes[id].right, t.nodes[id].split = mid, int32(axis), left, right, split
	return id
}

// selectNth reorders p so that p[k] has the k-th smallest coordinate axis, smaller or equal ones
// before it and larger or equal ones after (selectAxis, shared with the max-norm tree).
func (t *kdTree) selectNth(p []int32, k, axis int) { selectAxis(t.pts, t.dim, axis, p, k) }

// cand is a distinct training point found by a query, at squared distance d.
type cand struct {
	d  float64
	pt int32
}

// candHeap is a max-heap on distance.
type candHeap []cand

func (h candHeap) Len() int           { return len(h) }
func (h candHeap) Less(i, j int) bool { return h[i].d > h[j].d }
func (h candHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *candHeap) Push(x any)        { *h = append(*h, x.(cand)) }
func (h *candHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// searcher holds one query's state, reused across queries.
type searcher struct {
	t     *kdTree
	q     []float64
	k     float64
	h     candHeap
	w     float64 // total weight in h
	at    int     // neighbours1D: where the last query was
	spill []cand
}

// neighbours finds every training point within the distance of the k-th nearest (counted with
// multiplicity), so that ties in distance are all counted; the result is in s.h.
func (s *searcher) neighbours(q []float64, k int) {
	s.q, s.k, s.h, s.w = q, float64(k), s.h[:0], 0
	if s.t.dim == 1 {
		s.neighbours1D(q[0])
		return
	}
	s.visit(0)
}

// neighbours1D is neighbours on a line: from the binary-search position of q, take the nearer of
// the next points on either side until they weigh k, then every further point at the same
// distance as the last one taken.
func (s *searcher) neighbours1D(q float64) {
	xs := s.t.pts
	r := s.at // the first point ≥ q: queries in increasing order walk from the last one
	if r > 0 && xs[r-1] >= q {
		r = 0
	}
	if r < len(xs) && xs[r] < q { // gallop, then binary search
		step, lo := 1, r
		for r+step < len(xs) && xs[r+step] < q {
			lo = r + step
			step *= 2
		}
		hi := min(r+step, len(xs))
		r = lo + 1
		for r < hi {
			mid := int(uint(r+hi) >> 1)
			if xs[mid] < q {
				r = mid + 1
			} else {
				hi = mid
			}
		}
	}
	s.at = r
	l := r - 1
	last := -1.0
	for l >= 0 || r < len(xs) {
		var d float64
		var at int
		dl, dr := math.Inf(1), math.Inf(1)
		if l >= 0 {
			dl = (q - xs[l]) * (q - xs[l])
		}
		if r < len(xs) {
			dr = (xs[r] - q) * (xs[r] - q)
		}
		// The side that has a point (both distances are +Inf when they overflow: ±1e308).
		if l >= 0 && (r >= len(xs) || dl <= dr) {
			d, at = dl, l
			l--
		} else {
			d, at = dr, r
			r++
		}
		if s.w >= s.k && d > last {
			return
		}
		s.h = append(s.h, cand{d, int32(at)})
		s.w += s.t.wt[at]
		last = d
	}
}

func (s *searcher) full() bool { return s.w >= s.k }

func (s *searcher) visit(id int32) {
	t := s.t
	nd := &t.nodes[id]
	if nd.left < 0 {
		for i := nd.lo; i < nd.hi; i++ {
			d := 0.0
			p := t.pts[int(i)*t.dim : int(i)*t.dim+t.dim]
			for a, v := range p {
				e := v - s.q[a]
				d += e * e
			}
			s.offer(cand{d, i})
		}
		return
	}
	diff := s.q[nd.axis] - nd.split
	near, far := nd.left, nd.right
	if diff >= 0 {
		near, far = nd.right, nd.left
	}
	s.visit(near)
	// Points on the far side are at least |diff| away along the axis; ≤ keeps ties.
	if !s.full() || diff*diff <= s.h[0].d {
		s.visit(far)
	}
}

// offer adds a point if it is within the current radius (or the heap is not full), then drops
// the farthest distance class while the points nearer than it still weigh at least k.
func (s *searcher) offer(c cand) {
	if s.full() && c.d > s.h[0].d {
		return
	}
	heap.Push(&s.h, c)
	s.w += s.t.wt[c.pt]
	for s.full() {
		top := s.h[0].d
		s.spill = s.spill[:0]
		sw := 0.0
		for len(s.h) > 0 && s.h[0].d == top {
			x := heap.Pop(&s.h).(cand)
			s.spill = append(s.spill, x)
			sw += s.t.wt[x.pt]
		}
		if s.w-sw >= s.k {
			s.w -= sw
			continue
		}
		for _, x := range s.spill {
			heap.Push(&s.h, x)
		}
		return
	}
}

// linePt is a training sample on a line: its value, secret and position in the training part.
type linePt struct {
	x   float64
	s   int32
	pos int32
}

// sortLine sorts one-dimensional training samples by (value, secret), by a radix sort on the
// values' bits (the order of float64s as unsigned integers once the sign is handled) followed by
// the few runs of equal values sorted by secret: a comparison sort of 10⁶ values cost a third of
// the whole k-NN estimate.
func sortLine(xs []float64, secrets []int32) []linePt {
	n := len(xs)
	keys, tmpK := make([]uint64, n), make([]uint64, n)
	idx, tmpI := make([]int32, n), make([]int32, n)
	for i, x := range xs {
		b := math.Float64bits(x + 0) // + 0: −0 and 0 are one point
		if b>>63 != 0 {
			b = ^b
		} else {
			b |= 1 << 63
		}
		keys[i], idx[i] = b, int32(i)
	}
	// Digits of 11 bits: 6 passes whose 2,048 counters and write positions stay in cache.
	const bits, mask = 11, 1<<11 - 1
	var cnt [1 << bits]int
	for shift := uint(0); shift < 64; shift += bits {
		clear(cnt[:])
		for _, k := range keys {
			cnt[(k>>shift)&mask]++
		}
		if cnt[(keys[0]>>shift)&mask] == n {
			continue // every key has this digit: the pass would not move anything
		}
		sum := 0
		for d := range cnt {
			cnt[d], sum = sum, sum+cnt[d]
		}
		for i, k := range keys {
			d := (k >> shift) & mask
			tmpK[cnt[d]], tmpI[cnt[d]] = k, idx[i]
			cnt[d]++
		}
		keys, tmpK, idx, tmpI = tmpK, keys, tmpI, idx
	}
	out := make([]linePt, n)
	for j, i := range idx {
		out[j] = linePt{xs[i] + 0, secrets[i], i}
	}
	for i := 0; i < n; {
		j := i + 1
		for j < n && out[j].x == out[i].x {
			j++
		}
		if j-i > 1 {
			slices.SortFunc(out[i:j], func(a, b linePt) int { return int(a.s - b.s) })
		}
		i = j
	}
	return out
}

// newLine is newKDTree in one dimension for the training samples at positions below m of the
// sorted sample: the distinct points in order with their secret counts, and no tree (a query is a
// binary search, neighbours1D). It also returns ps with only those samples (filtered in place),
// from which the next, smaller training set is built.
func newLine(ps []linePt, m int) (*kdTree, []linePt) {
	kept := ps[:0]
	for _, p := range ps {
		if int(p.pos) < m {
			kept = append(kept, p)
		}
	}
	ps = kept
	t := &kdTree{dim: 1, pts: make([]float64, 0, m), wt: make([]float64, 0, m), off: make([]int32, 0, m+1), hist: make([]int32, 0, 2*m)}
	for i := 0; i < len(ps); {
		x := ps[i].x
		w := 0
		at := len(t.hist)
		for i < len(ps) && ps[i].x == x {
			s, c := ps[i].s, int32(0)
			for i < len(ps) && ps[i].x == x && ps[i].s == s {
				c++
				i++
			}
			if c > 0 {
				t.hist = append(t.hist, s, c)
				w += int(c)
			}
		}
		if w > 0 {
			t.pts = append(t.pts, x)
			t.off = append(t.off, int32(at))
			t.wt = append(t.wt, float64(w))
		}
	}
	t.off = append(t.off, int32(len(t.hist)))
	return t, ps
}
