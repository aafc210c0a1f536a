package graph

import "fmt"

// Path is the path 0−1−…−(n−1).
func Path(n int) (*Graph, error) {
	if n < 1 {
		return nil, fmt.Errorf("path: n must be at least 1, got %d", n)
	}
	if n > MaxVertices {
		return nil, fmt.Errorf("path: n = %d is more than the limit of %d vertices", n, MaxVertices)
	}
	var e []Edge
	for i := 0; i+1 < n; i++ {
		e = append(e, Edge{i, i + 1})
	}
	return New(n, e)
}

// Cycle is the cycle on n ≥ 3 vertices.
func Cycle(n int) (*Graph, error) {
	if n < 3 {
		return nil, fmt.Errorf("cycle: n must be at least 3, got %d", n)
	}
	if n > MaxVertices {
		return nil, fmt.Errorf("cycle: n = %d is more than the limit of %d vertices", n, MaxVertices)
	}
	e := []Edge{{n - 1, 0}}
	for i := 0; i+1 < n; i++ {
		e = append(e, Edge{i, i + 1})
	}
	return New(n, e)
}

// Clique is the complete graph K_n.
func Clique(n int) (*Graph, error) {
	if n < 1 {
		return nil, fmt.Errorf("clique: n must be at least 1, got %d", n)
	}
	if n > 2000 {
		return nil, fmt.Errorf("clique: n = %d gives %d edges, more than the limit for n = 2000", n, n*(n-1)/2)
	}
	var e []Edge
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			e = append(e, Edge{i, j})
		}
	}
	return New(n, e)
}

// Grid is the w×h grid graph; vertex (x, y) is numbered y·w + x.
func Grid(w, h int) (*Graph, error) {
	if w < 1 || h < 1 {
		return nil, fmt.Errorf("grid: width and height must be at least 1, got %d×%d", w, h)
	}
	// Compare factor by factor first: w*h can overflow for huge inputs.
	if w > MaxVertices || h > MaxVertices || w*h > MaxVertices {
		return nil, fmt.Errorf("grid: %d×%d has more than %d vertices", w, h, MaxVertices)
	}
	var e []Edge
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			v := y*w + x
			if x+1 < w {
				e = append(e, Edge{v, v + 1})
			}
			if y+1 < h {
				e = append(e, Edge{v, v + w})
			}
		}
	}
	return New(w*h, e)
}

// MaxEdges bounds the number of edges a family constructor lists explicitly (the clique
// K_2000 has about two million).
const MaxEdges = 2_000_000

// Hypercube is the d-dimensional hypercube Q_d on 2^d vertices: vertices are the d-bit
// numbers, adjacent when they differ in exactly one bit. It is the Hamming graph Hamming(d, 2),
// the database domain of d individuals with two values each (Alvim et al. (ICALP 2011) §3).
func Hypercube(d int) (*Graph, error) {
	if d < 1 {
		return nil, fmt.Errorf("hypercube: dimension d must be at least 1, got %d", d)
	}
	if d > 14 {
		return nil, fmt.Errorf("hypercube: dimension %d gives 2^%d vertices, more than the limit of %d", d, d, MaxVertices)
	}
	g, err := Hamming(d, 2)
	if err != nil {
		return nil, fmt.Errorf("hypercube: %w", err)
	}
	return g, nil
}

// Petersen is the Petersen graph: the outer 5-cycle 0−1−2−3−4, the spokes i−(i+5) and the inner
// pentagram (5+i)−(5+(i+2) mod 5). It is 3-regular, distance-regular with intersection array
// {3,2;1,1} and vertex-transitive.
func Petersen() *Graph {
	var e []Edge
	for i := 0; i < 5; i++ {
		e = append(e, Edge{i, (i + 1) % 5}, Edge{i, i + 5}, Edge{5 + i, 5 + (i+2)%5})
	}
	g, err := New(10, e)
	if err != nil {
		panic("graph: Petersen: " + err.Error()) // the edge list above is fixed and valid
	}
	return g
}

// Hamming is the database domain V^u of Alvim et al. (ICALP 2011) §2.1 listed explicitly: u
// individuals, each with one of v values (the absent value included); two databases are adjacent
// when they differ in exactly one individual. Vertex x encodes the tuple (x_0, …, x_{u−1}) in base
// v with individual 0 the most significant digit. It refuses domains with more than MaxVertices
// databases or more than MaxEdges adjacent pairs; for larger domains use
// HammingDistanceDistribution, which is analytic.
func Hamming(u, v int) (*Graph, error) {
	if u < 1 {
		return nil, fmt.Errorf("hamming: individuals u must be at least 1, got %d", u)
	}
	if v < 2 {
		return nil, fmt.Errorf("hamming: values v must be at least 2, got %d", v)
	}
	n := 1
	for i := 0; i < u; i++ {
		if n > MaxVertices/v {
			return nil, fmt.Errorf("hamming: v^u = %d^%d databases, more than the limit of %d to list explicitly (HammingDistanceDistribution is analytic)", v, u, MaxVertices)
		}
		n *= v
	}
	if m := n * u * (v - 1) / 2; m > MaxEdges {
		return nil, fmt.Errorf("hamming: %d^%d has %d adjacent pairs, more than the limit of %d", v, u, m, MaxEdges)
	}
	e := make([]Edge, 0, n*u*(v-1)/2)
	for x := 0; x < n; x++ {
		// Changing digit i (weight w = v^(u−1−i)) to a larger value gives each edge once.
		for w := 1; w < n; w *= v {
			digit := (x / w) % v
			for nd := digit + 1; nd < v; nd++ {
				e = append(e, Edge{x, x + (nd-digit)*w})
			}
		}
	}
	return New(n, e)
}
