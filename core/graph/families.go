package graph

import "fmt"

// Path is the path 0−1−…−(n−1).
func Path(n int) (*Graph, error) {
	if n < 1 {
		return nil, fmt.Errorf("path: n must be at least 1, got %d", n)
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
	if w*h > MaxVertices {
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
