package exactapi

import (
	"errors"
	"os/exec"
	"strings"
	"testing"

	"github.com/qif-toolkit/qif/bindings"
	"github.com/qif-toolkit/qif/bindings/moreapi"
	"github.com/qif-toolkit/qif/bindings/table"
	"github.com/qif-toolkit/qif/core/graph"
)

// plausible is a small valid value of each kind, so that every function can be called.
func plausible(p *table.Param) any {
	switch p.Kind {
	case table.KindRational:
		return "2"
	case table.KindRatVector:
		return []string{"1/2", "1/2"}
	case table.KindRatMatrix, table.KindRatMetric:
		return [][]string{{"3/4", "1/4"}, {"1/4", "3/4"}}
	case table.KindInteger:
		return 2
	case table.KindEnum:
		return p.Enum[0]
	case table.KindGraph:
		g, _ := graph.Path(2)
		return g
	case table.KindCallback:
		return table.Callback(func(...any) bool { return true })
	case table.KindOptions:
		return true
	}
	return nil
}

func call(t *testing.T, q string, vals ...any) (any, error) {
	t.Helper()
	f := Module.Lookup(q)
	if f == nil {
		t.Fatalf("no function %s", q)
	}
	return f.Invoke(table.Wire(f, vals...))
}

// Every function runs on small inputs of the right kinds, giving a result js.go can encode or an
// error that starts with its name, never an internal error.
func TestEveryFunctionRuns(t *testing.T) {
	graphNotMetric := func(f *table.Func, vals []any) {
		if f.Qualified() == "exact.mechanism.optimal" {
			vals[2] = nil // the graph, not both
		}
	}
	for _, p := range Module.RunAll(plausible, graphNotMetric) {
		t.Error(p)
	}
}

// The table is well formed, and every function that has a floating-point twin (the same name
// without "exact.", or the one Twins names) reads like it: its parameters are the twin's (e^ε as
// expEpsilon where the twin takes ε), or the first of them when the others are optional; the
// keys of its options are some of the twin's, with the same values for an enum.
func TestTableIsWellFormed(t *testing.T) {
	for _, p := range Module.Problems() {
		t.Error(p)
	}
	twins := 0
	name := func(p *table.Param) string { return strings.ReplaceAll(p.Name, "epsilon", "expEpsilon") }
	for _, f := range Module.Functions() {
		q := f.Qualified()
		if !strings.HasPrefix(f.NS, "exact.") && f.NS != "program" || Module.Lookup(q) != f {
			t.Errorf("%s: not in an exact namespace (or qif.program), or Lookup does not find it", q)
		}
		tn, ok := Twins[q]
		if !ok {
			tn = strings.TrimPrefix(q, "exact.")
		}
		twin := bindings.Lookup(tn)
		if twin == nil {
			twin = moreapi.More.Lookup(tn)
		}
		if twin == nil || q == "exact.mechanism.optimal" { // optimal's options differ: e^ε, no solver options
			continue
		}
		twins++
		if len(f.Params) > len(twin.Params) {
			t.Errorf("%s has more parameters than its twin %s", q, tn)
			continue
		}
		for i, tp := range twin.Params {
			if i >= len(f.Params) {
				if !tp.Optional {
					t.Errorf("%s lacks %s, which its twin %s requires", q, tp.Name, tn)
				}
				continue
			}
			p := f.Params[i]
			if p.Name != name(tp) || p.Optional != tp.Optional {
				t.Errorf("%s: parameter %d is %s (optional %v), its twin's %s (optional %v)", q, i+1, p.Name, p.Optional, name(tp), tp.Optional)
			}
			for _, fp := range p.Fields {
				var same *table.Param
				for _, tf := range tp.Fields {
					if name(tf) == fp.Name {
						same = tf
					}
				}
				if same == nil && fp.Name != "onProgress" {
					t.Errorf("%s: option %s is not one of its twin's", q, fp.Name)
				} else if same != nil && strings.Join(fp.Enum, ",") != strings.Join(same.Enum, ",") {
					t.Errorf("%s: option %s takes %v, its twin %v", q, fp.Name, fp.Enum, same.Enum)
				}
			}
		}
	}
	if twins < 25 {
		t.Errorf("only %d functions have a floating-point twin", twins)
	}
}

func TestDecodeErrors(t *testing.T) {
	C := [][]string{{"1/2", "1/2"}, {"1/2", "1/3"}}
	for _, c := range []struct {
		q    string
		vals []any
		want string
	}{
		{"exact.measure.bayesVulnerability", []any{[]string{"1/2", "1/3", "1/12"}}, "exact.measure.bayesVulnerability: prior: sums to 11/12, expected exactly 1"},
		{"exact.measure.bayesVulnerability", []any{[]string{"1/0", "1"}}, `prior: entry 0: "1/0": zero denominator`},
		{"exact.measure.bayesVulnerability", []any{[]string{"1", "abc"}}, `prior: entry 1: "abc": not a number`},
		{"exact.measure.bayesVulnerability", []any{[]string{}}, "prior: empty distribution"},
		{"exact.measure.bayesVulnerability", []any{nil}, "prior: missing argument 1"},
		{"exact.measure.posteriorBayesVulnerability", []any{[]string{"1/2", "1/2"}, C}, "exact.measure.posteriorBayesVulnerability: channel: row 1 sums to 5/6, expected exactly 1"},
		{"exact.measure.posteriorBayesVulnerability", []any{[]string{"1/2", "1/2"}, [][]string{{"1", "0"}, {"Infinity", "0"}}}, `channel: entry [1][0]: "Infinity": not a number`},
		{"exact.measure.posteriorBayesVulnerability", []any{[]string{"1"}, [][]string{}}, "channel: empty matrix (0×0)"},
		{"exact.mechanism.randomizedResponse", []any{2, "1/2"}, "expEpsilon: e^ε must be greater than 1"},
		{"exact.mechanism.randomizedResponse", []any{0, "2"}, "n: expected a positive integer, got 0"},
		{"exact.mechanism.randomizedResponse", []any{2, 2.0}, "expEpsilon: expected a number or a fraction string"},
		{"exact.mechanism.optimal", []any{true, nil, nil, "2"}, "exact.mechanism.optimal: graph, metric: give exactly one"},
		{"exact.mechanism.optimal", []any{true, nil, [][]string{{"0", "1"}, {"2", "0"}}, "2"}, "metric: not symmetric"},
		{"exact.refine.avg", []any{[][]string{{"1"}}, [][]string{{"1", "0"}, {"0", "1"}}}, "exact.refine.avg: B: has 2 rows but A has 1"},
	} {
		_, err := call(t, c.q, c.vals...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s%v: got %v, want an error containing %q", c.q, c.vals, err, c.want)
		}
	}
	// A list whose text does not hold as many entries as announced (not what qif.js sends).
	f := Module.Lookup("exact.measure.bayesVulnerability")
	raw := []table.Raw{{Type: table.RawNumber, Num: 3}, {Type: table.RawString, Str: "1/2,1/2"}}
	if _, err := f.Invoke(raw); err == nil || !strings.Contains(err.Error(), "prior: 2 entries in the text, expected 3") {
		t.Errorf("count mismatch: %v", err)
	}
}

// Values through the table: Table 1 of Alvim et al. (ICALP 2011), six answers all adjacent,
// e^ε = 2, uniform prior: the optimal utility is 2/7 (M2 of the paper: 2/7 on the diagonal).
func TestValues(t *testing.T) {
	k6, _ := graph.Clique(6)
	res, err := call(t, "exact.mechanism.optimal", true, k6, nil, "2")
	if err != nil {
		t.Fatal(err)
	}
	o := res.(table.Obj)
	if o["utility"] != "2/7" || o["certified"] != true {
		t.Errorf("Table 1: %v", o)
	}
	metric := [][]string{{"0", "1", "Infinity"}, {"1", "0", "1"}, {"Infinity", "1", "0"}}
	if res, err = call(t, "exact.mechanism.optimal", true, nil, metric, "2"); err != nil || res.(table.Obj)["utility"] == "" {
		t.Errorf("metric with a missing distance: %v, %v", res, err)
	}
	res, err = call(t, "exact.measure.multiplicativeBayesRiskCapacity", [][]string{{"1", "0"}, {"0", "1"}})
	if err != nil || res != "Infinity" {
		t.Errorf("disjoint rows: %v, %v", res, err)
	}
	res, err = call(t, "exact.channel.hyper", []string{"1/3", "1/3", "1/3"}, [][]string{{"1", "0"}, {"1/2", "1/2"}, {"0", "1"}})
	h, _ := res.(table.Obj)
	if err != nil || h["outer"] != table.Strings("1/2,1/2") || h["inners"].(table.Obj)["data"] != table.Strings("2/3,1/3,0,0,1/3,2/3") {
		t.Errorf("hyper: %v, %v", res, err)
	}
}

func TestCancellation(t *testing.T) {
	k6, _ := graph.Clique(6)
	calls := 0
	stop := table.Callback(func(args ...any) bool { calls++; return args[0] != "exact" })
	_, err := call(t, "exact.mechanism.optimal", true, k6, nil, "2", nil, nil, nil, stop)
	var c *table.Cancelled
	if !errors.As(err, &c) || err.Error() != "exact.mechanism.optimal: cancelled" || calls != 2 {
		t.Errorf("got %v after %d calls, want a *Cancelled at the start of the exact stage", err, calls)
	}
}

// Each module links only what its table needs: the first module (web/qif.wasm, channels and
// measures) no rational arithmetic and nothing of the second module's (linear programming,
// refinement, mechanisms, estimation); the second none of the first module's table and no
// rational arithmetic; the exact module none of the floating-point tables. (core/graph and core/lp
// reach every module through bindings/table, which decodes graphs and LP problems; the linker keeps
// only the decoders a table calls.)
func TestModulesAreSeparate(t *testing.T) {
	deps := func(pkg string) string {
		cmd := exec.Command("go", "list", "-deps", pkg)
		cmd.Env = append(cmd.Environ(), "GOOS=js", "GOARCH=wasm")
		out, err := cmd.Output()
		if err != nil {
			t.Skipf("go list: %v", err)
		}
		return string(out)
	}
	const mod = "github.com/qif-toolkit/qif/"
	for _, c := range []struct {
		entry, file string
		links       []string
		not         []string
	}{
		{"wasm", "web/qif.wasm", []string{"bindings", "core/measure", "core/channel"},
			[]string{"bindings/moreapi", "core/exact", "core/refine", "core/mechanism", "core/estimate", "core/metric", "core/infopriv"}},
		{"wasm/more", "web/qif-more.wasm", []string{"bindings/moreapi", "core/lp", "core/refine"}, []string{"bindings", "core/exact"}},
		{"wasm/exact", "web/qif-exact.wasm", []string{"bindings/exactapi"},
			[]string{"bindings", "bindings/moreapi", "core/measure", "core/channel", "core/mechanism", "core/refine"}},
	} {
		d := deps(mod + c.entry)
		for _, p := range c.links {
			if !strings.Contains(d, mod+p+"\n") {
				t.Errorf("%s does not link %s", c.file, p)
			}
		}
		for _, p := range c.not {
			if strings.Contains(d, mod+p+"\n") {
				t.Errorf("%s links %s", c.file, p)
			}
		}
	}
}
