package lp

import (
	"fmt"
	"math"
)

// Model builds a linear program readably: variables come in named blocks (for example the
// entries H[y][z] of a mechanism), constraints are added row by row over sparse terms, and the
// objective is a sum of terms. Mechanism and refinement code state their programs through a
// Model and never see the solver's internal form.
//
// Errors are sticky: a bad call (an unknown variable, a NaN coefficient) is remembered, later
// calls are ignored, and Err, Problem and Solve return the first error.
//
//	m := lp.NewModel(lp.Maximize)
//	H := m.AddBlock("H", n, n)           // H[y][z] ≥ 0
//	for y := 0; y < n; y++ {
//		row := make([]lp.Term, n)
//		for z := range row {
//			row[z] = lp.Term{Var: H.At(y, z), Coef: 1}
//		}
//		m.AddEq(row, 1)                  // Σ_z H[y][z] = 1
//	}
type Model struct {
	sense   Sense
	obj     []float64
	lower   []float64
	upper   []float64
	names   []string // one per block
	blockOf []int    // variable → block
	rows    []int
	cols    []int
	vals    []float64
	ops     []Op
	rhs     []float64
	err     error
}

// Term is one coefficient of a linear expression: Coef·x[Var].
type Term struct {
	Var  int
	Coef float64
}

// Block is a named rectangular block of variables, such as the entries H[y][z] of a channel.
type Block struct {
	Name       string
	Rows, Cols int
	first      int
}

// NewModel starts an empty model with the given objective sense.
func NewModel(sense Sense) *Model { return &Model{sense: sense} }

// Err returns the first error recorded by the model, if any.
func (m *Model) Err() error { return m.err }

func (m *Model) fail(format string, args ...any) {
	if m.err == nil {
		m.err = fmt.Errorf("lp: model: "+format, args...)
	}
}

// NumVars is the number of variables added so far.
func (m *Model) NumVars() int { return len(m.obj) }

// NumRows is the number of constraints added so far.
func (m *Model) NumRows() int { return len(m.rhs) }

// AddBlock adds rows×cols variables with bounds [0, +Inf) and objective 0, named name[i][j].
func (m *Model) AddBlock(name string, rows, cols int) *Block {
	b := &Block{Name: name, Rows: rows, Cols: cols, first: len(m.obj)}
	if rows < 0 || cols < 0 || float64(rows)*float64(cols)+float64(len(m.obj)) > MaxVariables {
		m.fail("block %q of %d×%d variables is empty or too large (limit %d variables)", name, rows, cols, MaxVariables)
		b.Rows, b.Cols = 0, 0
		return b
	}
	m.names = append(m.names, name)
	for k := 0; k < rows*cols; k++ {
		m.obj = append(m.obj, 0)
		m.lower = append(m.lower, 0)
		m.upper = append(m.upper, math.Inf(1))
		m.blockOf = append(m.blockOf, len(m.names)-1)
	}
	return b
}

// AddVar adds one variable with bounds [lower, upper] and returns its index.
func (m *Model) AddVar(name string, lower, upper float64) int {
	b := m.AddBlock(name, 1, 1)
	if b.Rows == 0 {
		return -1
	}
	m.SetBounds(b.first, lower, upper)
	return b.first
}

// At returns the index of variable [i][j] of the block, or −1 when (i, j) is out of range (the
// model then fails when the index is used).
func (b *Block) At(i, j int) int {
	if i < 0 || i >= b.Rows || j < 0 || j >= b.Cols {
		return -1
	}
	return b.first + i*b.Cols + j
}

// Values extracts the block's values from a solution vector as a row-major rows×cols slice of rows.
func (b *Block) Values(x []float64) [][]float64 {
	out := make([][]float64, b.Rows)
	for i := range out {
		out[i] = make([]float64, b.Cols)
		if b.first+(i+1)*b.Cols <= len(x) {
			copy(out[i], x[b.first+i*b.Cols:b.first+(i+1)*b.Cols])
		}
	}
	return out
}

func (m *Model) checkVar(j int, what string) bool {
	if m.err != nil {
		return false
	}
	if j < 0 || j >= len(m.obj) {
		m.fail("%s: variable %d out of range [0,%d)", what, j, len(m.obj))
		return false
	}
	return true
}

// SetBounds sets lower ≤ x[j] ≤ upper (either may be infinite).
func (m *Model) SetBounds(j int, lower, upper float64) {
	if !m.checkVar(j, "SetBounds") {
		return
	}
	if math.IsNaN(lower) || math.IsNaN(upper) || lower > upper || math.IsInf(lower, 1) || math.IsInf(upper, -1) {
		m.fail("SetBounds: variable %d: bounds [%v, %v]", j, lower, upper)
		return
	}
	m.lower[j], m.upper[j] = lower, upper
}

// SetObjective sets the objective coefficient of x[j].
func (m *Model) SetObjective(j int, c float64) {
	if !m.checkVar(j, "SetObjective") {
		return
	}
	if math.IsNaN(c) || math.IsInf(c, 0) {
		m.fail("SetObjective: variable %d: coefficient %v", j, c)
		return
	}
	m.obj[j] = c
}

// AddObjective adds c to the objective coefficient of x[j].
func (m *Model) AddObjective(j int, c float64) {
	if !m.checkVar(j, "AddObjective") {
		return
	}
	m.SetObjective(j, m.obj[j]+c)
}

// AddLe adds the row Σ terms ≤ rhs and returns its index.
func (m *Model) AddLe(terms []Term, rhs float64) int { return m.AddRow(terms, LessEq, rhs) }

// AddEq adds the row Σ terms = rhs and returns its index.
func (m *Model) AddEq(terms []Term, rhs float64) int { return m.AddRow(terms, Equal, rhs) }

// AddGe adds the row Σ terms ≥ rhs and returns its index.
func (m *Model) AddGe(terms []Term, rhs float64) int { return m.AddRow(terms, GreaterEq, rhs) }

// AddRow adds the row Σ terms (op) rhs and returns its index (−1 after an error). Terms on the
// same variable are summed.
func (m *Model) AddRow(terms []Term, op Op, rhs float64) int {
	if m.err != nil {
		return -1
	}
	i := len(m.rhs)
	if i >= MaxConstraints {
		m.fail("more than %d constraints", MaxConstraints)
		return -1
	}
	if op != LessEq && op != Equal && op != GreaterEq {
		m.fail("row %d: unknown relation %d", i, op)
		return -1
	}
	if math.IsNaN(rhs) || math.IsInf(rhs, 0) {
		m.fail("row %d: right-hand side %v", i, rhs)
		return -1
	}
	for k, t := range terms {
		if t.Var < 0 || t.Var >= len(m.obj) {
			m.fail("row %d: term %d: variable %d out of range [0,%d)", i, k, t.Var, len(m.obj))
			return -1
		}
		if math.IsNaN(t.Coef) || math.IsInf(t.Coef, 0) {
			m.fail("row %d: term %d: coefficient %v", i, k, t.Coef)
			return -1
		}
	}
	if len(m.vals)+len(terms) > MaxNonzeros {
		m.fail("more than %d coefficients", MaxNonzeros)
		return -1
	}
	for _, t := range terms {
		m.rows = append(m.rows, i)
		m.cols = append(m.cols, t.Var)
		m.vals = append(m.vals, t.Coef)
	}
	m.ops = append(m.ops, op)
	m.rhs = append(m.rhs, rhs)
	return i
}

// Problem returns the model as a Problem.
func (m *Model) Problem() (*Problem, error) {
	if m.err != nil {
		return nil, m.err
	}
	a, err := NewCSC(len(m.rhs), len(m.obj), m.rows, m.cols, m.vals)
	if err != nil {
		return nil, err
	}
	return &Problem{
		Sense:     m.sense,
		Objective: append([]float64(nil), m.obj...),
		A:         a,
		Ops:       append([]Op(nil), m.ops...),
		RHS:       append([]float64(nil), m.rhs...),
		Lower:     append([]float64(nil), m.lower...),
		Upper:     append([]float64(nil), m.upper...),
	}, nil
}

// Solve builds the problem and solves it.
func (m *Model) Solve(opt *Options) (*Result, error) {
	p, err := m.Problem()
	if err != nil {
		return nil, err
	}
	return Solve(p, opt)
}
