package graph

import (
	"fmt"
	"slices"
	"time"

	"github.com/qif-toolkit/qif/core/argerr"
)

// Answer is the outcome of a search that may run out of time: Yes and No are proven, Unknown
// means the budget ran out (or the graph is too large) before either could be proven.
type Answer int8

const (
	Unknown Answer = iota // the search did not finish; nothing is claimed
	Yes                   // proven, with a certificate
	No                    // proven impossible
)

// String returns "yes", "no" or "unknown".
func (a Answer) String() string {
	switch a {
	case Yes:
		return "yes"
	case No:
		return "no"
	}
	return "unknown"
}

// DefaultVTPlusBudget is the time budget IsVTPlus uses when given budget ≤ 0.
const DefaultVTPlusBudget = time.Second

// MaxVTPlusVertices bounds the graphs on which IsVTPlus searches automorphisms (the search keeps
// an n×n distance table). Larger graphs still get a proven "no" when they are not regular or when
// two vertices have different distance distributions; otherwise the answer is Unknown.
const MaxVTPlusVertices = 2048

// VTPlusResult is the outcome of IsVTPlus.
type VTPlusResult struct {
	// VTPlus answers whether the graph is VT+ (Alvim et al. (ICALP 2011) Def. 3).
	VTPlus Answer
	// SingleOrbit answers whether some automorphism is a single n-cycle (the graph is a circulant).
	SingleOrbit Answer
	// Certificate, when SingleOrbit is Yes, is such an automorphism: Certificate[v] = σ(v), and
	// σ⁰, σ¹, …, σ^{n−1} are the n automorphisms of the definition.
	Certificate []int
	// Automorphisms, when VTPlus is Yes without a single-orbit automorphism, lists n automorphisms
	// σ_0 = id, σ_1, …, σ_{n−1} with σ_i(0) = i and {σ_i(v)} = V for every v (row i is σ_i).
	Automorphisms [][]int
	// Reason says in words how the answer was reached.
	Reason string
}

// IsVTPlus decides whether g is VT+ (docs/mathematics.md#optimal-mechanisms, Alvim et al. (ICALP
// 2011) Def. 3): whether there are automorphisms σ_0, …, σ_{n−1} with {σ_i(v) : i} = V for every
// vertex v.
//
// Reading of the definition. For each v the n images σ_0(v), …, σ_{n−1}(v) are n distinct vertices,
// so the array L[i][v] = σ_i(v) is a Latin square whose rows are automorphisms: a sharply
// transitive set of automorphisms (exactly one σ_i maps v to w, for every v, w). This is stronger
// than vertex-transitivity (some automorphism maps v to w): every graph with a regular group of
// automorphisms (every Cayley graph, e.g. cycles, cliques, hypercubes, Hamming graphs) is VT+,
// but a vertex-transitive graph need not be. Composing with σ_0⁻¹ keeps the property, so one may
// assume σ_0 = id, and then σ_i can be indexed by its image of vertex 0: σ_i(0) = i.
//
// The search, in order, with the budget shared across its steps:
//  1. not regular → No (VT+ implies vertex-transitive, hence regular);
//  2. two vertices with different distance distributions n_d → No (no automorphism maps one to
//     the other);
//  3. a single-orbit automorphism (an n-cycle preserving all distances) → Yes, returned as
//     Certificate; this search is exhaustive, so SingleOrbit is No when it finishes empty (it gets
//     a tenth of the budget; SingleOrbit is Unknown when that runs out);
//  4. a sharply transitive set σ_1, …, σ_{n−1} found by backtracking: σ_i(0) = i, vertices mapped
//     in breadth-first order each next to the image of its BFS parent, every partial map checked
//     to preserve all distances and to disagree with σ_0, …, σ_{i−1} at every vertex → Yes with
//     Automorphisms, or No when the whole tree has been explored.
//
// When the budget (DefaultVTPlusBudget if budget ≤ 0) runs out, the answer is Unknown — never a
// guess. Graphs of the usual families up to 20 vertices answer far within the default budget.
// The Petersen graph is VT+ although it is not a Cayley graph: its automorphism
// group S_5 has no regular subgroup, but it does contain sharply transitive sets.
func IsVTPlus(g *Graph, budget time.Duration) (VTPlusResult, error) {
	if g == nil || g.N < 1 {
		return VTPlusResult{}, argerr.New("graph", "empty graph")
	}
	if budget <= 0 {
		budget = DefaultVTPlusBudget
	}
	s := &vtSearch{g: g, n: g.N, deadline: time.Now().Add(budget)}
	n := g.N
	if n == 1 {
		return VTPlusResult{VTPlus: Yes, SingleOrbit: Yes, Certificate: []int{0}, Reason: "a single vertex"}, nil
	}
	if _, ok := g.Regular(); !ok {
		return VTPlusResult{VTPlus: No, SingleOrbit: No, Reason: "not regular, hence not vertex-transitive"}, nil
	}
	// Distance profiles (and the distance table for small graphs).
	keep := n <= MaxVTPlusVertices
	if keep {
		s.dist = make([]int16, n*n)
	}
	var ref []int
	for v := 0; v < n; v++ {
		if v&63 == 0 && time.Now().After(s.deadline) {
			return VTPlusResult{Reason: "budget exhausted while comparing distance distributions"}, nil
		}
		d := g.BFS(v)
		if keep {
			for w, k := range d {
				s.dist[v*n+w] = int16(k)
			}
		}
		nd := distanceDistribution(d)
		if v == 0 {
			ref = nd
			continue
		}
		if !slices.Equal(nd, ref) {
			return VTPlusResult{VTPlus: No, SingleOrbit: No, Reason: fmt.Sprintf(
				"vertices 0 and %d have different distance distributions, so the graph is not vertex-transitive", v)}, nil
		}
	}
	if !keep {
		return VTPlusResult{Reason: fmt.Sprintf("all distance distributions agree, but %d vertices is more than the limit of %d for the automorphism search", n, MaxVTPlusVertices)}, nil
	}
	res := VTPlusResult{}
	// Step 3 finds circulants at once but can take long to prove that none exists on very
	// symmetric graphs (K_10 × K_2), so it gets a tenth of the budget; step 4 gets the rest.
	full := s.deadline
	s.deadline = time.Now().Add(time.Until(full) / 10)
	if cert, ans := s.singleOrbit(); ans == Yes {
		return VTPlusResult{VTPlus: Yes, SingleOrbit: Yes, Certificate: cert,
			Reason: "a single-orbit automorphism (the graph is a circulant)"}, nil
	} else {
		res.SingleOrbit = ans
	}
	s.deadline, s.timedOut = full, false
	set, ans := s.sharplyTransitive()
	res.VTPlus = ans
	switch ans {
	case Yes:
		res.Automorphisms = set
		res.Reason = "a sharply transitive set of n automorphisms"
	case No:
		// Equal distance distributions do not make the graph vertex-transitive, so say only
		// what was shown.
		res.Reason = "all vertices have the same distance distribution, but an exhaustive search found no sharply transitive set of automorphisms"
	default:
		res.Reason = "budget exhausted during the automorphism search"
	}
	return res, nil
}

type vtSearch struct {
	g        *Graph
	n        int
	dist     []int16 // dist[v*n+w], −1 when unreachable
	deadline time.Time
	nodes    int
	timedOut bool
}

// tick counts search nodes and reports (every 1024 nodes) whether the deadline has passed.
func (s *vtSearch) tick() bool {
	s.nodes++
	if s.nodes&1023 == 0 && time.Now().After(s.deadline) {
		s.timedOut = true
	}
	return s.timedOut
}

// singleOrbit looks for an ordering v_0 = 0, v_1, …, v_{n−1} with dist(v_i, v_j) depending only on
// (j − i) mod n; then v_k ↦ v_{k+1} is a distance-preserving n-cycle, i.e. a single-orbit
// automorphism. v_0 = 0 loses nothing because any rotation of such an ordering is another one.
func (s *vtSearch) singleOrbit() ([]int, Answer) {
	n := s.n
	order := make([]int, n)
	used := make([]bool, n)
	delta := make([]int16, n) // delta[d] = dist(v_0, v_d)
	used[0] = true
	var rec func(k int) bool
	rec = func(k int) bool {
		if k == n {
			return true
		}
		if s.tick() {
			return false
		}
		for w := 0; w < n; w++ {
			if used[w] {
				continue
			}
			dk := s.dist[w] // dist(v_0, w), as dist is symmetric
			if n-k < k && dk != delta[n-k] {
				continue
			}
			ok := true
			for j := k - 1; j >= 1; j-- {
				if s.dist[order[j]*n+w] != delta[k-j] {
					ok = false
					break
				}
			}
			if !ok {
				continue
			}
			order[k], delta[k], used[w] = w, dk, true
			if rec(k + 1) {
				return true
			}
			used[w] = false
			if s.timedOut {
				return false
			}
		}
		return false
	}
	if !rec(1) {
		if s.timedOut {
			return nil, Unknown
		}
		return nil, No
	}
	sigma := make([]int, n)
	for k := 0; k < n; k++ {
		sigma[order[k]] = order[(k+1)%n]
	}
	if !IsAutomorphism(s.g, sigma) { // cannot happen when the search is right; never claim unchecked
		return nil, Unknown
	}
	return sigma, Yes
}

// sharplyTransitive searches σ_1, …, σ_{n−1} (σ_0 = id) as described in IsVTPlus.
func (s *vtSearch) sharplyTransitive() ([][]int, Answer) {
	n := s.n
	g := s.g
	// Breadth-first order over every component, with each vertex's parent position (−1 for roots).
	order := make([]int, 0, n)
	parent := make([]int, 0, n)
	pos := make([]int, n)
	seen := make([]bool, n)
	for r := 0; r < n; r++ {
		if seen[r] {
			continue
		}
		seen[r] = true
		pos[r] = len(order)
		order = append(order, r)
		parent = append(parent, -1)
		for h := len(order) - 1; h < len(order); h++ {
			x := order[h]
			for _, y := range g.Adj[x] {
				if !seen[y] {
					seen[y] = true
					pos[y] = len(order)
					order = append(order, y)
					parent = append(parent, pos[x])
				}
			}
		}
	}
	taken := make([]bool, n*n) // taken[v*n+w]: some earlier σ_j maps v to w
	for v := 0; v < n; v++ {
		taken[v*n+v] = true
	}
	perms := make([][]int, n)
	for i := range perms {
		perms[i] = make([]int, n)
	}
	for v := range perms[0] {
		perms[0][v] = v
	}
	inImage := make([]bool, n)
	var level func(L int) bool
	var extend func(L, k int) bool
	consistent := func(sigma []int, k, c int) bool {
		v := order[k]
		for j := 0; j < k; j++ {
			u := order[j]
			if s.dist[sigma[u]*n+c] != s.dist[u*n+v] {
				return false
			}
		}
		return true
	}
	try := func(L, k, c int) bool {
		v := order[k]
		sigma := perms[L]
		if inImage[c] || taken[v*n+c] || !consistent(sigma, k, c) {
			return false
		}
		sigma[v], inImage[c], taken[v*n+c] = c, true, true
		if extend(L, k+1) {
			return true
		}
		inImage[c], taken[v*n+c] = false, false
		return false
	}
	extend = func(L, k int) bool {
		if k == n {
			if L == n-1 {
				return true
			}
			clear(inImage)
			if level(L + 1) {
				return true
			}
			// Restore σ_L's image marks so that its enumeration can go on.
			clear(inImage)
			for _, c := range perms[L] {
				inImage[c] = true
			}
			return false
		}
		if s.tick() {
			return false
		}
		if p := parent[k]; p >= 0 {
			for _, c := range g.Adj[perms[L][order[p]]] {
				if try(L, k, c) {
					return true
				}
				if s.timedOut {
					return false
				}
			}
			return false
		}
		for c := 0; c < n; c++ {
			if try(L, k, c) {
				return true
			}
			if s.timedOut {
				return false
			}
		}
		return false
	}
	level = func(L int) bool {
		// σ_L(0) = L; vertex 0 is order[0].
		if taken[0*n+L] {
			return false
		}
		return try(L, 0, L)
	}
	if level(1) {
		for i := 1; i < n; i++ {
			if !IsAutomorphism(g, perms[i]) {
				return nil, Unknown // never claim an unchecked certificate
			}
		}
		return perms, Yes
	}
	if s.timedOut {
		return nil, Unknown
	}
	return nil, No
}

// IsAutomorphism reports whether sigma (sigma[v] = σ(v)) is a permutation of 0..g.N−1 that maps
// edges to edges. Since it is a bijection on a finite graph, it then maps non-edges to non-edges.
func IsAutomorphism(g *Graph, sigma []int) bool {
	if g == nil || len(sigma) != g.N {
		return false
	}
	seen := make([]bool, g.N)
	for _, w := range sigma {
		if w < 0 || w >= g.N || seen[w] {
			return false
		}
		seen[w] = true
	}
	for a, nb := range g.Adj {
		for _, b := range nb {
			if !g.Adjacent(sigma[a], sigma[b]) {
				return false
			}
		}
	}
	return true
}
