package graph

import "math/bits"

// DistanceRows computes shortest-path distances from one source at a time with buffers reused
// across sources. Dense graphs use a bit-parallel BFS (each frontier vertex ORs its adjacency
// bitset, n/64 words), which costs n²/64 word operations per source instead of n + 2|E|; the
// switch happens where the average degree exceeds n/64.
type DistanceRows struct {
	g     *Graph
	dist  []int
	queue []int
	dense bool
	words int
	adj   []uint64 // row v: the neighbours of v as a bitset
	seen  []uint64
	front []uint64
	next  []uint64
}

// NewDistanceRows prepares the searches on g (the bitsets of a dense graph included).
func NewDistanceRows(g *Graph) *DistanceRows {
	n := g.N
	r := &DistanceRows{g: g, dist: make([]int, n), queue: make([]int, 0, n)}
	r.words = (n + 63) / 64
	degrees := 0
	for _, nb := range g.Adj {
		degrees += len(nb)
	}
	if degrees > n*r.words {
		r.dense = true
		r.adj = make([]uint64, n*r.words)
		for v, nb := range g.Adj {
			row := r.adj[v*r.words : (v+1)*r.words]
			for _, w := range nb {
				row[w>>6] |= 1 << (uint(w) & 63)
			}
		}
		r.seen = make([]uint64, r.words)
		r.front = make([]uint64, r.words)
		r.next = make([]uint64, r.words)
	}
	return r
}

// From returns the distances from s (−1 when unreachable). The slice is reused by the next call.
func (r *DistanceRows) From(s int) []int {
	for i := range r.dist {
		r.dist[i] = -1
	}
	r.dist[s] = 0
	if !r.dense {
		q := append(r.queue[:0], s)
		for h := 0; h < len(q); h++ {
			v := q[h]
			dv := r.dist[v] + 1
			for _, w := range r.g.Adj[v] {
				if r.dist[w] < 0 {
					r.dist[w] = dv
					q = append(q, w)
				}
			}
		}
		r.queue = q
		return r.dist
	}
	clear(r.seen)
	clear(r.front)
	r.seen[s>>6] |= 1 << (uint(s) & 63)
	r.front[s>>6] |= 1 << (uint(s) & 63)
	for d := 1; ; d++ {
		clear(r.next)
		for k, word := range r.front {
			for word != 0 {
				v := k<<6 | bits.TrailingZeros64(word)
				word &= word - 1
				row := r.adj[v*r.words : (v+1)*r.words]
				for i, a := range row {
					r.next[i] |= a
				}
			}
		}
		any := false
		for i := range r.next {
			r.next[i] &^= r.seen[i]
			r.seen[i] |= r.next[i]
			word := r.next[i]
			any = any || word != 0
			for word != 0 {
				r.dist[i<<6|bits.TrailingZeros64(word)] = d
				word &= word - 1
			}
		}
		if !any {
			return r.dist
		}
		r.front, r.next = r.next, r.front
	}
}
