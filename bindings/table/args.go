package table

import (
	"context"
	"fmt"
	"math"
	"runtime/debug"
	"strings"
	"time"

	"github.com/qif-toolkit/qif/core/argerr"
	"github.com/qif-toolkit/qif/core/graph"
	"gonum.org/v1/gonum/mat"
)

// This file is plain Go (no build tag): decoding wire values into Go values, the checks of the
// table and the outcome of a call all run, and are tested and fuzzed, natively. js.go only
// turns js.Values into Raws and results into js.Values.

// Raw is one wire value as it arrived from JS.
type Raw struct {
	Type   RawType
	Num    float64
	Bool   bool
	Str    string
	Floats []float64 // a byte array, read as float64s
	Ints   []int32   // an Int32Array
	Fn     Callback
	Text   func() (string, bool) // a function called for a string (false: it returned another type)
	Obj    Object
}

// RawType is the JS type of a wire value.
type RawType uint8

const (
	RawAbsent RawType = iota // undefined or null
	RawNumber
	RawBool
	RawString
	RawFloats
	RawFunc
	RawObject
	RawInts
)

// Callback calls a JS function (onProgress) with args; it returns false when the function
// returned false, which cancels the computation.
type Callback func(args ...any) bool

// Object reads numeric properties of a JS object (used only by debug.syscalls).
type Object interface {
	Number(key string) (float64, bool)
}

// Args holds the decoded arguments of one call, read by name in Func.Call.
type Args struct {
	f         *Func
	vals      []any
	cancelled bool
}

// Cancelled is the error of a call whose onProgress returned false; Partial is the result as
// far as it got (nil when nothing useful was computed).
type Cancelled struct {
	Fn      string
	Partial any
}

func (c *Cancelled) Error() string { return c.Fn + ": cancelled" }

// Invoke decodes the wire values raw, runs f and returns its result. Every error starts with
// "<ns>.<name>: "; a cancelled call returns a *Cancelled whatever Call returned; a panic becomes
// an internal error, so nothing escapes to JS.
func (f *Func) Invoke(raw []Raw) (result any, err error) {
	q := f.Qualified()
	defer func() {
		if r := recover(); r != nil {
			debug.FreeOSMemory() // a panic is often an allocation that did not fit
			result, err = nil, fmt.Errorf("%s: internal error: %v", q, r)
		}
	}()
	if f.Sizes != nil && len(raw) == f.Wire() {
		if err := f.Sizes(f.dims(raw)); err != nil {
			return nil, fmt.Errorf("%s: %w", q, withoutInternalPrefix(err))
		}
	}
	a, err := f.decode(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", q, withoutInternalPrefix(err))
	}
	result, err = f.Call(a)
	if a.cancelled {
		return nil, &Cancelled{Fn: q, Partial: result}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", q, withoutInternalPrefix(err))
	}
	return result, nil
}

// internalPrefixes are the package names the core's errors start with (Go style, for Go
// callers: "lp: right-hand side of row 0 is NaN"). In JS the message already starts with the
// function, and a second prefix naming a Go package reads like an argument that does not
// exist, so Invoke removes them (repeatedly: wrapped errors chain them).
var internalPrefixes = []string{
	"lp: model: ", "lp: ", "ratlp: ", "conelp: ", "lu: ",
	"refine: avg: ", "refine avg: ", "refine additive metric: ", "refine: ",
	"optimal mechanism: ",
}

// withoutInternalPrefix returns err with the internal prefixes removed from its message
// (errors.Is and errors.As still see the original through Unwrap).
func withoutInternalPrefix(err error) error {
	msg := err.Error()
	trimmed := StripInternalPrefixes(msg)
	if trimmed == msg {
		return err
	}
	return &rewordedError{msg: trimmed, err: err}
}

// StripInternalPrefixes removes leading internal package prefixes from msg.
func StripInternalPrefixes(msg string) string {
	for again := true; again; {
		again = false
		for _, p := range internalPrefixes {
			if strings.HasPrefix(msg, p) {
				msg, again = msg[len(p):], true
			}
		}
	}
	return msg
}

type rewordedError struct {
	msg string
	err error
}

func (e *rewordedError) Error() string { return e.msg }
func (e *rewordedError) Unwrap() error { return e.err }

// dims reads the sizes of the matrix and vector arguments from their wire values.
func (f *Func) dims(raw []Raw) Dims {
	d := Dims{}
	k := 0
	for _, s := range f.slots {
		p := s.p
		w := p.Kind.Width()
		r := raw[k : k+w]
		k += w
		size := func(x Raw) (int, bool) {
			if x.Type != RawNumber || x.Num != math.Trunc(x.Num) || x.Num < 0 || x.Num > math.MaxInt32 {
				return 0, false
			}
			return int(x.Num), true
		}
		switch p.Kind {
		case KindMatrix, KindRatMatrix, KindRatMetric:
			rows, ok1 := size(r[0])
			cols, ok2 := size(r[1])
			if ok1 && ok2 {
				d[p.Name] = [2]int{rows, cols}
			}
		case KindRatVector:
			if n, ok := size(r[0]); ok {
				d[p.Name] = [2]int{n, 1}
			}
		}
	}
	return d
}

// decode reads raw into one value per slot, filling defaults and enforcing checks.
func (f *Func) decode(raw []Raw) (*Args, error) {
	if len(raw) != f.Wire() {
		return nil, fmt.Errorf("internal error: %d wire values, expected %d", len(raw), f.Wire())
	}
	a := &Args{f: f, vals: make([]any, len(f.slots))}
	k := 0
	for i, s := range f.slots {
		p := s.p
		w := p.Kind.Width()
		v, err := decodeValue(p, raw[k:k+w])
		k += w
		if err != nil {
			return nil, err
		}
		if v == nil {
			v = p.Default
		}
		if v == nil && (s.field && p.Required || !s.field && !p.Optional) {
			if s.field {
				return nil, argerr.New(p.ArgName(), "missing (a required key of %s)", f.Params[s.arg].Name)
			}
			return nil, argerr.New(p.ArgName(), "missing argument %d", s.arg+1)
		}
		if err := checkValue(p, v); err != nil {
			return nil, err
		}
		a.vals[i] = v
	}
	return a, nil
}

// decodeValue turns the wire values of one parameter into its Go value, or nil when absent.
func decodeValue(p *Param, raw []Raw) (any, error) {
	name := p.ArgName()
	r := raw[0]
	if r.Type == RawAbsent { // a matrix, graph or problem sends its first value absent too
		return nil, nil
	}
	want := func(t RawType, what string) error {
		if r.Type != t {
			return argerr.New(name, "expected %s", what)
		}
		return nil
	}
	switch p.Kind {
	case KindNumber:
		return r.Num, want(RawNumber, "a number")
	case KindInteger:
		if err := want(RawNumber, "an integer"); err != nil {
			return nil, err
		}
		x := r.Num
		if x != math.Trunc(x) {
			return nil, argerr.New(name, "expected %s, got %v", p.Check.Describe(p.Kind), x)
		}
		if math.Abs(x) > 1<<53 { // beyond it a JavaScript number no longer holds every integer
			return nil, argerr.New(name, "expected %s of at most 2^53 = 9007199254740992 in absolute value, got %v", p.Check.Describe(p.Kind), x)
		}
		return int(x), nil
	case KindBoolean:
		return r.Bool, want(RawBool, "a boolean")
	case KindString, KindEvents: // events arrive as JSON text (web/qif.js writes it)
		return r.Str, want(RawString, "a string")
	case KindEnum:
		if r.Type != RawString || !contains(p.Enum, r.Str) {
			return nil, argerr.New(name, "expected one of '%s', got %s", strings.Join(p.Enum, "', '"), rawString(r))
		}
		return r.Str, nil
	case KindVector:
		if err := want(RawFloats, "a vector"); err != nil {
			return nil, err
		}
		if len(r.Floats) > MaxEntries {
			return nil, argerr.New(name, "%d entries, more than the limit of %d", len(r.Floats), MaxEntries)
		}
		return r.Floats, nil
	case KindIndices:
		if err := want(RawFloats, "an array of indices"); err != nil {
			return nil, err
		}
		return Indices(name, r.Floats)
	case KindMatrix:
		if r.Type != RawNumber || raw[1].Type != RawNumber || raw[2].Type != RawFloats {
			return nil, argerr.New(name, "expected a matrix")
		}
		rows, cols := r.Num, raw[1].Num
		if rows != math.Trunc(rows) || cols != math.Trunc(cols) {
			return nil, argerr.New(name, "rows and cols must be integers, got %v×%v", rows, cols)
		}
		// Clamped first: converting a float beyond the int range is not defined in Go.
		clamp := func(x float64) int { return int(math.Max(-1, math.Min(x, MaxEntries+1))) }
		return FlatMatrix(name, clamp(rows), clamp(cols), raw[2].Floats)
	case KindCallback:
		return r.Fn, want(RawFunc, "a function")
	case KindOptions:
		return true, want(RawBool, "an options object")
	case KindObject:
		return r.Obj, want(RawObject, "an object")
	}
	if r := registered[p.Kind]; r != nil { // a kind of some modules only (kinds.go)
		return r.decode(p, raw)
	}
	return nil, fmt.Errorf("%s: unknown kind %q", name, p.Kind)
}

func rawString(r Raw) string {
	if r.Type == RawString {
		return fmt.Sprintf("%q", r.Str)
	}
	return "a non-string"
}

// checkValue enforces p.Check on a number or integer.
func checkValue(p *Param, v any) error {
	if p.Check == CheckNone || v == nil {
		return nil
	}
	x, ok := v.(float64)
	if i, isInt := v.(int); isInt {
		x, ok = float64(i), true
	}
	if !ok {
		return nil
	}
	var good bool
	switch p.Check {
	case CheckPositive:
		good = x > 0 && !math.IsInf(x, 1) && (p.Kind != KindInteger || x >= 1)
	case CheckPositiveInf:
		good = x > 0
	case CheckNonNegative:
		good = x >= 0 && !math.IsInf(x, 1)
	}
	if !good {
		return argerr.New(p.ArgName(), "expected %s, got %v", p.Check.Describe(p.Kind), x)
	}
	return nil
}

// Indices reads floats that must be non-negative integer indices (a query table, domain sizes).
func Indices(name string, x []float64) ([]int, error) {
	out := make([]int, len(x))
	for i, f := range x {
		if f != math.Trunc(f) || f < 0 || f > 1<<31 {
			return nil, argerr.Entry(name, i, "is %v, expected a non-negative integer index", f)
		}
		out[i] = int(f)
	}
	return out, nil
}

// FlatGraph builds a graph on n vertices from its edges flattened as a0, b0, a1, b1, ...:
// n and every endpoint must be integers, endpoints in 0..n−1, and graph.New refuses self-loops
// and duplicates. Errors name the argument ("graph: edge 3 (2,2) is a self-loop").
func FlatGraph(name string, n float64, flat []float64) (*graph.Graph, error) {
	if n != math.Trunc(n) || n < 1 || n > graph.MaxVertices {
		return nil, argerr.New(name, "n must be an integer between 1 and %d, got %v", graph.MaxVertices, n)
	}
	if len(flat)%2 != 0 {
		return nil, argerr.New(name+".edges", "each edge must be a pair [a, b]")
	}
	if len(flat) > MaxEntries {
		return nil, argerr.New(name+".edges", "%d edges, more than the limit of %d", len(flat)/2, MaxEntries/2)
	}
	edges := make([]graph.Edge, len(flat)/2)
	for k := range edges {
		a, b := flat[2*k], flat[2*k+1]
		if a != math.Trunc(a) || b != math.Trunc(b) {
			return nil, argerr.Item(name, "edge", k, "(%v,%v) has a non-integer vertex", a, b)
		}
		if a < 0 || a >= n || b < 0 || b >= n {
			return nil, argerr.Item(name, "edge", k, "(%v,%v) has a vertex outside 0..%v", a, b, n-1)
		}
		edges[k] = graph.Edge{A: int(a), B: int(b)}
	}
	g, err := graph.New(int(n), edges)
	if err != nil {
		// graph.New's errors are about "graph"; name the caller's argument instead.
		return nil, argerr.Rename(err, "graph", name)
	}
	return g, nil
}

// index is the slot named name: the last one given when two carry the name (safeEpsilonCurve
// takes onProgress both as a field and as an argument), else the first. A name the function
// does not declare is a bug in the table.
func (a *Args) index(name string) int {
	at := -1
	for i, s := range a.f.slots {
		if s.p.Name == name && (at < 0 || a.vals[i] != nil) {
			at = i
		}
	}
	if at < 0 {
		panic(a.f.Qualified() + ": no parameter " + name)
	}
	return at
}

// Get returns the decoded value of name (nil when absent without a default).
func (a *Args) Get(name string) any { return a.vals[a.index(name)] }

// Has reports whether name was given (or has a default).
func (a *Args) Has(name string) bool { return a.Get(name) != nil }

// Float returns a number (0 when absent).
func (a *Args) Float(name string) float64 { x, _ := a.Get(name).(float64); return x }

// Int returns an integer (0 when absent).
func (a *Args) Int(name string) int { x, _ := a.Get(name).(int); return x }

// Bool returns a boolean (false when absent).
func (a *Args) Bool(name string) bool { x, _ := a.Get(name).(bool); return x }

// Str returns an enum string ("" when absent).
func (a *Args) Str(name string) string { x, _ := a.Get(name).(string); return x }

// Vec returns a vector (nil when absent).
func (a *Args) Vec(name string) []float64 { x, _ := a.Get(name).([]float64); return x }

// Ints returns an array of indices (nil when absent).
func (a *Args) Ints(name string) []int { x, _ := a.Get(name).([]int); return x }

// Mat returns a matrix (nil when absent).
func (a *Args) Mat(name string) *mat.Dense { x, _ := a.Get(name).(*mat.Dense); return x }

// Graph returns a graph (nil when absent).
func (a *Args) Graph(name string) *graph.Graph { x, _ := a.Get(name).(*graph.Graph); return x }

// Progress returns the callback name, or nil when absent. When the callback returns false the
// call is cancelled: Invoke then reports a *Cancelled whatever Call returns.
func (a *Args) Progress(name string) Callback {
	cb, _ := a.Get(name).(Callback)
	if cb == nil {
		return nil
	}
	return func(args ...any) bool {
		if a.cancelled {
			return false
		}
		a.cancelled = !cb(args...)
		return !a.cancelled
	}
}

// Context returns a context for a core function that polls ctx.Err() but reports no progress of
// its own: at its first poll and then every 100 ms it calls the callback name with the
// milliseconds elapsed, and it is cancelled once the callback returns false. Without the
// callback it is context.Background().
func (a *Args) Context(name string) context.Context {
	p := a.Progress(name)
	if p == nil {
		return context.Background()
	}
	return &pollContext{Context: context.Background(), progress: p, start: time.Now()}
}

type pollContext struct {
	context.Context
	progress    Callback
	start, last time.Time
	err         error
}

func (c *pollContext) Err() error {
	if c.err == nil && time.Since(c.last) >= 100*time.Millisecond {
		c.last = time.Now()
		if !c.progress(float64(c.last.Sub(c.start).Milliseconds())) {
			c.err = context.Canceled
		}
	}
	return c.err
}

// FieldsError is an error that carries fields of its own, which the JS Error thrown for it
// receives as properties (a program's error.line and error.column): ErrorFields returns them as
// values encode accepts.
type FieldsError interface {
	error
	ErrorFields() map[string]any
}

// Obj is the result object type: field name → value (see encode in js.go for the values).
type Obj = map[string]any

// Strings is a result list of strings joined by commas (none of them empty or with a comma),
// which JS splits: one crossing of the boundary where a 200×200 matrix of fractions would
// otherwise take 40,000. The exact module joins its fractions; the main module builds none.
type Strings string

// StringRows is a result matrix of strings (a string[][] in JS): its entries row-major, joined by
// commas (none of them empty or with a comma), which JS splits into rows of Cols entries — one
// crossing of the boundary for a whole matrix of fractions.
type StringRows struct {
	Text string
	Cols int
}

// LabelText is a result list of N strings joined by NUL characters (none of them holds one),
// which JS splits: one crossing for a hundred thousand row labels.
type LabelText struct {
	Text string
	N    int
}

// scratch holds the buffers that input matrices are copied into, reused from call to call.
// Allocating, zeroing and later collecting 32 MB for a 2000×2000 channel on every call cost more
// than the copy itself. Reuse is safe because every function converts its results to JS values
// before returning and core keeps no reference to its inputs across calls.
var scratch arena

type arena struct {
	bufs  [][]float64
	next  int
	depth int
}

func (a *arena) begin() {
	if a.depth == 0 {
		a.next = 0
	}
	a.depth++
}

func (a *arena) end() { a.depth-- }

// take returns a buffer of n entries with arbitrary contents (the caller overwrites it all).
// A call made from inside another call (a JS callback calling back into the API) gets fresh
// memory so that it cannot overwrite the outer call's inputs.
func (a *arena) take(n int) []float64 {
	if a.depth != 1 {
		return make([]float64, n)
	}
	if a.next == len(a.bufs) {
		a.bufs = append(a.bufs, nil)
	}
	b := a.bufs[a.next]
	if cap(b) < n {
		a.bufs[a.next] = nil // let the old buffer go before allocating the larger one
		b = make([]float64, n)
		a.bufs[a.next] = b
	}
	a.next++
	return b[:n]
}
