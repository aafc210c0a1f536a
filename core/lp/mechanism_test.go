package lp

import (
	"flag"
	"fmt"
	"math"
	"testing"
)

// Edge generators kept local so that these tests depend on nothing but the solver.
func pathEdges(n int) [][2]int {
	var e [][2]int
	for i := 0; i+1 < n; i++ {
		e = append(e, [2]int{i, i + 1})
	}
	return e
}

func cycleEdges(n int) [][2]int { return append(pathEdges(n), [2]int{n - 1, 0}) }

func cliqueEdges(n int) [][2]int {
	var e [][2]int
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			e = append(e, [2]int{i, j})
		}
	}
	return e
}

func gridEdges(side int) [][2]int {
	var e [][2]int
	for r := 0; r < side; r++ {
		for c := 0; c < side; c++ {
			v := r*side + c
			if c+1 < side {
				e = append(e, [2]int{v, v + 1})
			}
			if r+1 < side {
				e = append(e, [2]int{v, v + side})
			}
		}
	}
	return e
}

// mechanismModel states the optimal ε-DP mechanism LP of docs/mathematics.md#optimal-mechanisms for
// binary gain and the uniform prior: maximize (1/n) Σ_y H[y][y] over row-stochastic H ≥ 0 with
// H[y][z] ≤ e^ε H[y'][z] for every edge y∼y' (both directions) and every z.
func mechanismModel(n int, edges [][2]int, eps float64) (*Model, *Block) {
	m := NewModel(Maximize)
	H := m.AddBlock("H", n, n)
	for y := 0; y < n; y++ {
		m.SetObjective(H.At(y, y), 1/float64(n))
	}
	row := make([]Term, n)
	for y := 0; y < n; y++ {
		for z := 0; z < n; z++ {
			row[z] = Term{H.At(y, z), 1}
		}
		m.AddEq(row, 1)
	}
	k := math.Exp(eps)
	for _, e := range edges {
		for _, yy := range [][2]int{{e[0], e[1]}, {e[1], e[0]}} {
			for z := 0; z < n; z++ {
				m.AddLe([]Term{{H.At(yy[0], z), 1}, {H.At(yy[1], z), -k}}, 0)
			}
		}
	}
	return m, H
}

// closedForm is 1/Σ_d n_d e^{−εd} for a distance-regular graph, with n_d counted by BFS from 0.
func closedForm(n int, edges [][2]int, eps float64) float64 {
	adj := make([][]int, n)
	for _, e := range edges {
		adj[e[0]] = append(adj[e[0]], e[1])
		adj[e[1]] = append(adj[e[1]], e[0])
	}
	dist := make([]int, n)
	for i := range dist {
		dist[i] = -1
	}
	dist[0] = 0
	queue := []int{0}
	sum := 0.0
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		sum += math.Exp(-eps * float64(dist[v]))
		for _, w := range adj[v] {
			if dist[w] < 0 {
				dist[w] = dist[v] + 1
				queue = append(queue, w)
			}
		}
	}
	return 1 / sum
}

func TestMechanismClosedForm(t *testing.T) {
	eps := math.Ln2
	cases := []struct {
		name  string
		n     int
		edges [][2]int
	}{
		{"clique 2", 2, cliqueEdges(2)},
		{"clique 6", 6, cliqueEdges(6)},
		{"clique 10", 10, cliqueEdges(10)},
		{"cycle 5", 5, cycleEdges(5)},
		{"cycle 8", 8, cycleEdges(8)},
		{"cycle 15", 15, cycleEdges(15)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, _ := mechanismModel(c.n, c.edges, eps)
			res, err := m.Solve(nil)
			if err != nil {
				t.Fatal(err)
			}
			want := closedForm(c.n, c.edges, eps)
			if res.Status != Optimal || math.Abs(res.Objective-want) > 1e-9 {
				t.Fatalf("status %v objective %.15g, want %.15g (iterations %d)", res.Status, res.Objective, want, res.Iterations)
			}
			p, _ := m.Problem()
			checkOptimality(t, p, res, 1e-9)
		})
	}
	// The clique formula in closed form: 1/(1+(n−1)e^{−ε}) = 2/(n+1) for ε = ln 2.
	if got := closedForm(6, cliqueEdges(6), eps); math.Abs(got-2.0/7) > 1e-15 {
		t.Fatalf("closed form for K6 = %v, want 2/7", got)
	}
}

func TestMechanismPathGrid(t *testing.T) {
	for _, c := range []struct {
		name  string
		n     int
		edges [][2]int
	}{{"path 10", 10, pathEdges(10)}, {"grid 3", 9, gridEdges(3)}, {"grid 4", 16, gridEdges(4)}} {
		m, _ := mechanismModel(c.n, c.edges, math.Ln2)
		res, err := m.Solve(nil)
		if err != nil {
			t.Fatal(err)
		}
		p, _ := m.Problem()
		if res.Status != Optimal {
			t.Fatalf("%s: status %v", c.name, res.Status)
		}
		checkOptimality(t, p, res, 1e-9)
	}
}

var benchSize = flag.String("lp.bench", "small", "mechanism LP benchmark sizes: small (path/clique 10–20, grid 4) or all")

// mechanismCases are the benchmark LPs of docs/design/lp-solver.md: path and clique with n = 10,
// 20, 40, 80 and grids of side 4, 6, 8, 10. Only the small ones run unless -lp.bench=all.
func mechanismCases() []struct {
	name  string
	n     int
	edges [][2]int
	big   bool
} {
	type c = struct {
		name  string
		n     int
		edges [][2]int
		big   bool
	}
	var out []c
	for _, n := range []int{10, 20, 40, 80} {
		out = append(out, c{fmt.Sprintf("path%d", n), n, pathEdges(n), n > 20})
	}
	for _, n := range []int{10, 20, 40, 80} {
		out = append(out, c{fmt.Sprintf("clique%d", n), n, cliqueEdges(n), n > 20})
	}
	for _, s := range []int{4, 6, 8, 10} {
		out = append(out, c{fmt.Sprintf("grid%d", s), s * s, gridEdges(s), s > 4})
	}
	return out
}

func BenchmarkMechanismLP(b *testing.B) {
	for _, c := range mechanismCases() {
		if c.big && (*benchSize != "all" || testing.Short()) {
			continue
		}
		b.Run(c.name, func(b *testing.B) {
			m, _ := mechanismModel(c.n, c.edges, math.Ln2)
			p, err := m.Problem()
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			var res *Result
			for i := 0; i < b.N; i++ {
				res, _ = Solve(p, nil)
			}
			b.StopTimer()
			if res.Status != Optimal {
				b.Fatalf("status %v", res.Status)
			}
			b.ReportMetric(float64(res.Iterations), "iterations")
			b.ReportMetric(res.Objective, "optimum")
		})
	}
}
