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
//	→ {status: 'optimal' | 'infeasible' | 'unbounded' | 'iteration limit' | 'time limit' | 'cancelled',
//	   x: Float64Array, duals: Float64Array, reducedCosts: Float64Array,
//	   objective (NaN unless optimal), iterations, primalResidual, dualResidual,
//	   farkas?: Float64Array (infeasible), ray?: Float64Array (unbounded)}
//
// duals[i] is ∂objective/∂rhs[i] (see lp.Result). Bad input (NaN, wrong lengths, unknown op,
// index out of range, too large) throws an Error naming the field.
func init() {
	Register("lp", "solve", lpSolve)
}

// lpFlatten is a JS function that checks a problem object and flattens it into typed arrays, so
// that Go copies it with a few bulk copies instead of one call per coefficient.
var lpFlatten js.Value

const lpFlattenSource = `
const fail = (msg) => ({ error: msg });
if (p === null || typeof p !== 'object') return fail('problem: expected an object {sense, objective, rows}');
const sense = p.sense === undefined ? 'min' : p.sense;
if (sense !== 'min' && sense !== 'max') return fail("sense: expected 'min' or 'max', got " + String(sense));
const obj = p.objective;
if (obj === undefined || obj === null || typeof obj.length !== 'number') return fail('objective: expected an array of numbers');
const n = obj.length;
if (n === 0) return fail('objective: empty problem (no variables)');
const c = new Float64Array(n);
for (let j = 0; j < n; j++) {
  const v = obj[j];
  if (typeof v !== 'number') return fail('objective: entry ' + j + ' is not a number');
  c[j] = v;
}
const rows = p.rows === undefined || p.rows === null ? [] : p.rows;
if (!Array.isArray(rows)) return fail('rows: expected an array of {coeffs, op, rhs}');
const m = rows.length;
let count = 0;
for (let i = 0; i < m; i++) {
  const r = rows[i];
  if (r === null || typeof r !== 'object') return fail('rows[' + i + ']: expected {coeffs, op, rhs}');
  const co = r.coeffs;
  if (co === undefined || co === null || typeof co.length !== 'number') return fail('rows[' + i + '].coeffs: expected an array');
  if (co.length > 0 && Array.isArray(co[0])) count += co.length;
  else {
    if (co.length !== n) return fail('rows[' + i + '].coeffs: a dense row needs ' + n + ' entries, got ' + co.length);
    count += n;
  }
  if (count > maxNonzeros) return fail('rows: more than ' + maxNonzeros + ' coefficients');
}
const ops = new Float64Array(m), rhs = new Float64Array(m);
const ri = new Float64Array(count), ci = new Float64Array(count), v = new Float64Array(count);
let k = 0;
for (let i = 0; i < m; i++) {
  const r = rows[i];
  const op = r.op;
  if (op === '<=') ops[i] = 0; else if (op === '=' || op === '==') ops[i] = 1; else if (op === '>=') ops[i] = 2;
  else return fail('rows[' + i + '].op: expected "<=", "=" or ">=", got ' + String(op));
  if (typeof r.rhs !== 'number') return fail('rows[' + i + '].rhs: expected a number');
  rhs[i] = r.rhs;
  const co = r.coeffs;
  if (co.length > 0 && Array.isArray(co[0])) {
    for (let t = 0; t < co.length; t++) {
      const e = co[t];
      if (!Array.isArray(e) || e.length !== 2) return fail('rows[' + i + '].coeffs[' + t + ']: expected [variable, coefficient]');
      const j = e[0], a = e[1];
      if (!Number.isInteger(j) || j < 0 || j >= n) return fail('rows[' + i + '].coeffs[' + t + ']: variable ' + String(j) + ' out of range [0,' + n + ')');
      if (typeof a !== 'number') return fail('rows[' + i + '].coeffs[' + t + ']: coefficient is not a number');
      ri[k] = i; ci[k] = j; v[k] = a; k++;
    }
  } else {
    for (let j = 0; j < n; j++) {
      const a = co[j];
      if (typeof a !== 'number') return fail('rows[' + i + '].coeffs[' + j + '] is not a number');
      if (a !== 0) { ri[k] = i; ci[k] = j; v[k] = a; k++; }
    }
  }
}
const bound = (name, def) => {
  const b = p[name];
  if (b === undefined || b === null) return null;
  if (typeof b.length !== 'number' || b.length !== n) return name + ': expected an array of ' + n + ' numbers';
  const out = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    const x = b[j];
    if (x === null) out[j] = def;
    else if (typeof x !== 'number') return name + ': entry ' + j + ' is not a number';
    else out[j] = x;
  }
  return out;
};
const lower = bound('lower', -Infinity), upper = bound('upper', Infinity);
if (typeof lower === 'string') return fail(lower);
if (typeof upper === 'string') return fail(upper);
return { n, m, max: sense === 'max', c, ops, rhs, ri: ri.subarray(0, k), ci: ci.subarray(0, k), v: v.subarray(0, k), lower, upper };
`

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
	if lpFlatten.IsUndefined() {
		lpFlatten = js.Global().Get("Function").New("p", "const maxNonzeros = "+fmt.Sprint(lp.MaxNonzeros)+";"+lpFlattenSource)
	}
	f := lpFlatten.Invoke(a.Value(0))
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
