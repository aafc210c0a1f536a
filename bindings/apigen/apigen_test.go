package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/qif-toolkit/qif/bindings"
	"github.com/qif-toolkit/qif/bindings/exactapi"
)

// The checked-in generated files are exactly what the table produces: change the table, then
// run go generate ./bindings.
func TestGeneratedFilesAreCurrent(t *testing.T) {
	for path, want := range Generate() {
		got, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(path)))
		if err != nil {
			t.Errorf("%s: %v (run go generate ./bindings)", path, err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from what the table in bindings/ produces: run go generate ./bindings", path)
		}
	}
}

// Every generated file is valid UTF-8, and the symbols that open doc strings ("ε ≥ 0", "δ, a
// probability") survive the capitalization of sentences whole.
func TestGeneratedFilesAreUTF8(t *testing.T) {
	for path, text := range Generate() {
		if !utf8.Valid(text) || bytes.ContainsRune(text, utf8.RuneError) {
			t.Errorf("%s is not valid UTF-8 (or holds U+FFFD)", path)
		}
	}
	dts := string(Generate()["web/qif.d.ts"])
	for _, want := range []string{"@param epsilon ε ≥ 0", "@param delta δ, a probability"} {
		if !strings.Contains(dts, want) {
			t.Errorf("qif.d.ts lacks %q", want)
		}
	}
}

// The generated files name every function of both modules, and the wrappers carry its parameters.
func TestGeneratedFilesCoverTheTable(t *testing.T) {
	files := Generate()
	for id, f := range functions() {
		for path, needle := range map[string]string{
			"web/qif.d.ts":   "  " + f.Name + "(",
			"docs/api.md":    "### " + f.Qualified() + " {#" + f.Qualified() + "}\n",
			"web/api.gen.js": `"ns":"` + f.NS + `","name":"` + f.Name + `"`,
			"web/qif.gen.js": "function " + f.Name + "(",
		} {
			if !bytes.Contains(files[path], []byte(needle)) {
				t.Errorf("%s: %s is missing", path, f.Qualified())
			}
		}
		if !strings.Contains(string(files["web/qif.gen.js"]), "return call("+strconv.Itoa(id)+", arguments)") {
			t.Errorf("qif.gen.js: no wrapper with id %d", id)
		}
	}
}

// Every source the reference links to is an anchor of docs/references.md.
func TestSourcesLinkToReferences(t *testing.T) {
	refs, err := os.ReadFile(filepath.Join("..", "..", "docs", "references.md"))
	if err != nil {
		t.Fatal(err)
	}
	anchors := map[string]bool{}
	for _, m := range regexp.MustCompile(`\{#([^}\s]+)\}`).FindAllStringSubmatch(string(refs), -1) {
		anchors[m[1]] = true
	}
	links := regexp.MustCompile(`\]\(references\.md#([^)]+)\)`).FindAllStringSubmatch(string(Generate()["docs/api.md"]), -1)
	if len(links) < 80 {
		t.Fatalf("only %d sources linked", len(links))
	}
	for _, m := range links {
		if !anchors[m[1]] {
			t.Errorf("docs/api.md links to references.md#%s, which docs/references.md does not define", m[1])
		}
	}
}

// The exact module's functions are marked as such in the table data, read their formula from
// their floating-point twin, and are typed under qif.exact.
func TestExactModule(t *testing.T) {
	files := Generate()
	data, dts, md := string(files["web/api.gen.js"]), string(files["web/qif.d.ts"]), string(files["docs/api.md"])
	if !strings.Contains(data, `{"ns":"exact.measure","name":"bayesVulnerability","module":"exact",`) ||
		!strings.Contains(data, `{"ns":"measure","name":"bayesVulnerability","signature"`) {
		t.Error("api.gen.js: the module of a function is not stated as expected")
	}
	if !strings.Contains(data, `"exactMaxEntries":1000000`) {
		t.Error("api.gen.js: the exact limits are missing")
	}
	if !strings.Contains(dts, "  readonly exact: ExactAPI;\n") || !strings.Contains(dts, "  readonly measure: Readonly<ExactMeasureAPI>;\n") ||
		!strings.Contains(dts, "  bayesVulnerability(prior: RationalVector): string;\n") {
		t.Error("qif.d.ts: qif.exact is not typed as expected")
	}
	f := exactapi.Module.Lookup("exact.measure.bayesVulnerability")
	tex, source := formula(f)
	twin := bindings.Lookup("measure.bayesVulnerability")
	if tex != twin.TeX || source != twin.Source || tex == "" {
		t.Errorf("formula of the exact twin: %q, %q", tex, source)
	}
	if tex, _ := formula(exactapi.Module.Lookup("exact.mechanism.optimal")); tex != lookup("mechanism.optimalLP").TeX {
		t.Errorf("exact.mechanism.optimal takes its formula from %q", tex)
	}
	if !strings.Contains(md, "Floating-point twin: [`measure.bayesVulnerability`](#measure.bayesVulnerability).") {
		t.Error("docs/api.md: no link to the floating-point twin")
	}
}

// Every source of the tables (an exact function's is its twin's) becomes a link in the reference: a
// paper of docs/references.md or a section of docs/mathematics.md that the generator knows (the
// docs test checks the anchors).
func TestEverySourceIsLinked(t *testing.T) {
	for _, f := range functions() {
		_, source := formula(f)
		if source == "" {
			continue
		}
		for _, src := range strings.Split(source, "; ") {
			if !strings.HasPrefix(citation(src), "[") {
				t.Errorf("%s: source %q links nowhere", f.Qualified(), src)
			}
		}
	}
}

// Every function is in functions() once, with the module that serves it, and each module's
// namespaces keep the order of namespaces(): the functions of one module, in the order of
// functions(), are then in the order of that module's wire ids, which the loader relies on.
func TestModuleOrder(t *testing.T) {
	fs := functions()
	seen := map[*bindings.Func]bool{}
	for _, f := range fs {
		if seen[f] || moduleOf(f) == "" {
			t.Errorf("%s: listed twice or served by no module", f.Qualified())
		}
		seen[f] = true
	}
	for _, m := range modules {
		var mine []*bindings.Func
		for _, f := range fs {
			if moduleOf(f) == m.Name {
				mine = append(mine, f)
			}
		}
		if len(mine) != len(m.Functions()) {
			t.Fatalf("module %s: %d functions in the generated list, %d in its table", m.Name, len(mine), len(m.Functions()))
		}
		for i, f := range m.Functions() {
			if mine[i] != f {
				t.Errorf("module %s: wire id %d is %s in its table but %s in the generated list", m.Name, i, f.Qualified(), mine[i].Qualified())
			}
		}
	}
	if moduleOf(lookup("channel.factorize")) != "more" || moduleOf(lookup("channel.hyper")) != "main" {
		t.Error("the channel namespace is not shared as expected between the first and the second module")
	}
}
