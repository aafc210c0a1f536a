package conelp

import (
	"math"
)

// floorLog bounds −ln of the entries of generated cone points: entries below e^−floorLog are
// raised to it. Raising to a constant keeps a point in the cone (constants are in it and it is
// closed under pointwise maxima), it changes an objective by less than N·e^−600, and it keeps
// every entry of a solution a normal float, so that the privacy ratios of the solution can be
// checked exactly (an entry that underflowed to 0 beside a positive neighbour would make that
// ratio infinite).
const floorLog = 600

// cone is the constraint graph of K: every pair with Log < floorLog gives the arcs A→B and
// B→A. Pairs with larger Log are left out: every generated point has its entries in
// [e^−floorLog, 1], so it satisfies them anyway, and so does every nonnegative combination. Arc k = u→v
// stands for the constraint h[u] ≤ e^{len[k]}·h[v]; its multiplier α_k moves "obligation" from
// u to v, where it arrives multiplied by e^{len[k]}.
type cone struct {
	n      int
	start  []int // arcs of node u: start[u]..start[u+1]
	head   []int
	length []float64
	factor []float64 // e^{length}
	rev    []int     // the arc of the same pair in the other direction
	pair   []int     // 2·(index of the pair in Problem.Pairs) + (0 for A→B, 1 for B→A)
	pairs  int
}

func newCone(n int, pairs []Pair) *cone { return newConeOf(n, pairs, nil) }

// newConeOf is newCone over the pairs i with use[i] (every pair when use is nil); arcs keep the
// pairs' indices in pairs.
func newConeOf(n int, pairs []Pair, use []bool) *cone {
	deg := make([]int, n+1)
	kept := 0
	for i, q := range pairs {
		if !(q.Log < floorLog) || (use != nil && !use[i]) {
			continue
		}
		deg[q.A+1]++
		deg[q.B+1]++
		kept++
	}
	for u := 0; u < n; u++ {
		deg[u+1] += deg[u]
	}
	c := &cone{n: n, start: deg, pairs: kept}
	m := deg[n]
	c.head = make([]int, m)
	c.length = make([]float64, m)
	c.factor = make([]float64, m)
	c.rev = make([]int, m)
	c.pair = make([]int, m)
	next := append([]int(nil), deg[:n]...)
	for i, q := range pairs {
		if !(q.Log < floorLog) || (use != nil && !use[i]) {
			continue
		}
		ka, kb := next[q.A], next[q.B]
		next[q.A]++
		next[q.B]++
		c.head[ka], c.head[kb] = q.B, q.A
		c.length[ka], c.length[kb] = q.Log, q.Log
		f := math.Exp(q.Log)
		c.factor[ka], c.factor[kb] = f, f
		c.rev[ka], c.rev[kb] = kb, ka
		c.pair[ka], c.pair[kb] = 2*i, 2*i+1
	}
	return c
}

func (c *cone) arcs() int { return len(c.head) }

// tail returns the node an arc leaves (a linear search is avoided by keeping tails).
func (c *cone) tails() []int {
	t := make([]int, len(c.head))
	for u := 0; u < c.n; u++ {
		for k := c.start[u]; k < c.start[u+1]; k++ {
			t[k] = u
		}
	}
	return t
}

// pointFromLogs returns h = e^{−(λ − min λ)} floored at e^−floorLog (+Inf in λ gives the floor
// too: nodes no source reaches are unconstrained by it).
func pointFromLogs(lambda []float64, h []float64) {
	lo := math.Inf(1)
	for _, v := range lambda {
		lo = math.Min(lo, v)
	}
	for i, v := range lambda {
		e := v - lo
		if !(e < floorLog) {
			e = floorLog
		}
		h[i] = math.Exp(-e)
	}
}
