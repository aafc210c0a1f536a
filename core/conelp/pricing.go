package conelp

import (
	"fmt"
	"math"
	"sort"
)

// The pricing problem of one column: given g (Cost[w] minus the row prices), is there a point h
// of the cone with g·h > 0? Its LP dual asks for multipliers α ≥ 0 of the arc constraints with
// g ≤ Pᵀα, where (Pᵀα)_y = Σ_{arcs y→v} α − Σ_{arcs u→y} e^len·α: read g_y > 0 as an obligation
// at y that must be moved away, g_y < 0 as room to absorb −g_y, and α on u→v as moving α units
// of obligation from u to v, where they arrive multiplied by e^len. Such α exist exactly when
// every obligation can be moved into room; otherwise the obligation left over is the optimum
// of max g·h over the cone points with entries at most 1.
//
// That is a generalized flow problem without flow-generating cycles (a cycle returns at least
// what was sent, amplified); it is solved by augmenting along least-amplification paths
// (Onaga's highest-gain paths), in phases as in the primal-dual algorithm for minimum-cost
// flow: a Dijkstra search with node potentials p (reduced arc lengths ≥ 0) finds the least
// amplification D from any remaining obligation to any remaining room; the potentials grow by
// min(distance, D), and every path of zero reduced length is then a least-amplification path,
// along which obligation is pushed by depth-first augmentations until none is left. Arcs
// carrying flow can be undone (moving obligation back, divided by e^len); such residual arcs
// keep reduced length 0 both ways, which is the complementary slackness of the pricing LP.
//
// When obligation is left over at the set U, the cone point h = e^{−λ} with λ the residual
// distances from U is the optimum of the pricing problem (complementary slackness again): it
// is 1 on U, tight on every arc that carries flow, and every node with room left is beyond
// reach. It is the column the master gets.
type pricer struct {
	c     *cone
	tail  []int
	b     []float64 // remaining obligation (> 0) or room (< 0): g − Pᵀα
	p     []float64 // potentials
	dist  []float64
	alpha []float64
	lam   []float64
	heap  distHeap
	mark  []int32
	stamp int32
	// Dinic state
	level     []int
	cur       []int
	queue     []int
	stackNode []int
	pathArc   []int  // arc used to reach each node on the stack
	pathBack  []bool // whether it was used backwards
	tolB      float64
	dstar     float64 // reduced distance of the current phase
	psigma    float64 // potential of the super source
	ptau      float64 // potential of the super sink
	truncated bool    // the last priceUpTo stopped at its phase limit
	// statistics
	calls, phases, augments int
}

func newPricer(c *cone) *pricer {
	n, m := c.n, c.arcs()
	return &pricer{
		c: c, tail: c.tails(),
		b: make([]float64, n), p: make([]float64, n), dist: make([]float64, n),
		alpha: make([]float64, m), lam: make([]float64, n), mark: make([]int32, n),
		level: make([]int, n), cur: make([]int, n),
	}
}

// rc is the reduced length of arc k used forwards.
func (pr *pricer) rc(k int) float64 {
	return pr.c.length[k] + pr.p[pr.tail[k]] - pr.p[pr.c.head[k]]
}

// step returns the reduced length of moving from u over arc k (k leaves u) to head[k], the
// smaller of the forward arc and the backward use of its reverse (when that carries flow), and
// whether the backward use was the smaller.
func (pr *pricer) step(k int) (float64, bool) {
	d := pr.rc(k)
	if r := pr.c.rev[k]; pr.alpha[r] > 0 {
		if db := -pr.rc(r); db < d {
			return db, true
		}
	}
	return d, false
}

// dijkstra computes reduced distances from the nodes with start labels < +Inf (pr.dist holds
// them on entry). Negative reduced lengths of rounding size are read as 0.
func (pr *pricer) dijkstra() {
	pr.heap.reset()
	for u, d := range pr.dist {
		if d < math.Inf(1) {
			pr.heap.push(d, u)
		}
	}
	pr.stamp++
	for pr.heap.len() > 0 {
		d, u := pr.heap.pop()
		if pr.mark[u] == pr.stamp || d > pr.dist[u] {
			continue
		}
		pr.mark[u] = pr.stamp
		pr.relax(u, d)
	}
}

// priceUpTo solves the pricing problem for g. It returns whether g ≤ Pᵀα was reached (to tol
// per row: every leftover obligation at most tol), and otherwise writes the optimal cone point
// (max entry 1, floored) into h and returns g·h. res receives g − Pᵀα recomputed from α, and
// rerr a bound on the rounding error of each entry of res.
//
// With maxPhases > 0 it stops after that many phases (pr.truncated then says so). A stopped
// pricing is not the optimum: h is the cone point e^{−λ} of the residual distances from the
// obligation left so far (a point of the cone all the same, usually with a positive value
// g·h), and res = g − Pᵀα is that of the partial multipliers (α ≥ 0, so res still enters a
// valid bound, only a weaker one).
func (pr *pricer) priceUpTo(g, h, res, rerr []float64, tol float64, maxPhases int) (certified bool, value float64) {
	c := pr.c
	n := c.n
	for i := range pr.p {
		pr.p[i] = 0
	}
	for k := range pr.alpha {
		pr.alpha[k] = 0
	}
	copy(pr.b, g)
	pr.tolB = tol
	pr.calls++
	const rcTol = 1e-11
	// Potentials of the super source (arcs to every node with obligation) and the super sink
	// (arcs from every node with room); with the arcs of cost 0, their reduced lengths are
	// p(σ) − p(y) and p(z) − p(τ). Obligation is only ever removed, so the sources keep the
	// potential 0 = p(σ); the nodes with room all gain D each phase, as p(τ) does.
	pr.psigma, pr.ptau = 0, 0
	pr.truncated = false
	for phase := 0; ; phase++ {
		if maxPhases > 0 && phase == maxPhases {
			pr.truncated = true
			break
		}
		any := false
		for u := 0; u < n; u++ {
			if pr.b[u] > tol {
				pr.dist[u] = pr.psigma - pr.p[u]
				any = true
			} else {
				pr.dist[u] = math.Inf(1)
			}
		}
		if !any {
			break
		}
		pr.phases++
		dstar := pr.searchRoom()
		pr.dstar = dstar
		if dstar > floorLog+50 {
			break
		}
		for u := 0; u < n; u++ {
			if pr.mark[u] == pr.stamp && pr.dist[u] < dstar {
				pr.p[u] += pr.dist[u]
			} else {
				pr.p[u] += dstar
			}
		}
		pr.ptau += dstar
		if !pr.blockingFlows(rcTol) {
			break
		}
	}
	pr.residual(g, res, rerr)
	certified = true
	for _, r := range res {
		if r > tol {
			certified = false
			break
		}
	}
	if certified {
		return true, 0
	}
	pr.extract(h)
	for y, v := range h {
		value += g[y] * v
	}
	return false, value
}

// searchRoom is Dijkstra over reduced lengths from the super source (start labels in pr.dist)
// towards the super sink: it returns the reduced distance D to the super sink, the smallest
// dist(z) + p(z) − p(τ) over nodes z with room (+Inf if there is none), and stops as soon as
// no closer node can follow. Nodes settled before that are marked with pr.stamp and have their
// final distance; every other node is at least D away.
func (pr *pricer) searchRoom() float64 {
	pr.heap.reset()
	for u, d := range pr.dist {
		if d < math.Inf(1) {
			pr.heap.push(d, u)
		}
	}
	pr.stamp++
	best := math.Inf(1)
	for pr.heap.len() > 0 {
		d, u := pr.heap.pop()
		if pr.mark[u] == pr.stamp || d > pr.dist[u] {
			continue
		}
		if d >= best {
			break
		}
		pr.mark[u] = pr.stamp
		if pr.b[u] < -pr.tolB {
			best = math.Min(best, d+pr.p[u]-pr.ptau)
		}
		pr.relax(u, d)
	}
	return best
}

// admissible reports whether arc k (leaving its tail) can be used at zero reduced length,
// forwards or as the backward use of its reverse, and which.
func (pr *pricer) admissible(k int, rcTol float64) (ok, back bool) {
	if pr.rc(k) <= rcTol {
		return true, false
	}
	if r := pr.c.rev[k]; pr.alpha[r] > 0 && -pr.rc(r) <= rcTol {
		return true, true
	}
	return false, false
}

// blockingFlows pushes obligation along zero-reduced-length paths until no such path is left
// (Dinic's algorithm on the admissible network: breadth-first levels, then depth-first
// augmentations along increasing levels with a current-arc pointer per node). It reports
// whether anything moved.
func (pr *pricer) blockingFlows(rcTol float64) bool {
	c := pr.c
	n := c.n
	moved := false
	for {
		for u := range pr.level {
			pr.level[u] = -1
		}
		pr.queue = pr.queue[:0]
		for u := 0; u < n; u++ {
			if pr.b[u] > pr.tolB && pr.psigma-pr.p[u] <= rcTol {
				pr.level[u] = 0
				pr.queue = append(pr.queue, u)
			}
		}
		reached := false
		for i := 0; i < len(pr.queue); i++ {
			u := pr.queue[i]
			for k := c.start[u]; k < c.start[u+1]; k++ {
				v := c.head[k]
				if pr.level[v] >= 0 || (pr.mark[v] != pr.stamp && !(pr.dist[v] <= pr.dstar+1e-12)) {
					continue
				}
				if ok, _ := pr.admissible(k, rcTol); ok {
					pr.level[v] = pr.level[u] + 1
					if pr.isTarget(v, rcTol) {
						reached = true
					}
					pr.queue = append(pr.queue, v)
				}
			}
		}
		if !reached {
			return moved
		}
		for u := 0; u < n; u++ {
			pr.cur[u] = c.start[u]
		}
		progress := false
		for _, s := range pr.queue {
			if pr.level[s] != 0 {
				break
			}
			for pr.b[s] > pr.tolB && pr.augment(s, rcTol) {
				pr.augments++
				progress = true
			}
		}
		if !progress {
			return moved
		}
		moved = true
	}
}

// isTarget reports whether v has room and its arc to the super sink is admissible.
func (pr *pricer) isTarget(v int, rcTol float64) bool {
	return pr.b[v] < -pr.tolB && pr.p[v]-pr.ptau <= rcTol
}

// augment finds one path from s along increasing levels to a node with room and pushes as much
// as its bottleneck allows; nodes found to lead nowhere leave the level graph.
func (pr *pricer) augment(s int, rcTol float64) bool {
	c := pr.c
	pr.stackNode = append(pr.stackNode[:0], s)
	pr.pathArc = append(pr.pathArc[:0], -1)
	pr.pathBack = append(pr.pathBack[:0], false)
	target := -1
	for len(pr.stackNode) > 0 && target < 0 {
		top := len(pr.stackNode) - 1
		u := pr.stackNode[top]
		advanced := false
		for ; pr.cur[u] < c.start[u+1]; pr.cur[u]++ {
			k := pr.cur[u]
			v := c.head[k]
			if pr.level[v] != pr.level[u]+1 {
				continue
			}
			ok, back := pr.admissible(k, rcTol)
			if !ok {
				continue
			}
			pr.stackNode = append(pr.stackNode, v)
			pr.pathArc = append(pr.pathArc, k)
			pr.pathBack = append(pr.pathBack, back)
			if pr.isTarget(v, rcTol) {
				target = v
			}
			advanced = true
			break
		}
		if !advanced {
			pr.level[u] = -1 // dead end
			pr.stackNode = pr.stackNode[:top]
			pr.pathArc = pr.pathArc[:top]
			pr.pathBack = pr.pathBack[:top]
			if top > 0 {
				pr.cur[pr.stackNode[top-1]]++
			}
		}
	}
	if target < 0 {
		return false
	}
	// Bottleneck, as an amount x leaving s; f is the amplification from s to the current node.
	x := pr.b[s]
	f := 1.0
	for i := 1; i < len(pr.stackNode); i++ {
		k := pr.pathArc[i]
		if pr.pathBack[i] {
			r := c.rev[k]
			// moving f·x at tail(k) = head(r) back over r: at most α_r·e^len arrived there
			if lim := pr.alpha[r] * c.factor[r] / f; lim < x {
				x = lim
			}
			f /= c.factor[r]
		} else {
			f *= c.factor[k]
		}
	}
	if lim := -pr.b[target] / f; lim < x {
		x = lim
	}
	if !(x > 0) {
		return false
	}
	f = 1.0
	for i := 1; i < len(pr.stackNode); i++ {
		k := pr.pathArc[i]
		if pr.pathBack[i] {
			r := c.rev[k]
			moved := x * f / c.factor[r] // in units leaving tail(r)
			a := pr.alpha[r] - moved
			if a <= 1e-15*pr.alpha[r] {
				a = 0
			}
			pr.alpha[r] = a
			f /= c.factor[r]
		} else {
			pr.alpha[k] += x * f
			f *= c.factor[k]
		}
	}
	pr.b[s] -= x
	if pr.b[s] < pr.tolB*1e-3 {
		pr.b[s] = 0
	}
	pr.b[target] += x * f
	if pr.b[target] > -pr.tolB*1e-3 {
		pr.b[target] = 0
	}
	return true
}

// residual writes g − Pᵀα into res and into rerr a bound on the rounding error of each entry
// (a sum of k terms of total size S is off by at most k·S·2^−53).
func (pr *pricer) residual(g, res, rerr []float64) {
	c := pr.c
	copy(res, g)
	for y, v := range g {
		rerr[y] = math.Abs(v)
		pr.level[y] = 1 // term counts
	}
	for k, a := range pr.alpha {
		if a == 0 {
			continue
		}
		u, v := pr.tail[k], c.head[k]
		res[u] -= a
		f := a * c.factor[k]
		res[v] += f
		rerr[u] += a
		rerr[v] += f
		pr.level[u]++
		pr.level[v]++
	}
	for y := range rerr {
		rerr[y] *= 2 * float64(pr.level[y]) * 0x1p-53
	}
}

// extract writes into h the cone point e^{−λ}, λ the residual distances from the nodes with
// obligation left (pr.b > tol), normalized to max 1 and floored; a last Dijkstra pass over the
// true arc lengths makes λ[v] ≤ λ[u] + len exactly, so that h is in the cone up to the
// rounding of exp.
func (pr *pricer) extract(h []float64) {
	c := pr.c
	for u := 0; u < c.n; u++ {
		if pr.b[u] > pr.tolB {
			pr.dist[u] = -pr.p[u]
		} else {
			pr.dist[u] = math.Inf(1)
		}
	}
	pr.dijkstra()
	for u := 0; u < c.n; u++ {
		pr.lam[u] = pr.dist[u] + pr.p[u]
	}
	pr.closeLogs(pr.lam)
	pointFromLogs(pr.lam, h)
}

// closeLogs lowers λ until λ[v] ≤ λ[u] + len(u→v) on every arc (Dijkstra over the true lengths,
// which are ≥ 0, from the given labels).
func (pr *pricer) closeLogs(lam []float64) { pr.closeLogsFrom(lam, nil) }

// closeLogsFrom is closeLogs that, when pred is not nil, records in pred[v] the arc that last
// lowered λ[v] (pred is not reset: the caller sets it to −1 first).
func (pr *pricer) closeLogsFrom(lam []float64, pred []int) {
	c := pr.c
	pr.heap.reset()
	for u, d := range lam {
		if d < math.Inf(1) {
			pr.heap.push(d, u)
		}
	}
	pr.stamp++
	for pr.heap.len() > 0 {
		d, u := pr.heap.pop()
		if pr.mark[u] == pr.stamp || d > lam[u] {
			continue
		}
		pr.mark[u] = pr.stamp
		for k := c.start[u]; k < c.start[u+1]; k++ {
			v := c.head[k]
			if nd := d + c.length[k]; nd < lam[v] {
				lam[v] = nd
				if pred != nil {
					pred[v] = k
				}
				pr.heap.push(nd, v)
			}
		}
	}
}

// tent writes into h the cone point e^{−dist(·, w)} (floored): the smallest point of the
// cone with h[w] = 1.
func (pr *pricer) tent(w int, h []float64) {
	for u := range pr.lam {
		pr.lam[u] = math.Inf(1)
	}
	pr.lam[w] = 0
	pr.closeLogs(pr.lam)
	pointFromLogs(pr.lam, h)
}

// plateaus returns cone points e^{−dist(U, ·)} for the sets U of the 2, 4, 8, … (up to n/2)
// nodes nearest to w: flat-topped columns like those of the optimal mechanisms of location maps,
func (pr *pricer) plateaus(w int) (cols [][]float64, keys []string) {
	n := pr.c.n
	t := make([]float64, n)
	pr.tent(w, t)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return t[order[a]] > t[order[b]] })
	for k := 2; k <= n/2; k *= 2 {
		for u := range pr.lam {
			pr.lam[u] = math.Inf(1)
		}
		for _, u := range order[:k] {
			pr.lam[u] = 0
		}
		pr.closeLogs(pr.lam)
		h := make([]float64, n)
		pointFromLogs(pr.lam, h)
		cols = append(cols, h)
		set := append([]int(nil), order[:k]...)
		sort.Ints(set)
		keys = append(keys, fmt.Sprint(set))
	}
	return cols, keys
}

// distHeap is a binary min-heap of (distance, node) with duplicates (lazy deletion).
type distHeap struct {
	d []float64
	u []int
}

func (h *distHeap) reset()   { h.d, h.u = h.d[:0], h.u[:0] }
func (h *distHeap) len() int { return len(h.d) }

func (h *distHeap) push(d float64, u int) {
	h.d = append(h.d, d)
	h.u = append(h.u, u)
	i := len(h.d) - 1
	for i > 0 {
		p := (i - 1) / 2
		if h.d[p] <= h.d[i] {
			break
		}
		h.d[p], h.d[i] = h.d[i], h.d[p]
		h.u[p], h.u[i] = h.u[i], h.u[p]
		i = p
	}
}

func (h *distHeap) pop() (float64, int) {
	d, u := h.d[0], h.u[0]
	last := len(h.d) - 1
	h.d[0], h.u[0] = h.d[last], h.u[last]
	h.d, h.u = h.d[:last], h.u[:last]
	i := 0
	for {
		l := 2*i + 1
		if l >= last {
			break
		}
		m := l
		if r := l + 1; r < last && h.d[r] < h.d[l] {
			m = r
		}
		if h.d[i] <= h.d[m] {
			break
		}
		h.d[i], h.d[m] = h.d[m], h.d[i]
		h.u[i], h.u[m] = h.u[m], h.u[i]
		i = m
	}
	return d, u
}

// relax offers every node reachable from the settled node u (at reduced distance d) over one
// arc a shorter distance, and queues it; settled nodes keep theirs. Negative reduced lengths
// of rounding size count as 0.
func (pr *pricer) relax(u int, d float64) {
	c := pr.c
	for k := c.start[u]; k < c.start[u+1]; k++ {
		v := c.head[k]
		if pr.mark[v] == pr.stamp {
			continue
		}
		l, _ := pr.step(k)
		if l < 0 {
			l = 0
		}
		if nd := d + l; nd < pr.dist[v] {
			pr.dist[v] = nd
			pr.heap.push(nd, v)
		}
	}
}
