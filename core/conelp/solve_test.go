package conelp

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/qif-toolkit/qif/core/lp"
)

// fullLP solves the same program with the general simplex of package lp, stated row by row.
func fullLP(t *testing.T, p *Problem) float64 {
	t.Helper()
	n, W := p.N, len(p.Cost)
	m := lp.NewModel(p.Sense)
	H := m.AddBlock("H", n, W)
	for w, c := range p.Cost {
		for y, v := range c {
			if v != 0 {
				m.SetObjective(H.At(y, w), v)
			}
		}
	}
	for y := 0; y < n; y++ {
		row := make([]lp.Term, W)
		for w := range row {
			row[w] = lp.Term{Var: H.At(y, w), Coef: 1}
		}
		m.AddEq(row, 1)
	}
	for _, q := range p.Pairs {
		f := math.Exp(q.Log)
		if math.IsInf(f, 1) {
			continue
		}
		for w := 0; w < W; w++ {
			m.AddLe([]lp.Term{{Var: H.At(q.A, w), Coef: 1}, {Var: H.At(q.B, w), Coef: -f}}, 0)
			m.AddLe([]lp.Term{{Var: H.At(q.B, w), Coef: 1}, {Var: H.At(q.A, w), Coef: -f}}, 0)
		}
	}
	r, err := m.Solve(nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != lp.Optimal {
		t.Fatalf("full LP: %v", r.Status)
	}
	return r.Objective
}

func randomGraphPairs(rng *rand.Rand, n int, eps float64) []Pair {
	var pairs []Pair
	// a random spanning tree plus random extra edges
	for v := 1; v < n; v++ {
		pairs = append(pairs, Pair{rng.IntN(v), v, eps})
	}
	for k := 0; k < n; k++ {
		a, b := rng.IntN(n), rng.IntN(n)
		if a != b {
			pairs = append(pairs, Pair{a, b, eps})
		}
	}
	return pairs
}

func randomPrior(rng *rand.Rand, n int) []float64 {
	p := make([]float64, n)
	s := 0.0
	for i := range p {
		p[i] = rng.Float64() + 0.05
		s += p[i]
	}
	for i := range p {
		p[i] /= s
	}
	return p
}

func TestAgainstFullLP(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 200; trial++ {
		n := 2 + rng.IntN(7)
		eps := []float64{0.1, 0.5, 1, 2, 5}[rng.IntN(5)]
		prior := randomPrior(rng, n)
		W := n
		p := &Problem{N: n, Pairs: randomGraphPairs(rng, n, eps)}
		kind := rng.IntN(3)
		if kind == 2 {
			W = 1 + rng.IntN(n+2)
		}
		p.Cost = make([][]float64, W)
		for w := range p.Cost {
			p.Cost[w] = make([]float64, n)
			for y := range p.Cost[w] {
				switch kind {
				case 0:
					if y == w {
						p.Cost[w][y] = prior[y]
					}
				case 1:
					p.Cost[w][y] = prior[y] * math.Abs(float64(w-y))
				default:
					p.Cost[w][y] = prior[y] * rng.Float64()
				}
			}
		}
		if kind == 1 {
			p.Sense = lp.Minimize
		} else {
			p.Sense = lp.Maximize
		}
		want := fullLP(t, p)
		r, err := Solve(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != lp.Optimal || math.Abs(r.Objective-want) > 1e-8 {
			t.Errorf("trial %d (n %d, W %d, ε %g, kind %d): %v objective %.12g bound %.12g, full LP %.12g; residuals %g %g; rounds %d",
				trial, n, W, eps, kind, r.Status, r.Objective, r.Bound, want, r.PrimalResidual, r.DualResidual, r.Rounds)
		}
	}
}
