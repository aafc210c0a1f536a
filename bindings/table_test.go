package bindings

import (
	"errors"
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/qif-toolkit/qif/bindings/moreapi"
	"github.com/qif-toolkit/qif/bindings/table"
	"github.com/qif-toolkit/qif/core/argerr"
	"github.com/qif-toolkit/qif/core/graph"
	"gonum.org/v1/gonum/mat"
)

// plausible is a small valid value of each kind, so that every function can be called.
func plausible(p *Param) any {
	switch p.Kind {
	case KindNumber:
		return 0.5
	case KindInteger:
		return 2
	case KindBoolean:
		return false
	case KindString: // a program (the only strings the table reads)
		return "secret x in 0..1\nobserve x"
	case KindEnum:
		return p.Enum[0]
	case KindVector:
		return []float64{0.5, 0.5}
	case KindIndices:
		return []float64{1, 1}
	case KindMatrix:
		return mat.NewDense(2, 2, []float64{0.75, 0.25, 0.25, 0.75})
	case KindGraph:
		g, _ := graph.Path(2)
		return g
	case KindCallback:
		return Callback(func(...any) bool { return true })
	case KindOptions:
		return true
	case table.KindLabels, table.KindSamples:
		return table.Labels{Numbers: []float64{0, 1, 0, 1, 1, 0, 0, 1, 1, 1, 0, 0}}
	case table.KindEnumOrInteger, table.KindEnumIntegerOrVector:
		return p.Enum[0]
	case table.KindEvents:
		return `[{"mechanism": "gaussian", "sigma": 2, "count": 3}, {"mechanism": "pure", "epsilon": 0.1}]`
	case KindLPProblem: // max x0 + x1 with x0 + x1 ≤ 1
		return [2][]float64{{2, 1, 1, 2, 0, 0}, {1, 1, 0, 1, 0, 0, 0, 1, 1, 1}}
	}
	return nil
}

// Every function runs natively on small inputs of the right kinds (every option given): it
// returns a result that js.go can encode or an error that starts with its name, never an
// internal error (a panic, or a name Call reads that the table does not declare).
func TestEveryFunctionRuns(t *testing.T) {
	for _, m := range floatModules {
		for _, p := range m.RunAll(plausible, nil) {
			t.Error(p)
		}
	}
}

// floatModules are the two modules of the floating-point API: web/qif.wasm (this package) and
// web/qif-more.wasm (package moreapi).
var floatModules = []*table.Module{Main, moreapi.More}

// allFunctions lists the functions of both.
func allFunctions() []*Func {
	return append(append([]*Func{}, Main.Functions()...), moreapi.More.Functions()...)
}

// lookup finds a function in either module.
func lookup(q string) *Func {
	if f := Lookup(q); f != nil {
		return f
	}
	return moreapi.More.Lookup(q)
}

func TestTableIsWellFormed(t *testing.T) {
	if len(allFunctions()) < 100 {
		t.Fatalf("only %d functions", len(allFunctions()))
	}
	for _, m := range floatModules {
		for _, p := range m.Problems() {
			t.Error(p)
		}
	}
	sourceRE := regexp.MustCompile(`^((Alvim|Chatzikokolakis|Bordenabe|Cherubin|Chothia) et al\. \((ICALP|FOSAD|CSF|CCS|S&P|CAV) \d{4}\)|Wu \(2019\)|Vadhan \(2013\)|(Kairouz|Zhu) et al\. \((ICML|AISTATS) \d{4}\)|Balle and Wang \(ICML 2018\))( [§A-Z].*)?$` +
		`|^Mathematics §\d+(\.\d+)*( \(libqif\))?$`) // the toolkit's statement of libqif's definitions
	for _, f := range allFunctions() {
		for _, src := range strings.Split(f.Source, "; ") {
			if src != "" && !sourceRE.MatchString(src) {
				t.Errorf("%s: source %q is not cited as an author and venue", f.Qualified(), src)
			}
		}
		if lookup(f.Qualified()) != f {
			t.Errorf("lookup(%q) does not find it", f.Qualified())
		}
	}
}

func TestDecodeConventions(t *testing.T) {
	cap := lookup("measure.shannonCapacity")
	C := mat.NewDense(2, 2, []float64{1, 0, 0, 1})
	call := func(f *Func, vals ...any) error { _, err := f.Invoke(table.Wire(f, vals...)); return err }
	cases := []struct {
		err  error
		want string
	}{
		{call(cap), "measure.shannonCapacity: channel: missing argument 1"},
		{call(cap, C, true, 0.0), "measure.shannonCapacity: tolerance: expected a positive finite number, got 0"},
		{call(cap, C, true, -1.0), "tolerance: expected a positive finite number, got -1"},
		{call(cap, C, true, math.NaN()), "tolerance: expected a positive finite number, got NaN"},
		{call(cap, C, true, nil, 2.5), "maxIterations: expected a positive integer, got 2.5"},
		{call(cap, C, true, nil, 0), "maxIterations: expected a positive integer, got 0"},
		{call(lookup("refine.familyEpsilon"), true, "truncatedGeometric", "nope"), "family2: expected one of 'truncatedGeometric'"},
		{call(lookup("mechanism.optimalLP"), true, nil, C), "mechanism.optimalLP: epsilon: missing (a required key of options)"},
		{call(lookup("mechanism.optimalLP"), true, nil, C, 1.0, nil, nil, nil, nil, nil, nil, 0.0), "timeLimit: expected a positive number (Infinity: no limit), got 0"},
		{call(lookup("graph.induced"), nil), "graph.induced: graph: missing argument 1"},
	}
	for _, c := range cases {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("got %v, want an error containing %q", c.err, c.want)
		}
	}
	// Defaults reach Call: tolerance 1e-6 gives a gap of at most 1e-6 bits.
	res, err := cap.Invoke(table.Wire(cap, mat.NewDense(2, 2, []float64{0.9, 0.1, 0.2, 0.8})))
	if err != nil || res.(Obj)["gap"].(float64) > 1e-6 || res.(Obj)["gap"].(float64) < 0 {
		t.Errorf("default tolerance: %v, %v", res, err)
	}
}

func TestCancellation(t *testing.T) {
	cap := lookup("measure.shannonCapacity")
	calls := 0
	stop := Callback(func(args ...any) bool { calls++; return calls < 3 })
	C := mat.NewDense(2, 2, []float64{0.6, 0.4, 0.35, 0.65})
	_, err := cap.Invoke(table.Wire(cap, C, true, 1e-15, nil, stop))
	var c *table.Cancelled
	if !errors.As(err, &c) || err.Error() != "measure.shannonCapacity: cancelled" || calls != 3 {
		t.Fatalf("got %v after %d calls, want a *Cancelled after 3", err, calls)
	}
	if p, ok := c.Partial.(Obj); !ok || p["iterations"] != 3 || p["converged"] != false {
		t.Errorf("partial result %v", c.Partial)
	}
	// A cancelled LP reports its partial result too.
	solve := lookup("lp.solve")
	_, err = solve.Invoke(table.Wire(solve, plausible(solve.Params[0]), true, Callback(func(...any) bool { return false }), 1))
	if !errors.As(err, &c) || c.Partial.(Obj)["status"] != "cancelled" {
		t.Errorf("lp.solve: %v", err)
	}
}

// A fault in one argument reaches the caller as an *argerr.Error through the interpreter's
// wrapping: row 1 of this channel sums to 0.5 (written so by hand), its entry [0][1] is negative.
func TestArgumentErrorsKeepTheirData(t *testing.T) {
	validate := lookup("channel.validate")
	for _, tc := range []struct {
		C     *mat.Dense
		index []int
	}{
		{mat.NewDense(2, 2, []float64{1, 0, 0.25, 0.25}), []int{1}},
		{mat.NewDense(2, 2, []float64{1.5, -0.5, 0, 1}), []int{0, 1}},
	} {
		_, err := validate.Invoke(table.Wire(validate, tc.C))
		var e *argerr.Error
		if !errors.As(err, &e) || e.Arg != "channel" || !slices.Equal(e.Index, tc.index) {
			t.Errorf("%v: got %+v, want argument channel at %v", err, e, tc.index)
		}
		if !strings.HasPrefix(err.Error(), "channel.validate: channel: ") {
			t.Errorf("message %q", err)
		}
	}
}
