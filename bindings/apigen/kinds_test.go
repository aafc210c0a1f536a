package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/qif-toolkit/qif/bindings"
	"github.com/qif-toolkit/qif/bindings/table"
)

// Each module decodes every kind its functions take, by the interpreter or by a decoder the
// module registered itself (not one another module happens to register in the same binary);
// the first module registers none.
func TestEachModuleRegistersItsKinds(t *testing.T) {
	for _, m := range modules {
		for _, f := range m.Functions() {
			for _, p := range f.Params {
				for _, q := range append([]*bindings.Param{p}, p.Fields...) {
					if !table.Decodable(m.Name, q.Kind) {
						t.Errorf("module %s: %s: %s is of kind %s, which the module does not register", m.Name, f.Qualified(), q.Name, q.Kind)
					}
				}
			}
		}
	}
	if k := table.Registered(bindings.Main.Name); len(k) != 0 {
		t.Errorf("the first module registers %v", k)
	}
	for _, m := range []string{"more", "exact"} {
		if !table.Decodable(m, table.KindGraph) {
			t.Errorf("module %s does not register the graph", m)
		}
	}
	if table.Decodable("exact", table.KindLPProblem) || table.Decodable("more", table.KindRational) {
		t.Error("a module is said to decode another module's kind")
	}
}

// The first module (wasm/, web/qif.wasm) links neither the LP solver nor the estimators nor
// rational arithmetic: the decoders of their kinds belong to the modules that take them.
func TestFirstModuleLinksNoOtherModulesCode(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	cmd := exec.Command("go", "list", "-deps", "github.com/qif-toolkit/qif/wasm")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list gave %d packages", len(deps))
	}
	for _, d := range deps {
		for _, banned := range []string{"/core/lp", "/core/estimate", "/core/exact", "/core/refine", "/bindings/moreapi", "/bindings/exactapi"} {
			if strings.HasSuffix(d, banned) || strings.Contains(d, banned+"/") {
				t.Errorf("qif.wasm links %s", d)
			}
		}
	}
}
