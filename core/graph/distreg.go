package graph

import "math/bits"

// IsDistanceRegular reports whether g is distance-regular (docs/mathematics.md#optimal-mechanisms,
// Alvim et al. (ICALP 2011) Def. 2): there are intersection numbers b_i, c_i such that for every
// two vertices v, w at distance i, w has exactly c_i neighbours at distance i−1 from v and b_i
// neighbours at distance i+1 from v. On success it returns the intersection array {b_0, …, b_{D−1};
// c_1, …, c_D} as b and c (D the diameter); for instance the Petersen graph gives b = [3 2], c = [1
// 1].
//
// Following the usual definition (Brouwer, Cohen, Neumaier), a distance-regular graph is
// connected: a disconnected graph is reported as not distance-regular, even when all its
// components are copies of one distance-regular graph (for those, the Theorem 4.1 bound still
// holds per component; IsVTPlus recognises such unions when they are VT+). The single vertex is
// distance-regular with empty arrays.
//
// Cost: one breadth-first search per vertex and, for each vertex pair, a neighbour count done
// either along the adjacency list or, for dense graphs, with 64-bit words — O(n·min(m, n²/64))
// — so 1,000-vertex graphs take milliseconds. It stops at the first pair that breaks regularity.
func IsDistanceRegular(g *Graph) (ok bool, b, c []int) {
	if g == nil || g.N < 1 {
		return false, nil, nil
	}
	n := g.N
	if n == 1 {
		return true, []int{}, []int{}
	}
	k, regular := g.Regular()
	if !regular || k == 0 {
		return false, nil, nil
	}
	words := (n + 63) / 64
	var nbBits []uint64 // adjacency rows as bitsets, only for dense graphs
	if k > 2*words && n <= 8192 {
		nbBits = make([]uint64, n*words)
		for w, nb := range g.Adj {
			row := nbBits[w*words : (w+1)*words]
			for _, x := range nb {
				row[x>>6] |= 1 << (uint(x) & 63)
			}
		}
	}
	cArr := []int{0} // c_0 = 0 by convention; −1 = not yet seen
	bArr := []int{k}
	dist := make([]int, n)
	queue := make([]int, 0, n)
	var levels []uint64
	frontier := make([]uint64, words)
	for v := 0; v < n; v++ {
		for i := range dist {
			dist[i] = -1
		}
		dist[v] = 0
		queue = append(queue[:0], v)
		if nbBits == nil {
			for h := 0; h < len(queue); h++ {
				x := queue[h]
				for _, y := range g.Adj[x] {
					if dist[y] < 0 {
						dist[y] = dist[x] + 1
						queue = append(queue, y)
					}
				}
			}
		} else {
			// Dense graphs: a vertex joins the next level when its neighbour bitset meets the
			// frontier, O(n²/64) per level instead of O(m).
			clear(frontier)
			frontier[v>>6] |= 1 << (uint(v) & 63)
			for level, start := 1, 0; start < len(queue); level++ {
				end := len(queue)
				for y := 0; y < n; y++ {
					if dist[y] >= 0 {
						continue
					}
					row := nbBits[y*words : (y+1)*words]
					for t, x := range row {
						if x&frontier[t] != 0 {
							dist[y] = level
							queue = append(queue, y)
							break
						}
					}
				}
				clear(frontier)
				for _, y := range queue[end:] {
					frontier[y>>6] |= 1 << (uint(y) & 63)
				}
				start = end
			}
		}
		if len(queue) != n {
			return false, nil, nil // disconnected
		}
		ecc := dist[queue[n-1]]
		if v == 0 {
			for len(cArr) <= ecc {
				cArr = append(cArr, -1)
				bArr = append(bArr, -1)
			}
		} else if ecc != len(cArr)-1 {
			return false, nil, nil // eccentricities differ
		}
		if nbBits != nil {
			if need := (ecc + 1) * words; cap(levels) < need {
				levels = make([]uint64, need)
			}
			levels = levels[:(ecc+1)*words]
			clear(levels)
			for w, i := range dist {
				levels[i*words+w>>6] |= 1 << (uint(w) & 63)
			}
		}
		for _, w := range queue[1:] { // w ≠ v; b_0 = k already holds by regularity
			i := dist[w]
			var cw, bw int
			if nbBits != nil {
				row := nbBits[w*words : (w+1)*words]
				lo := levels[(i-1)*words : i*words]
				for t, x := range row {
					cw += bits.OnesCount64(x & lo[t])
				}
				if i < ecc {
					hi := levels[(i+1)*words : (i+2)*words]
					for t, x := range row {
						bw += bits.OnesCount64(x & hi[t])
					}
				}
			} else {
				for _, x := range g.Adj[w] {
					switch dist[x] {
					case i - 1:
						cw++
					case i + 1:
						bw++
					}
				}
			}
			if cArr[i] < 0 {
				cArr[i], bArr[i] = cw, bw
			} else if cArr[i] != cw || bArr[i] != bw {
				return false, nil, nil
			}
		}
	}
	d := len(cArr) - 1
	return true, append([]int{}, bArr[:d]...), append([]int{}, cArr[1:]...)
}
