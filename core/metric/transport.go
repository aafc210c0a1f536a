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
	na, nb := len(src), len(snk)
	plan := &transportPlan{u: make([]float64, n), v: make([]float64, n)}

	// A point of mass that has no allowed partner of positive mass cannot be coupled: decided
	// exactly, whatever its mass.
	dmax := 0.0
	for _, i := range src {
		ok := false
		for _, j := range snk {
			if c := d[i*n+j]; !math.IsInf(c, 1) {
				ok = true
				dmax = math.Max(dmax, c)
			}
		}
		if !ok {
			return plan, nil
		}
	}
	for _, j := range snk {
		ok := false
		for _, i := range src {
			if !math.IsInf(d[i*n+j], 1) {
				ok = true
				break
			}
		}
		if !ok {
			return plan, nil
		}
	}
	scale := 1.0
	if dmax > 0 {
		scale = 1 / dmax
	}

	nodes := na + nb + 1
	root := na + nb
	big := float64(nodes + 1)
	real := na * nb // arc s·nb+t joins source s to sink t; arcs real+s and real+na+t are artificial
	// An arc costs costBig(e)·M + costReal(e); potentials are kept in the same two parts
	// (potBig an integer), so that rounding in the real part is relative to the distances and
	// not to M, which is as large as the number of nodes. cost holds the real arcs' scaled
	// costs, +Inf for the pairs that do not exist.
	cost := make([]float64, real)
	for s, i := range src {
		row := cost[s*nb : (s+1)*nb]
		for t, j := range snk {
			row[t] = d[i*n+j] * scale
		}
	}
	costReal := func(e int) float64 {
		if e >= real {
			return 0
		}
		return cost[e]
	}
	costBig := func(e int) int {
		if e >= real {
			return 1
		}
		return 0
	}
	ends := func(e int) (tail, head int) {
		switch {
		case e < real:
			return e / nb, na + e%nb
		case e < real+na:
			return e - real, root
		default:
			return root, na + (e - real - na)
		}
	}

	parent := make([]int, nodes)
	parc := make([]int, nodes)     // the tree arc between a node and its parent
	up := make([]bool, nodes)      // that arc points to the parent
	flow := make([]float64, nodes) // its flow
	depth := make([]int, nodes)
	potBig := make([]int, nodes)
	potReal := make([]float64, nodes)
	arcBig := make([]int, nodes) // costBig and costReal of the tree arc above each node
	arcReal := make([]float64, nodes)
	parent[root] = -1
	for s := 0; s < na; s++ {
		parent[s], parc[s], up[s], flow[s], arcBig[s] = root, real+s, true, a[src[s]], 1
	}
	for t := 0; t < nb; t++ {
		v := na + t
		parent[v], parc[v], up[v], flow[v], arcBig[v] = root, real+na+t, false, b[snk[t]], 1
	}

	// The tree is also kept as child lists (first child, next and previous sibling), so that
	// after a pivot only the subtree that moved has its depths and potentials recomputed.
	firstChild := make([]int, nodes)
	nextSib := make([]int, nodes)
	prevSib := make([]int, nodes)
	for v := range firstChild {
		firstChild[v], nextSib[v], prevSib[v] = -1, -1, -1
	}
	link := func(x int) { // x at the head of its parent's list
		p := parent[x]
		nextSib[x], prevSib[x] = firstChild[p], -1
		if firstChild[p] >= 0 {
			prevSib[firstChild[p]] = x
		}
		firstChild[p] = x
	}
	unlink := func(x int) {
		if prevSib[x] >= 0 {
			nextSib[prevSib[x]] = nextSib[x]
		} else {
			firstChild[parent[x]] = nextSib[x]
		}
		if nextSib[x] >= 0 {
			prevSib[nextSib[x]] = prevSib[x]
		}
	}
	for v := 0; v < root; v++ {
		link(v)
	}
	// update recomputes depths and potentials in the subtree of top from its parent's:
	// π_root = 0 and, along each tree arc u → w, c_uw − π_u + π_w = 0.
	stack := make([]int, 0, nodes)
	update := func(top int) {
		stack = append(stack[:0], top)
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			p := parent[x]
			depth[x] = depth[p] + 1
			if up[x] {
				potBig[x], potReal[x] = potBig[p]+arcBig[x], potReal[p]+arcReal[x]
			} else {
				potBig[x], potReal[x] = potBig[p]-arcBig[x], potReal[p]-arcReal[x]
			}
			for c := firstChild[x]; c >= 0; c = nextSib[c] {
				stack = append(stack, c)
			}
		}
	}
	for c := firstChild[root]; c >= 0; c = nextSib[c] {
		update(c)
	}

	arcs := real + na + nb
	block := max(int(math.Sqrt(float64(arcs))), 64)
	// Pricing runs over "rows": row s < na holds the arcs of source s, row na the artificial
	// arcs. It resumes at the row after the last one scanned and stops, once it has a
	// candidate, after about block arcs.
	row := 0
	maxPivots := 200*nodes + 20*arcs/nodes + 10000
	var kSide, lSide []int
	sinkBig, sinkReal := potBig[na:na+nb], potReal[na:na+nb]
	for ; ; plan.pivots++ {
		if plan.pivots > maxPivots {
			return nil, errTransportStalled
		}
		enter, best := -1, -transportPriceTol
		for scanned, rows := 0, 0; rows <= na; rows++ {
			if row < na {
				cs := cost[row*nb : (row+1)*nb]
				pb, pr := potBig[row], potReal[row]
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
				for e := real; e < arcs; e++ {
					t, h := ends(e)
					rc := -potReal[t] + potReal[h] + float64(1-potBig[t]+potBig[h])*big
					if rc < best {
						enter, best = e, rc
					}
				}
				scanned += na + nb
			}
			row = (row + 1) % (na + 1)
			if enter >= 0 && scanned >= block {
				break
			}
		}
		if enter < 0 {
			break
		}

		// The cycle: enter (k → l), then the tree path from l up to the apex w and down to k.
		k, l := ends(enter)
		kSide, lSide = kSide[:0], lSide[:0]
		x, y := k, l
		for x != y {
			if depth[x] >= depth[y] {
				kSide = append(kSide, x)
				x = parent[x]
			} else {
				lSide = append(lSide, y)
				y = parent[y]
			}
		}
		// Residuals: on the l side the flow runs child → parent, so arcs pointing down
		// decrease; on the k side it runs parent → child and arcs pointing up decrease.
		delta := math.Inf(1)
		for _, x := range lSide {
			if !up[x] {
				delta = math.Min(delta, flow[x])
			}
		}
		for _, x := range kSide {
			if up[x] {
				delta = math.Min(delta, flow[x])
			}
		}
		if math.IsInf(delta, 1) {
			// Uncapacitated arcs and a negative cycle with no blocking arc: impossible with
			// non-negative costs, so a bug rather than an unbounded problem.
			return nil, argerr.New("metric", "network simplex found an unbounded cycle")
		}
		// Leaving arc: the last blocking arc met going round the cycle from the apex — the
		// one nearest the apex on the l side, else the one nearest k on the k side.
		out, outOnK := -1, false
		for _, x := range lSide {
			if !up[x] && flow[x] <= delta {
				out = x
			}
		}
		if out < 0 {
			for _, x := range kSide {
				if up[x] && flow[x] <= delta {
					out, outOnK = x, true
					break
				}
			}
		}
		for _, x := range lSide {
			if up[x] {
				flow[x] += delta
			} else {
				flow[x] -= delta
			}
		}
		for _, x := range kSide {
			if up[x] {
				flow[x] -= delta
			} else {
				flow[x] += delta
			}
		}

		// Re-hang the subtree cut off by the leaving arc from the endpoint of the entering
		// arc on its side, reversing the parent links along the path to the leaving node.
		from, to, fromUp := l, k, false // the cut side hangs from the other end of enter
		if outOnK {
			from, to, fromUp = k, l, true
		}
		for x := from; ; x = parent[x] {
			unlink(x)
			if x == out {
				break
			}
		}
		prevNode, prevArc, prevUp, prevFlow := to, enter, fromUp, delta
		for x := from; ; {
			nextNode, nextArc, nextUp, nextFlow := parent[x], parc[x], !up[x], flow[x]
			parent[x], parc[x], up[x], flow[x] = prevNode, prevArc, prevUp, prevFlow
			arcBig[x], arcReal[x] = costBig(prevArc), costReal(prevArc)
			link(x)
			if x == out {
				break
			}
			prevNode, prevArc, prevUp, prevFlow = x, nextArc, nextUp, nextFlow
			x = nextNode
		}
		update(from)
	}

	unmoved := 0.0
	for x := 0; x < nodes; x++ {
		if x != root && parc[x] >= real {
			unmoved += flow[x]
		}
	}
	// Every unit that crosses the root uses two artificial arcs.
	if unmoved/2 > transportUnmoved {
		return plan, nil
	}
	plan.feasible = true
	for x := 0; x < nodes; x++ {
		if x == root || parc[x] >= real || flow[x] == 0 {
			continue
		}
		s, t := parc[x]/nb, parc[x]%nb
		plan.cost += flow[x] * d[src[s]*n+snk[t]]
		plan.flows = append(plan.flows, transportFlow{src[s], snk[t], flow[x]})
	}
	// Dual prices in the units of d: the constraint of pair (i, j) is π_i − π_j ≤ c_ij.
	for s, i := range src {
		plan.u[i] = (float64(potBig[s])*big + potReal[s]) / scale
	}
	for t, j := range snk {
		plan.v[j] = -(float64(potBig[na+t])*big + potReal[na+t]) / scale
	}
	return plan, nil
}
