package lp

import (
	"math"
	"testing"
)

// TestStartAfterAddedRows re-solves a program after rows were added, from the basis of the solve
// before: the ε-DP mechanism program on the path, then on the cycle (the path's rows and the
// closing edge's). The optimum must be the cycle's closed form, reached in fewer pivots than from
// scratch; a start of the wrong size, or with every member basic, must still give it.
func TestStartAfterAddedRows(t *testing.T) {
	const n = 14
	eps := math.Ln2
	path, _ := mechanismModel(n, pathEdges(n), eps)
	r1, err := path.Solve(nil)
	if err != nil || r1.Status != Optimal {
		t.Fatalf("path: %v %v", err, r1.Status)
	}
	cycle, _ := mechanismModel(n, cycleEdges(n), eps)
	want := closedForm(n, cycleEdges(n), eps)
	cold, err := cycle.Solve(nil)
	if err != nil || cold.Status != Optimal || math.Abs(cold.Objective-want) > 1e-9 {
		t.Fatalf("cycle from scratch: %v %v %v, want %v", err, cold.Status, cold.Objective, want)
	}
	rows := append([]BasisStatus(nil), r1.RowStatus...)
	for len(rows) < cycle.NumRows() {
		rows = append(rows, Basic) // the new rows start not binding
	}
	allBasic := &Basis{Vars: make([]BasisStatus, cycle.NumVars()), Rows: make([]BasisStatus, cycle.NumRows())}
	for _, c := range []struct {
		name  string
		start *Basis
	}{
		{"from the path's basis", &Basis{Vars: r1.VarStatus, Rows: rows}},
		{"every member basic", allBasic},
		{"of the wrong size", &Basis{Vars: r1.VarStatus, Rows: r1.RowStatus}},
	} {
		r, err := cycle.Solve(&Options{Start: c.start})
		if err != nil || r.Status != Optimal || math.Abs(r.Objective-want) > 1e-9 {
			t.Fatalf("%s: %v %v %v, want %v", c.name, err, r.Status, r.Objective, want)
		}
		t.Logf("%s: %d pivots (from scratch %d)", c.name, r.Iterations, cold.Iterations)
		if c.name == "from the path's basis" && 2*r.Iterations > cold.Iterations {
			t.Errorf("%s: %d pivots, from scratch %d: the start saved less than half", c.name, r.Iterations, cold.Iterations)
		}
	}
}

// TestStartSolvedAsStated covers a start for a program solved as stated (not through its
// dual): the same optimum whatever the start.
func TestStartSolvedAsStated(t *testing.T) {
	m, _ := mechanismModel(8, cycleEdges(8), 0.5)
	want := closedForm(8, cycleEdges(8), 0.5)
	r0, err := m.Solve(&Options{NoDualize: true})
	if err != nil || r0.Status != Optimal {
		t.Fatal(err, r0.Status)
	}
	for _, st := range []*Basis{{Vars: r0.VarStatus, Rows: r0.RowStatus}, {Vars: make([]BasisStatus, m.NumVars()), Rows: make([]BasisStatus, m.NumRows())}} {
		r, err := m.Solve(&Options{NoDualize: true, Start: st})
		if err != nil || r.Status != Optimal || math.Abs(r.Objective-want) > 1e-9 {
			t.Fatalf("%v %v %v, want %v", err, r.Status, r.Objective, want)
		}
	}
}
