package table

import (
	"sort"
	"strings"
)

// Func describes one exported function qif.<NS>.<Name>: how its arguments are read, what it
// returns, what it means and where it comes from. The interpreter (args.go, js.go) decodes the
// arguments by Params, calls Call and encodes what it returns; bindings/apigen writes
// web/qif.d.ts, docs/api.md, web/api.gen.js and web/qif.gen.js from the same values.
type Func struct {
	NS, Name string
	Params   []*Param
	Result   Type
	Doc      string // one line, a sentence
	TeX      string // the formula computed, in TeX ("" when there is none)
	Source   string // the paper section, "Alvim et al. (ICALP 2011) §6" ("" for plumbing)
	// Call runs the function on decoded arguments. It returns a value of the shapes js.go
	// encodes (see encode) or an error, which the interpreter prefixes with "<ns>.<name>: ".
	Call func(a *Args) (any, error)
	// Sizes, when set, is called with the dimensions of the matrix and vector arguments
	// before any of them is decoded, so that a function whose work grows faster than its
	// input refuses a large one before parsing a million entries (Dims).
	Sizes func(d Dims) error

	slots []slot // Params with the fields of options flattened, in wire order (see compile)
}

// Dims maps a matrix argument's name to its rows and columns, and a vector's to its length and
// 1, as sent (before decoding; absent arguments are missing).
type Dims map[string][2]int

// Qualified is "<ns>.<name>", the prefix of every error the function reports.
func (f *Func) Qualified() string { return f.NS + "." + f.Name }

// Param is one parameter, or one field of an options parameter.
type Param struct {
	Name  string // the JS parameter name or option key
	Label string // the name errors use when it differs from Name (C → "channel")
	Kind  Kind
	// Optional marks a positional parameter that may be left out; Required marks a field of an
	// options object that may not. (Parameters are required and fields optional otherwise.)
	Optional, Required bool
	Default            any    // the value used when absent (float64, int, bool or string), or nil
	DefaultDoc         string // the default in words when it is not a constant ("n", "uniform")
	Check              Check
	Enum               []string // KindEnum: the accepted strings
	Fields             []*Param // KindOptions: the keys of the object
	CallArgs           []string // KindCallback: what it is called with, in order
	ArgsObject         bool     // KindCallback: the arguments arrive as one object {CallArgs...}
	Type               string   // TypeScript name of the options interface (KindOptions)
	Doc                string
}

// ArgName is the name of the parameter in error messages: Label, or else Name.
func (p *Param) ArgName() string {
	if p.Label != "" {
		return p.Label
	}
	return p.Name
}

// Kind is how a value crosses the boundary: what JS accepts and what Go receives.
type Kind string

const (
	KindNumber   Kind = "number"   // float64; NaN and ±Infinity reach the Check
	KindInteger  Kind = "integer"  // int
	KindBoolean  Kind = "boolean"  // bool
	KindEnum     Kind = "enum"     // string, one of Param.Enum
	KindString   Kind = "string"   // any string (a program's source)
	KindVector   Kind = "vector"   // number[] or typed array → []float64
	KindIndices  Kind = "indices"  // array of non-negative integers → []int
	KindMatrix   Kind = "matrix"   // number[][] or {rows, cols, data} → *mat.Dense
	KindGraph    Kind = "graph"    // {n, edges: [[a, b], ...]} → *graph.Graph
	KindCallback Kind = "callback" // function → Callback; returning false cancels
	KindOptions  Kind = "options"  // object whose keys are Param.Fields; unknown keys throw
	KindObject   Kind = "object"   // any object, copied as plain data → Object (debug only)
	// KindLPProblem is the nested problem object of lp.solve, flattened in JS (web/qif.js).
	KindLPProblem Kind = "lpProblem"
	// KindLabels is a column of sample labels: an array of numbers or of strings, or a typed
	// array → estimate.Labels (labels.go).
	KindLabels Kind = "labels"
	// KindSamples is labels or a matrix with one row per sample → estimate.Observations.
	KindSamples Kind = "samples"
	// KindEnumOrInteger is one of Param.Enum or a positive integer → string or int.
	KindEnumOrInteger Kind = "enumOrInteger"
	// KindEvents is a list of privacy events (qif.accounting): an array of plain objects that
	// web/qif.js writes as JSON text (non-finite numbers as {"$number": "NaN"}, matrices and
	// typed arrays as arrays) → string; the module that serves it parses and checks it, so
	// that the first module carries no JSON parser.
	KindEvents Kind = "events"
	// KindEnumIntegerOrVector is one of Param.Enum, a positive integer or an array of numbers →
	// string, int or []float64 (bins: 'fd', a count, or edges).
	KindEnumIntegerOrVector Kind = "enumIntegerOrVector"

	// The exact mode's values: numbers, bigints or strings ("1/3", "0.25") that JS writes as
	// text. Their decoder is the exact module's (RegisterKind), so that no other module carries
	// rational arithmetic.
	KindRational  Kind = "rational"  // one number: its text
	KindRatVector Kind = "ratVector" // (length, the entries joined by commas)
	KindRatMatrix Kind = "ratMatrix" // (rows, cols, the entries row by row joined by commas)
	KindRatMetric Kind = "ratMetric" // as ratMatrix, Infinity allowed (a missing distance)
)

// Kinds lists every kind, for the generator that writes their wire widths into web/api.gen.js
// (which web/qif.js reads, so that the two sides cannot disagree).
var Kinds = []Kind{KindNumber, KindInteger, KindBoolean, KindEnum, KindString, KindVector, KindIndices,
	KindMatrix, KindGraph, KindCallback, KindOptions, KindObject, KindLPProblem, KindLabels, KindSamples,
	KindEnumOrInteger, KindEvents, KindEnumIntegerOrVector, KindRational, KindRatVector, KindRatMatrix, KindRatMetric}

// Width is the number of wire values a kind occupies: JS sends each argument as a fixed number
// of plain values (numbers, strings, functions, byte arrays), so that Go never reads a property
// of a caller's object. A matrix is (rows, cols, bytes), a graph (n, edge bytes), an LP problem
// (header bytes, data bytes), sample labels (count, values, names: labels.go) and samples labels
// or a matrix with one value more (whether an integer typed array gave the labels); an options
// object is whether it was given, then its fields each as its own kind; everything else is one
// value.
func (k Kind) Width() int {
	switch k {
	case KindSamples:
		return 4
	case KindMatrix, KindRatMatrix, KindRatMetric, KindLabels:
		return 3
	case KindGraph, KindLPProblem, KindRatVector:
		return 2
	}
	return 1
}

// Check is a constraint on a number, enforced after defaults are filled in. The same rule (and
// message) holds wherever a check is named: 0, negatives and NaN are refused alike.
type Check string

const (
	CheckNone        Check = ""
	CheckPositive    Check = "positive"    // > 0 and finite (integers ≥ 1)
	CheckPositiveInf Check = "positiveInf" // > 0; Infinity means no limit
	CheckNonNegative Check = "nonNegative" // ≥ 0 and finite
)

// Describe is the constraint in words, as errors and the reference state it.
func (c Check) Describe(k Kind) string {
	what, a := "number", "a "
	if k == KindInteger {
		what, a = "integer", "an "
	}
	switch c {
	case CheckPositive:
		if k == KindInteger {
			return "a positive integer"
		}
		return "a positive finite number"
	case CheckPositiveInf:
		return "a positive number (Infinity: no limit)"
	case CheckNonNegative:
		return "a non-negative " + what
	}
	return a + what
}

// Type is the shape of a result (or of one field of it) for the generated types and reference.
type Type struct {
	TS     string  // a TypeScript type for a plain shape: "number", "MatrixOut", "Graph", ...
	Name   string  // an interface name for an object with Fields (inline when empty)
	Fields []Field // the keys of an object result
	Doc    string  // what the interface stands for
	// Verdict names a boolean field whose value decides which fields are present (Field.When):
	// the type is then a discriminated union of two interfaces, Branches[0] when the verdict is
	// true and Branches[1] when it is false, so that `if (r.holds) r.witness` narrows in
	// TypeScript.
	Verdict  string
	Branches [2]string
}

// Field is one key of an object result.
type Field struct {
	Name     string
	Type     Type
	Optional bool // present only in some results
	Doc      string
	// When, in a Type with a Verdict, is "true" or "false": the field is present exactly when
	// the verdict has that value (still optional within that branch when Optional).
	When string
}

// Result types shared by many functions.
var (
	Number    = Type{TS: "number"}
	Boolean   = Type{TS: "boolean"}
	String    = Type{TS: "string"}
	MatrixOut = Type{TS: "MatrixOut"}
	VectorOut = Type{TS: "Float64Array"}
	IntList   = Type{TS: "number[]"}
	GraphOut  = Type{TS: "Graph"}
)

// Module is the table of one WebAssembly module: web/qif.wasm serves the main table (package
// bindings) and web/qif-exact.wasm the exact mode's (package bindings/exactapi), so that the page's
// module does not carry the rational arithmetic. Each module has its own wire ids, the indices of
// Functions; bindings/apigen writes all of them into one set of generated files.
type Module struct {
	Name       string   // the loader's name for it: "main" or "exact"
	Namespaces []string // in the order of the reference and of the wire ids
	funcs      []*Func
}

// NewModule builds a module from one []Func literal per namespace. The literals are data,
// statically initialized, so that a hundred descriptions cost the WebAssembly module bytes of
// data, not code that builds them; NewModule only links and sorts them. (A name used twice or
// a namespace not listed is caught by the tests of the tables, not here: see Lookup.)
func NewModule(name string, namespaces []string, tables ...[]Func) *Module {
	m := &Module{Name: name, Namespaces: namespaces}
	for _, t := range tables {
		for i := range t {
			t[i].compile()
			m.funcs = append(m.funcs, &t[i])
		}
	}
	sort.SliceStable(m.funcs, func(i, j int) bool {
		a, b := m.funcs[i], m.funcs[j]
		if a.NS != b.NS {
			return m.NamespaceIndex(a.NS) < m.NamespaceIndex(b.NS)
		}
		return a.Name < b.Name
	})
	return m
}

// Functions returns the module's table: every function, grouped by namespace in the order of
// Namespaces and by name within each. The index of a function in this list is its wire id.
func (m *Module) Functions() []*Func { return m.funcs }

// NamespaceIndex is the position of ns in Namespaces (len(Namespaces) when it is not there).
func (m *Module) NamespaceIndex(ns string) int {
	for i, n := range m.Namespaces {
		if n == ns {
			return i
		}
	}
	return len(m.Namespaces)
}

// slot is one decoded value of a call: a parameter or a field of an options parameter.
type slot struct {
	p     *Param
	field bool // a field of an options object (vs a positional parameter)
	arg   int  // the positional parameter it belongs to (0-based)
}

// compile flattens Params into slots, in the order of the wire values.
func (f *Func) compile() {
	for i, p := range f.Params {
		f.slots = append(f.slots, slot{p: p, arg: i})
		for _, q := range p.Fields {
			f.slots = append(f.slots, slot{p: q, field: true, arg: i})
		}
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// Wire is the number of wire values a call of f takes (after its id).
func (f *Func) Wire() int {
	n := 0
	for _, s := range f.slots {
		n += s.p.Kind.Width()
	}
	return n
}

// Long reports whether f takes an onProgress callback (and so can be cancelled).
func (f *Func) Long() bool {
	for _, s := range f.slots {
		if s.p.Kind == KindCallback && s.p.Name == "onProgress" {
			return true
		}
	}
	return false
}

// Signature is "ns.name(a, b?, options?)", for the reference.
func (f *Func) Signature() string {
	names := make([]string, len(f.Params))
	for i, p := range f.Params {
		names[i] = p.Name
		if p.Optional {
			names[i] += "?"
		}
	}
	return f.Qualified() + "(" + strings.Join(names, ", ") + ")"
}
