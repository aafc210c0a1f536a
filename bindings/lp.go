//go:build js && wasm

package bindings

import (
	"fmt"
	"math"
	"time"
	"unsafe"

	"syscall/js"

	"github.com/qif-toolkit/qif/core/lp"
)

// qif.lp.solve(problem, options?) solves a linear program.
//
//	problem = {
//	  sense: 'max' | 'min',                 // default 'min'
//	  objective: number[],                  // c, one entry per variable
//	  rows: [{coeffs, op, rhs}],            // coeffs: sparse [[j, a], ...] or dense number[]
//	                                        // op: '<=' | '=' | '>='
//	  lower?: number[], upper?: number[],   // bounds, default 0 and Infinity; ±Infinity or null: no bound
//	}
//	options = {
//	  onProgress?: ({iteration, objective, infeasibility, phase}) => (false to cancel | anything),
//	  progressEvery?: number,               // iterations between calls (default 200)
//	  maxIterations?: number, timeLimit?: number (milliseconds),
//	}
//	→ {status: 'optimal' | 'infeasible' | 'unbounded' | 'iteration limit' | 'time limit' | 'cancelled' | 'imprecise',
//	   x: Float64Array, duals: Float64Array, reducedCosts: Float64Array,
//	   objective (NaN unless optimal), iterations, primalResidual, dualResidual,
//	   farkas?: Float64Array (infeasible), ray?: Float64Array (unbounded)}
//
// duals[i] is ∂objective/∂rhs[i] (see lp.Result). Bad input (NaN, wrong lengths, unknown op,
// index out of range, too large) throws an Error naming the field.
func init() {
	Register("lp", "solve", lpSolve)
}

// The problem object is checked and flattened into typed arrays by the loader's flattenLP
// helper (web/qif.js), so that Go reads it with a few bulk copies instead of one boundary
// crossing per coefficient, and so that no JS is compiled at run time (the page's
// Content-Security-Policy forbids eval and new Function).

func floats(v js.Value) []float64 {
	n := v.Get("length").Int()
	out := make([]float64, n)
	if n > 0 {
		u8 := js.Global().Get("Uint8Array").New(v.Get("buffer"), v.Get("byteOffset"), v.Get("byteLength"))
		js.CopyBytesToGo(unsafe.Slice((*byte)(unsafe.Pointer(&out[0])), 8*n), u8)
	}
	return out
}

func ints(f []float64) []int {
	out := make([]int, len(f))
	for k, x := range f {
		out[k] = int(x)
	}
	return out
}

func lpSolve(a *Args) (any, error) {
	if !a.Has(0) {
		return nil, fmt.Errorf("problem: missing argument 1 (lp.solve)")
	}
	f := helpers.Call("flattenLP", a.Value(0), lp.MaxNonzeros)
	if e := f.Get("error"); !e.IsUndefined() {
		return nil, fmt.Errorf("lp.solve: %s", e.String())
	}
	n, m := f.Get("n").Int(), f.Get("m").Int()
	if n > lp.MaxVariables || m > lp.MaxConstraints {
		return nil, fmt.Errorf("lp.solve: %d variables and %d rows exceed the limits (%d, %d)", n, m, lp.MaxVariables, lp.MaxConstraints)
	}
	A, err := lp.NewCSC(m, n, ints(floats(f.Get("ri"))), ints(floats(f.Get("ci"))), floats(f.Get("v")))
	if err != nil {
		return nil, err
	}
	p := &lp.Problem{Sense: lp.Minimize, Objective: floats(f.Get("c")), A: A, RHS: floats(f.Get("rhs")), Ops: make([]lp.Op, m)}
	if f.Get("max").Bool() {
		p.Sense = lp.Maximize
	}
	for i, o := range floats(f.Get("ops")) {
		p.Ops[i] = lp.Op(o)
	}
	if l := f.Get("lower"); !l.IsNull() {
		p.Lower = floats(l)
	}
	if u := f.Get("upper"); !u.IsNull() {
		p.Upper = floats(u)
	}

	o, err := a.Options(1, "options")
	if err != nil {
		return nil, err
	}
	opt := &lp.Options{}
	if opt.MaxIterations, err = o.Int("maxIterations", 0); err != nil {
		return nil, err
	}
	if opt.ProgressEvery, err = o.Int("progressEvery", 0); err != nil {
		return nil, err
	}
	ms, err := o.Float("timeLimit", 0)
	if err != nil {
		return nil, err
	}
	if math.IsNaN(ms) || ms < 0 {
		return nil, fmt.Errorf("timeLimit: expected a non-negative number of milliseconds, got %v", ms)
	}
	opt.TimeLimit = time.Duration(ms * float64(time.Millisecond))
	if cb := o.Func("onProgress"); !cb.IsUndefined() {
		opt.Progress = func(pr lp.Progress) bool {
			arg := js.Global().Get("Object").New()
			arg.Set("iteration", pr.Iteration)
			arg.Set("objective", pr.Objective)
			arg.Set("infeasibility", pr.Infeasibility)
			arg.Set("phase", pr.Phase)
			r := cb.Invoke(arg)
			return !(r.Type() == js.TypeBoolean && !r.Bool())
		}
	}
	res, err := lp.Solve(p, opt)
	if err != nil {
		return nil, err
	}
	obj := res.Objective
	if res.Status != lp.Optimal {
		obj = math.NaN()
	}
	out := map[string]any{
		"status":         res.Status.String(),
		"x":              Vec(res.X),
		"duals":          Vec(res.Duals),
		"reducedCosts":   Vec(res.ReducedCosts),
		"objective":      obj,
		"iterations":     res.Iterations,
		"primalResidual": res.PrimalResidual,
		"dualResidual":   res.DualResidual,
	}
	if res.Farkas != nil {
		out["farkas"] = Vec(res.Farkas)
	}
	if res.Ray != nil {
		out["ray"] = Vec(res.Ray)
	}
	return out, nil
}
