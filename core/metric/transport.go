package metric

import (
	"math"

	"github.com/qif-toolkit/qif/core/argerr"
)

// transportUnmoved is the mass (of a total of 1) below which what the network simplex could
// not move along allowed pairs counts as rounding rather than as a missing coupling.
const transportUnmoved = 1e-12

// transportPriceTol is the reduced cost, relative to the largest finite cost, above which an
// arc no longer improves the plan. Potentials are recomputed from the tree after every pivot,
// so their error is that of one tree path, about (path length)·ε.
const transportPriceTol = 1e-11

var errTransportStalled = argerr.New("metric", "the network simplex did not finish within its pivot limit")

// transportPlan is the outcome of the network simplex.
type transportPlan struct {
	feasible bool
	cost     float64 // Σ x_ij d_ij (when feasible)
	pivots   int
	// u and v are the dual prices of the sources and sinks (length n each, 0 for points of
	// mass 0): u_i + v_j ≤ d_ij on every allowed pair, with Σ a_i u_i + Σ b_j v_j = cost.
	u, v []float64
	// flows lists the basic pairs (i, j, x_ij) of the optimal coupling.
	flows []transportFlow
}

type transportFlow struct {
	i, j int
	x    float64
}

// transport solves the transportation problem min Σ x_ij d[i·n+j] over couplings x ≥ 0 of a
// and b (distributions on n points, renormalized to sum 1 by the caller) with x_ij = 0 where
// d is +Inf, by the primal network simplex.
//
// The network has the points of positive mass of a as sources, those of b as sinks, one arc
// per allowed pair, and a root joined to every source (source → root) and every sink (root →
// sink) by artificial arcs of cost M = (nodes + 1)·max d. The first spanning tree is these
// artificial arcs, carrying all the mass through the root. With that M an optimal flow sends
// mass through the root only when no coupling exists (a path of real arcs costs less than
// (nodes − 1)·max d), so one phase both decides feasibility and optimizes. Costs are divided by
// max d first, which keeps M finite for any finite distances.
//
// Pivots: block pricing (the most negative reduced cost in blocks of about √arcs arcs, resumed
// where the last block ended) and the leaving arc chosen as the last blocking arc of the cycle
// seen from its apex (Cunningham's rule, which keeps the tree strongly feasible and avoids
// cycling on the many degenerate pivots of transportation problems). After each pivot the
// depths and potentials of the subtree that moved are recomputed from its new parent along the
// tree arcs (rather than shifted by the entering arc's reduced cost), so rounding does not
// accumulate across pivots.
func transport(a, b, d []float64, n int) (*transportPlan, error) {
	var src, snk []int
	for i := 0; i < n; i++ {
		if a[i] > 0 {
			src = append(src, i)
		}
		if b[i] > 0 {
			snk = append(snk, i)
		}
	}
	plan := &transportPlan{u: make([]float64, n), v: make([]float64, n)}
	dmax, ok := couplable(src, snk, d, n)
	if !ok {
		return plan, nil
	}
	ns := newNetSimplex(a, b, d, n, src, snk, dmax)
	if err := ns.optimize(plan); err != nil {
		return nil, err
	}
	ns.readPlan(plan, d, n)
	return plan, nil
}

// couplable reports whether every point of mass has an allowed partner of positive mass
// (otherwise no coupling exists: decided exactly, whatever the masses), and the largest
// finite distance between sources and sinks.
func couplable(src, snk []int, d []float64, n int) (dmax float64, ok bool) {
	for _, i := range src {
		found := false
		for _, j := range snk {
			if c := d[i*n+j]; !math.IsInf(c, 1) {
				found = true
				dmax = math.Max(dmax, c)
			}
		}
		if !found {
			return 0, false
		}
	}
	for _, j := range snk {
		found := false
		for _, i := range src {
			if !math.IsInf(d[i*n+j], 1) {
				found = true
				break
			}
		}
		if !found {
			return 0, false
		}
	}
	return dmax, true
}

// netSimplex is the network of transport and its spanning tree. Nodes are the sources
// 0..na−1, the sinks na..na+nb−1 and the root na+nb; arc s·nb+t joins source s to sink t, and
// arcs real+s and real+na+t are the artificial arcs of source s and sink t.
//
// An arc costs costBig(e)·M + costReal(e); potentials are kept in the same two parts (potBig
// an integer), so that rounding in the real part is relative to the distances and not to M,
// which is as large as the number of nodes.
type netSimplex struct {
	na, nb, nodes, root, real, arcs int
	src, snk                        []int
	scale                           float64   // 1/max d: costs are divided by it
	big                             float64   // M in units of the scaled costs
	cost                            []float64 // the real arcs' scaled costs, +Inf for pairs that do not exist

	parent  []int
	parc    []int     // the tree arc between a node and its parent
	up      []bool    // that arc points to the parent
	flow    []float64 // its flow
	depth   []int
	potBig  []int
	potReal []float64
	arcBig  []int // costBig and costReal of the tree arc above each node
	arcReal []float64
	// The tree is also kept as child lists (first child, next and previous sibling), so that
	// after a pivot only the subtree that moved has its depths and potentials recomputed.
	firstChild, nextSib, prevSib []int
	stack                        []int

	row          int // the pricing row where the next scan starts
	kSide, lSide []int
}

// newNetSimplex builds the network and its first tree: every source and sink hung from the
// root by its artificial arc, carrying all the mass through the root.
func newNetSimplex(a, b, d []float64, n int, src, snk []int, dmax float64) *netSimplex {
	na, nb := len(src), len(snk)
	ns := &netSimplex{na: na, nb: nb, nodes: na + nb + 1, root: na + nb, real: na * nb, src: src, snk: snk, scale: 1}
	if dmax > 0 {
		ns.scale = 1 / dmax
	}
	ns.big = float64(ns.nodes + 1)
	ns.arcs = ns.real + na + nb
	ns.cost = make([]float64, ns.real)
	for s, i := range src {
		row := ns.cost[s*nb : (s+1)*nb]
		for t, j := range snk {
			row[t] = d[i*n+j] * ns.scale
		}
	}
	nodes := ns.nodes
	ns.parent, ns.parc, ns.up, ns.flow = make([]int, nodes), make([]int, nodes), make([]bool, nodes), make([]float64, nodes)
	ns.depth, ns.potBig, ns.potReal = make([]int, nodes), make([]int, nodes), make([]float64, nodes)
	ns.arcBig, ns.arcReal = make([]int, nodes), make([]float64, nodes)
	ns.firstChild, ns.nextSib, ns.prevSib = make([]int, nodes), make([]int, nodes), make([]int, nodes)
	ns.stack = make([]int, 0, nodes)
	ns.parent[ns.root] = -1
	for s := 0; s < na; s++ {
		ns.parent[s], ns.parc[s], ns.up[s], ns.flow[s], ns.arcBig[s] = ns.root, ns.real+s, true, a[src[s]], 1
	}
	for t := 0; t < nb; t++ {
		v := na + t
		ns.parent[v], ns.parc[v], ns.up[v], ns.flow[v], ns.arcBig[v] = ns.root, ns.real+na+t, false, b[snk[t]], 1
	}
	for v := range ns.firstChild {
		ns.firstChild[v], ns.nextSib[v], ns.prevSib[v] = -1, -1, -1
	}
	for v := 0; v < ns.root; v++ {
		ns.link(v)
	}
	for c := ns.firstChild[ns.root]; c >= 0; c = ns.nextSib[c] {
		ns.update(c)
	}
	return ns
}

// costReal and costBig are the two parts of arc e's cost.
func (ns *netSimplex) costReal(e int) float64 {
	if e >= ns.real {
		return 0
	}
	return ns.cost[e]
}

func (ns *netSimplex) costBig(e int) int {
	if e >= ns.real {
		return 1
	}
	return 0
}

// ends returns the tail and head of arc e.
func (ns *netSimplex) ends(e int) (tail, head int) {
	switch {
	case e < ns.real:
		return e / ns.nb, ns.na + e%ns.nb
	case e < ns.real+ns.na:
		return e - ns.real, ns.root
	default:
		return ns.root, ns.na + (e - ns.real - ns.na)
	}
}

// link puts x at the head of its parent's child list; unlink takes it out.
func (ns *netSimplex) link(x int) {
	p := ns.parent[x]
	ns.nextSib[x], ns.prevSib[x] = ns.firstChild[p], -1
	if ns.firstChild[p] >= 0 {
		ns.prevSib[ns.firstChild[p]] = x
	}
	ns.firstChild[p] = x
}

func (ns *netSimplex) unlink(x int) {
	if ns.prevSib[x] >= 0 {
		ns.nextSib[ns.prevSib[x]] = ns.nextSib[x]
	} else {
		ns.firstChild[ns.parent[x]] = ns.nextSib[x]
	}
	if ns.nextSib[x] >= 0 {
		ns.prevSib[ns.nextSib[x]] = ns.prevSib[x]
	}
}

// update recomputes depths and potentials in the subtree of top from its parent's:
// π_root = 0 and, along each tree arc u → w, c_uw − π_u + π_w = 0.
func (ns *netSimplex) update(top int) {
	ns.stack = append(ns.stack[:0], top)
	for len(ns.stack) > 0 {
		x := ns.stack[len(ns.stack)-1]
		ns.stack = ns.stack[:len(ns.stack)-1]
		p := ns.parent[x]
		ns.depth[x] = ns.depth[p] + 1
		if ns.up[x] {
			ns.potBig[x], ns.potReal[x] = ns.potBig[p]+ns.arcBig[x], ns.potReal[p]+ns.arcReal[x]
		} else {
			ns.potBig[x], ns.potReal[x] = ns.potBig[p]-ns.arcBig[x], ns.potReal[p]-ns.arcReal[x]
		}
		for c := ns.firstChild[x]; c >= 0; c = ns.nextSib[c] {
			ns.stack = append(ns.stack, c)
		}
	}
}

// optimize pivots until no arc has a negative reduced cost, counting pivots in plan.
func (ns *netSimplex) optimize(plan *transportPlan) error {
	maxPivots := 200*ns.nodes + 20*ns.arcs/ns.nodes + 10000
	for ; ; plan.pivots++ {
		if plan.pivots > maxPivots {
			return errTransportStalled
		}
		enter := ns.price()
		if enter < 0 {
			return nil
		}
		if err := ns.pivot(enter); err != nil {
			return err
		}
	}
}

// price returns an arc of negative reduced cost, −1 when there is none. It scans "rows": row
// s < na holds the arcs of source s, row na the artificial arcs. It resumes at the row after
// the last one scanned and stops, once it has a candidate, after about √arcs arcs, taking the
// most negative reduced cost seen.
func (ns *netSimplex) price() int {
	na, nb, big := ns.na, ns.nb, ns.big
	block := max(int(math.Sqrt(float64(ns.arcs))), 64)
	sinkBig, sinkReal := ns.potBig[na:na+nb], ns.potReal[na:na+nb]
	enter, best := -1, -transportPriceTol
	for scanned, rows := 0, 0; rows <= na; rows++ {
		row := ns.row
		if row < na {
			cs := ns.cost[row*nb : (row+1)*nb]
			pb, pr := ns.potBig[row], ns.potReal[row]
			for t, c := range cs {
				rc := c - pr + sinkReal[t] // +Inf for a missing arc
				if k := sinkBig[t] - pb; k != 0 {
					rc += float64(k) * big
				}
				if rc < best {
					enter, best = row*nb+t, rc
				}
			}
			scanned += nb
		} else {
			for e := ns.real; e < ns.arcs; e++ {
				t, h := ns.ends(e)
				rc := -ns.potReal[t] + ns.potReal[h] + float64(1-ns.potBig[t]+ns.potBig[h])*big
				if rc < best {
					enter, best = e, rc
				}
			}
			scanned += na + nb
		}
		ns.row = (row + 1) % (na + 1)
		if enter >= 0 && scanned >= block {
			break
		}
	}
	return enter
}

// pivot brings arc enter (k → l) into the tree: it pushes the most flow the cycle allows
// round it (the cycle is enter, then the tree path from l up to the apex and down to k), and
// the leaving arc is the last blocking arc met going round from the apex — the one nearest
// the apex on the l side, else the one nearest k on the k side.
func (ns *netSimplex) pivot(enter int) error {
	k, l := ns.ends(enter)
	ns.kSide, ns.lSide = ns.kSide[:0], ns.lSide[:0]
	x, y := k, l
	for x != y {
		if ns.depth[x] >= ns.depth[y] {
			ns.kSide = append(ns.kSide, x)
			x = ns.parent[x]
		} else {
			ns.lSide = append(ns.lSide, y)
			y = ns.parent[y]
		}
	}
	// Residuals: on the l side the flow runs child → parent, so arcs pointing down
	// decrease; on the k side it runs parent → child and arcs pointing up decrease.
	delta := math.Inf(1)
	for _, x := range ns.lSide {
		if !ns.up[x] {
			delta = math.Min(delta, ns.flow[x])
		}
	}
	for _, x := range ns.kSide {
		if ns.up[x] {
			delta = math.Min(delta, ns.flow[x])
		}
	}
	if math.IsInf(delta, 1) {
		// Uncapacitated arcs and a negative cycle with no blocking arc: impossible with
		// non-negative costs, so a bug rather than an unbounded problem.
		return argerr.New("metric", "network simplex found an unbounded cycle")
	}
	out, outOnK := -1, false
	for _, x := range ns.lSide {
		if !ns.up[x] && ns.flow[x] <= delta {
			out = x
		}
	}
	if out < 0 {
		for _, x := range ns.kSide {
			if ns.up[x] && ns.flow[x] <= delta {
				out, outOnK = x, true
				break
			}
		}
	}
	for _, x := range ns.lSide {
		if ns.up[x] {
			ns.flow[x] += delta
		} else {
			ns.flow[x] -= delta
		}
	}
	for _, x := range ns.kSide {
		if ns.up[x] {
			ns.flow[x] -= delta
		} else {
			ns.flow[x] += delta
		}
	}
	ns.rehang(enter, k, l, out, outOnK, delta)
	return nil
}

// rehang re-hangs the subtree cut off by the leaving arc (above node out) from the endpoint
// of the entering arc on its side, reversing the parent links along the path to out, and
// recomputes the moved subtree's depths and potentials.
func (ns *netSimplex) rehang(enter, k, l, out int, outOnK bool, delta float64) {
	from, to, fromUp := l, k, false // the cut side hangs from the other end of enter
	if outOnK {
		from, to, fromUp = k, l, true
	}
	for x := from; ; x = ns.parent[x] {
		ns.unlink(x)
		if x == out {
			break
		}
	}
	prevNode, prevArc, prevUp, prevFlow := to, enter, fromUp, delta
	for x := from; ; {
		nextNode, nextArc, nextUp, nextFlow := ns.parent[x], ns.parc[x], !ns.up[x], ns.flow[x]
		ns.parent[x], ns.parc[x], ns.up[x], ns.flow[x] = prevNode, prevArc, prevUp, prevFlow
		ns.arcBig[x], ns.arcReal[x] = ns.costBig(prevArc), ns.costReal(prevArc)
		ns.link(x)
		if x == out {
			break
		}
		prevNode, prevArc, prevUp, prevFlow = x, nextArc, nextUp, nextFlow
		x = nextNode
	}
	ns.update(from)
}

// readPlan reads the optimal tree into plan: feasible when the mass left through the root is
// rounding, then the cost, the flows and the dual prices in the units of d.
func (ns *netSimplex) readPlan(plan *transportPlan, d []float64, n int) {
	unmoved := 0.0
	for x := 0; x < ns.nodes; x++ {
		if x != ns.root && ns.parc[x] >= ns.real {
			unmoved += ns.flow[x]
		}
	}
	// Every unit that crosses the root uses two artificial arcs.
	if unmoved/2 > transportUnmoved {
		return
	}
	plan.feasible = true
	for x := 0; x < ns.nodes; x++ {
		if x == ns.root || ns.parc[x] >= ns.real || ns.flow[x] == 0 {
			continue
		}
		s, t := ns.parc[x]/ns.nb, ns.parc[x]%ns.nb
		plan.cost += ns.flow[x] * d[ns.src[s]*n+ns.snk[t]]
		plan.flows = append(plan.flows, transportFlow{ns.src[s], ns.snk[t], ns.flow[x]})
	}
	// Dual prices in the units of d: the constraint of pair (i, j) is π_i − π_j ≤ c_ij.
	for s, i := range ns.src {
		plan.u[i] = (float64(ns.potBig[s])*ns.big + ns.potReal[s]) / ns.scale
	}
	for t, j := range ns.snk {
		plan.v[j] = -(float64(ns.potBig[ns.na+t])*ns.big + ns.potReal[ns.na+t]) / ns.scale
	}
}
