package estimate

// chebTree is a k-d tree for the max-norm (Chebyshev) distance of the nearest-neighbour MI
// estimator: the distance to the (k+1)-th nearest point and the number of points within a
// distance. Its balls are axis-aligned boxes, so a node whose bounding box lies inside the ball
// is counted whole.
type chebTree struct {
	dim   int
	pts   []float64 // points in tree order
	nodes []chebNode
	box   []float64 // per node: dim lower then dim upper coordinates
	stack []int32   // the walks' scratch stack
}

type chebNode struct {
	lo, hi      int32
	left, right int32 // −1 for a leaf
}

const chebLeaf = 16

// newChebTree builds the tree of n points of dim coordinates (pts is not kept).
func newChebTree(pts []float64, dim int) *chebTree {
	n := len(pts) / dim
	perm := make([]int32, n)
	for i := range perm {
		perm[i] = int32(i)
	}
	t := &chebTree{dim: dim}
	t.build(pts, perm, 0, int32(n))
	t.pts = make([]float64, 0, len(pts))
	for _, p := range perm {
		t.pts = append(t.pts, pts[int(p)*dim:int(p)*dim+dim]...)
	}
	return t
}

func (t *chebTree) build(pts []float64, perm []int32, lo, hi int32) int32 {
	id := int32(len(t.nodes))
	t.nodes = append(t.nodes, chebNode{lo: lo, hi: hi, left: -1, right: -1})
	d := t.dim
	at := len(t.box)
	t.box = append(t.box, make([]float64, 2*d)...)
	for a := 0; a < d; a++ {
		mn, mx := pts[int(perm[lo])*d+a], pts[int(perm[lo])*d+a]
		for _, p := range perm[lo:hi] {
			v := pts[int(p)*d+a]
			mn, mx = min(mn, v), max(mx, v)
		}
		t.box[at+a], t.box[at+d+a] = mn, mx
	}
	if hi-lo <= chebLeaf {
		return id
	}
	axis := 0
	for a := 1; a < d; a++ {
		if t.box[at+d+a]-t.box[at+a] > t.box[at+d+axis]-t.box[at+axis] {
			axis = a
		}
	}
	mid := (lo + hi) / 2
	selectAxis(pts, d, axis, perm[lo:hi], int(mid-lo))
	l := t.build(pts, perm, lo, mid)
	r := t.build(pts, perm, mid, hi)
	t.nodes[id].left, t.nodes[id].right = l, r
	return id
}

// boxDist is the max-norm distance from q to node id's box (0 inside), and whether the box lies
// within distance d of q entirely (every point of it).
func (t *chebTree) boxDist(id int32, q []float64, d float64) (dist float64, inside bool) {
	b := t.box[int(id)*2*t.dim:]
	inside = true
	for a, x := range q {
		lo, hi := b[a], b[t.dim+a]
		dist = max(dist, lo-x, x-hi)
		if x-lo > d || hi-x > d {
			inside = false
		}
	}
	return dist, inside
}

// cheb is the max-norm distance between two points.
func cheb(p, q []float64) float64 {
	d := 0.0
	for a, x := range q {
		if v := p[a] - x; v > d {
			d = v
		} else if -v > d {
			d = -v
		}
	}
	return d
}

// kth returns the k smallest distances from q to the tree's points, increasing (fewer when the
// tree has fewer points; q itself, when it is one of them, is the first at distance 0), in best's
// storage (capacity at least k). The walk keeps its own stack of
// nodes (no recursion, no closure), nearer child last so that it is visited first.
func (t *chebTree) kth(q []float64, k int, best []float64) []float64 {
	best = best[:0]
	stack := append(t.stack[:0], 0)
	for len(stack) > 0 {
		id := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if len(best) == k {
			if d, _ := t.boxDist(id, q, 0); d > best[k-1] {
				continue
			}
		}
		nd := t.nodes[id]
		if nd.left < 0 {
			for i := nd.lo; i < nd.hi; i++ {
				d := cheb(t.pts[int(i)*t.dim:int(i)*t.dim+t.dim], q)
				if len(best) < k {
					best = append(best, d)
				} else if d < best[k-1] {
					best[k-1] = d
				} else {
					continue
				}
				for j := len(best) - 1; j > 0 && best[j] < best[j-1]; j-- {
					best[j], best[j-1] = best[j-1], best[j]
				}
			}
			continue
		}
		dl, _ := t.boxDist(nd.left, q, 0)
		dr, _ := t.boxDist(nd.right, q, 0)
		if dl <= dr {
			stack = append(stack, nd.right, nd.left)
		} else {
			stack = append(stack, nd.left, nd.right)
		}
	}
	t.stack = stack
	return best
}

// count is the number of the tree's points within max-norm distance d of q (q included when it
// is one of them).
func (t *chebTree) count(q []float64, d float64) int {
	c := 0
	stack := append(t.stack[:0], 0)
	for len(stack) > 0 {
		id := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		dist, inside := t.boxDist(id, q, d)
		if dist > d {
			continue
		}
		nd := t.nodes[id]
		switch {
		case inside:
			c += int(nd.hi - nd.lo)
		case nd.left < 0:
			for i := nd.lo; i < nd.hi; i++ {
				if cheb(t.pts[int(i)*t.dim:int(i)*t.dim+t.dim], q) <= d {
					c++
				}
			}
		default:
			stack = append(stack, nd.left, nd.right)
		}
	}
	t.stack = stack
	return c
}

// selectAxis reorders p so that p[k] has the k-th smallest coordinate axis, the points before it
// none larger and those after none smaller (quickselect, median of three): O(n) per level instead
// of a sort's O(n log n).
func selectAxis(pts []float64, dim, axis int, p []int32, k int) {
	key := func(i int) float64 { return pts[int(p[i])*dim+axis] }
	lo, hi := 0, len(p)-1
	for hi > lo {
		mid := lo + (hi-lo)/2
		if key(mid) < key(lo) {
			p[mid], p[lo] = p[lo], p[mid]
		}
		if key(hi) < key(lo) {
			p[hi], p[lo] = p[lo], p[hi]
		}
		if key(hi) < key(mid) {
			p[hi], p[mid] = p[mid], p[hi]
		}
		pivot := key(mid)
		i, j := lo, hi
		for i <= j {
			for key(i) < pivot {
				i++
			}
			for key(j) > pivot {
				j--
			}
			if i <= j {
				p[i], p[j] = p[j], p[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return
		}
	}
}
