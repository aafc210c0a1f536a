package main

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/qif-toolkit/qif/bindings"
	"github.com/qif-toolkit/qif/bindings/exactapi"
)

// cell escapes text for a Markdown table cell.
func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}

// kindText is a parameter's type in words for the reference.
func kindText(f *bindings.Func, p *bindings.Param) string {
	s := "`" + tsParam(f, p) + "`"
	switch p.Kind {
	case bindings.KindInteger:
		s = "integer"
	case bindings.KindIndices:
		s = "non-negative integers"
	case bindings.KindOptions:
		s = "object"
	case bindings.KindCallback:
		s = "function (" + strings.Join(p.CallArgs, ", ") + ")"
		if p.ArgsObject {
			s = "function ({" + strings.Join(p.CallArgs, ", ") + "})"
		}
	}
	if p.Check != bindings.CheckNone {
		s = p.Check.Describe(p.Kind)
	}
	return s
}

func reference(fs []*bindings.Func) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "<!-- %s -->\n\n# API reference {#api}\n\n", banner)
	b.WriteString(mdIntro)
	for _, ns := range namespaces() {
		fmt.Fprintf(&b, "- [`qif.%s`](#%s):", ns, ns)
		for _, f := range fs {
			if f.NS == ns {
				fmt.Fprintf(&b, " [%s](#%s)", f.Name, f.Qualified())
			}
		}
		b.WriteString("\n")
	}
	for _, ns := range namespaces() {
		if ns == exactapi.Namespaces[0] {
			b.WriteString("\n## qif.exact {#exact}\n")
			b.WriteString(mdExact)
		}
		fmt.Fprintf(&b, "\n## qif.%s {#%s}\n", ns, ns)
		for _, f := range fs {
			if f.NS == ns {
				function(&b, f)
			}
		}
		b.WriteString(mdJSOnly[ns])
	}
	return b.Bytes()
}

func function(b *bytes.Buffer, f *bindings.Func) {
	fmt.Fprintf(b, "\n### %s {#%s}\n\n`%s` → `%s`\n\n%s\n", f.Qualified(), f.Qualified(), f.Signature(), tsType(f.Result), f.Doc)
	tex, source := formula(f)
	if tex != "" {
		fmt.Fprintf(b, "\n$$\n%s\n$$\n", tex)
	}
	if m := splitModule(f); m != "" {
		fmt.Fprintf(b, "\nServed by `%s`%s.\n", moduleFiles[m], loadNote(m))
	}
	if t := twin(f); t != nil {
		fmt.Fprintf(b, "\nFloating-point twin: [`%s`](#%s).\n", t.Qualified(), t.Qualified())
	}
	if source != "" {
		cites := strings.Split(source, "; ")
		for i, c := range cites {
			cites[i] = citation(c)
		}
		fmt.Fprintf(b, "\nSource: %s.\n", strings.Join(cites, "; "))
	}
	if len(f.Params) > 0 {
		b.WriteString("\n| parameter | type | default | meaning |\n|---|---|---|---|\n")
		for _, p := range f.Params {
			row(b, f, p.Name+opt(p.Optional), p)
			for _, q := range p.Fields {
				name := p.Name + "." + q.Name
				if q.Required {
					name += " (required)"
				}
				row(b, f, name, q)
			}
		}
	}
	if len(f.Result.Fields) > 0 {
		b.WriteString("\n| result field | type | meaning |\n|---|---|---|\n")
		for _, r := range f.Result.Fields {
			fmt.Fprintf(b, "| `%s%s` | `%s` | %s |\n", r.Name, opt(r.Optional || r.When != ""), cell(tsType(r.Type)), cell(r.Doc))
		}
	}
	if f.Long() {
		fmt.Fprintf(b, "\nCancellable: when `onProgress` returns `false` the call throws an `AbortError` (`%s: cancelled`).\n", f.Qualified())
	}
}

// papers are the anchors of docs/references.md, by citation.
var papers = [][2]string{{"Alvim et al. (ICALP 2011)", "icalp2011"}, {"Alvim et al. (FOSAD 2011)", "fosad2011"},
	{"Chatzikokolakis et al. (CSF 2019)", "csf2019"}, {"Wu (2019)", "wu2019"}, {"Vadhan (2013)", "vadhan2013"},
	{"Bordenabe et al. (CCS 2014)", "ccs2014"}, {"Cherubin et al. (S&P 2019)", "sp2019"}, {"Chothia et al. (CAV 2013)", "cav2013"},
	{"Kairouz et al. (ICML 2015)", "icml2015"}, {"Balle and Wang (ICML 2018)", "icml2018"}, {"Zhu et al. (AISTATS 2022)", "aistats2022"}}

var firstSection = regexp.MustCompile(`^ §(\d+(?:\.\d+)*)`)

// mathematics are the anchors of the sections of docs/mathematics.md that sources cite as
// "Mathematics §8" (the toolkit's own statement of definitions that follow libqif).
var mathematics = map[string]string{"8": "metrics-and-capacities"}

var mathSection = regexp.MustCompile(`^Mathematics §(\d+(?:\.\d+)*)`)

// citation links a source ("Alvim et al. (ICALP 2011) §6") to its entry in the references: the
// section's anchor when it names one, else the paper's; "Mathematics §8 (libqif)" links to that
// section of the mathematics.
func citation(src string) string {
	if m := mathSection.FindStringSubmatch(src); m != nil && mathematics[m[1]] != "" {
		return "[" + src + "](mathematics.md#" + mathematics[m[1]] + ")"
	}
	for _, p := range papers {
		if rest, ok := strings.CutPrefix(src, p[0]); ok {
			anchor := p[1]
			if m := firstSection.FindStringSubmatch(rest); m != nil {
				anchor += "-" + m[1]
			}
			return "[" + src + "](references.md#" + anchor + ")"
		}
	}
	return src
}

func row(b *bytes.Buffer, f *bindings.Func, name string, p *bindings.Param) {
	def := defaultText(p)
	if def != "" {
		def = "`" + def + "`"
	}
	fmt.Fprintf(b, "| `%s` | %s | %s | %s |\n", name, cell(kindText(f, p)), def, cell(p.Doc))
}

// mdExact introduces the exact mode, before its namespaces.
const mdExact = "\nThe exact mode computes the rational-valued quantities in rational arithmetic. Numbers in may be numbers (read as\n" +
	"the decimal they print as: `0.1` is 1/10), bigints or strings (`\"1/3\"`, `\"0.25\"`); results are reduced fraction\n" +
	"strings (`\"2/7\"`), matrices `{rows, cols, data: string[]}` (accepted back as input). `e^ε` is given as a rational\n" +
	"`expEpsilon` (`\"2\"` for ε = ln 2). Distributions and channel rows must sum to exactly 1: the error names the row and\n" +
	"its exact sum. Sizes beyond what exact arithmetic finishes in seconds are refused with an error.\n\n" +
	"It is a WebAssembly module of its own, `qif-exact.wasm`, loaded on demand: `await load({ exact: true })` loads it\n" +
	"with the main module, or `await qif.loadModule('exact')` later, as every module loaded on demand (`qif.exact.load()`\n" +
	"is its alias, and `qif.exact.loaded` or `qif.moduleLoaded('exact')` tells whether it is); its functions are\n" +
	"synchronous once it is loaded, and throw an `Error` saying what to do when called before.\n"

var mdIntro = "Every function of the WebAssembly modules, as `web/qif.js` exposes it after `const qif = await load()`.\n" +
	"`qif.describe(name?)` returns the same table at run time.\n\n" +
	"**Modules.** `qif.wasm` serves channels and measures; `qif-more.wasm` everything else of `qif.*` (metrics, privacy,\n" +
	"graphs, mechanisms, refinement, information privacy, estimation, `lp`, and\n" +
	splitList("channel", "more") + "; each function of `qif.channel` says which module serves it).\n" +
	"`load()` loads both, in parallel, and every function is synchronous when it resolves.\n" +
	"`load({ lazy: true })` loads `qif.wasm` alone, for a page that wants its first number sooner: a function of\n" +
	"`qif-more.wasm` then throws an `Error` saying to call `await qif.loadModule('more')`, and `qif.moduleLoaded('more')`\n" +
	"tells whether it is loaded (`describe(f).module` names the module of a function: `'more'`, `'exact'`, or none).\n\n" +
	"**Values.** A matrix argument is an array of rows or `{rows, cols, data}` with `data` row-major (a `Float64Array`\n" +
	"is copied in bulk); a matrix result is `{rows, cols, data: Float64Array}`. A vector is an array or a typed array;\n" +
	"a vector result is a `Float64Array`. `JSON.stringify` of a result writes its vectors as arrays of numbers and its\n" +
	"matrices as arrays of rows (a non-enumerable `toJSON`; `Infinity` and `NaN` become `null`, as JSON has no\n" +
	"such numbers), which parse back into arguments the API accepts. A graph is `{n, edges: [[a, b], ...]}` on vertices `0..n−1`. Channels have one\n" +
	"row per secret; gain and loss matrices one row per guess. Entropies, leakages and capacities are in bits, ε in nats.\n\n" +
	"**Errors.** Bad input throws an `Error` whose message starts with the function and names the argument\n" +
	"(`mechanism.utility: prior: …`). Rows, columns and entries in messages are JS indices, counted from 0 like every\n" +
	"index of the API (`channel: row 2 sums to 0.9, expected 1` is the third row); the page and the widgets name them\n" +
	"by their labels and count from 1 instead. The same facts are fields of the error, so that nothing needs to parse\n" +
	"the message: `error.argument` (the argument as the message names it: `\"channel\"`, `\"prior\"`, an option's key),\n" +
	"`error.index` (the row or entry, a number, or `[row, column]` for a cell) and `error.detail` (what is wrong:\n" +
	"`\"sums to 0.9, expected 1\"`), each set where the fault lies in one argument (type `ArgumentError` in `qif.d.ts`;\n" +
	"in Go, `errors.As(err, &e)` with `e *argerr.Error` from `core/argerr`). An options object with a key the function does not know throws, naming the key\n" +
	"and listing the known ones. Options that bound something (tolerances, limits, budgets) must be positive: `0`,\n" +
	"negative values and `NaN` are refused alike; leave the key out for the default. The instance keeps working after\n" +
	"any error.\n\n" +
	"**Cancellation.** A function that takes `onProgress` calls it while it works; returning `false` cancels the call,\n" +
	"which throws an `Error` with `name === 'AbortError'` and message `<ns>.<name>: cancelled`; `error.partial` holds the\n" +
	"result as far as it got where there is one. An exception thrown by `onProgress` cancels the call and is rethrown.\n\n"

// mdJSOnly documents the functions written in JavaScript (dts.go's jsOnly), by namespace.
var mdJSOnly = map[string]string{
	"estimate": "\n### estimate.readSamples {#estimate.readSamples}\n\n" +
		"`estimate.readSamples(text, options?)` → `ReadSamples`\n\n" +
		"Reads samples from CSV or TSV text as the page's *From observations* does, in JavaScript (no module needed): one line per " +
		"sample, the secret first, then one or more observation columns; cells separated by tabs, semicolons or commas (decided by " +
		"the first line); quoted fields (`\"a, b\"`, `\"\"` for a quote); decimal commas (`0,5`) where the separator is not a comma or the " +
		"cell is quoted; a first line of names above numbers is a header. Returns `{secrets, secretNames, observations, " +
		"observationNames, header, rows, observationColumns, decimalComma}`: `secrets` an `Int32Array` of integers, a `Float64Array` " +
		"of numbers or codes into `secretNames`; `observations` a `Matrix` `{rows, cols, data}` when every observation cell is a " +
		"number (read as numbers by `kind: 'auto'`; pass `kind: 'labels'` when they are codes), else an `Int32Array` of codes into " +
		"`observationNames`. Throws an `Error` naming the line (`estimate.readSamples: text: line 7: 3 columns, expected 4`); " +
		"`options.onProgress(fraction)` is called as lines are read. Not in `qif.describe()`, which lists the functions of the modules.\n",
}

// splitList writes the functions split says module serves in namespace ns: "`channel.factorize`, `fromMetric`".
func splitList(ns, module string) string {
	var names []string
	for _, s := range split {
		if s.NS == ns && s.Module == module {
			names = append(names, s.Names...)
		}
	}
	sort.Strings(names)
	for i, n := range names {
		if i == 0 {
			n = ns + "." + n
		}
		names[i] = "`" + n + "`"
	}
	return strings.Join(names, ", ")
}

// loadNote is what a function of module m needs before its first call, in the reference's words.
func loadNote(m string) string {
	switch m {
	case "main":
		return ", the first module (there as soon as `load()` resolves)"
	case "more":
		return " (after `load({ lazy: true })`, `await qif.loadModule('more')` first)"
	}
	return ""
}
