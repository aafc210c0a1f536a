//go:build js && wasm

package bindings

import (
	"fmt"
	"math"
	"runtime/debug"
	"sort"
	"unsafe"

	"gonum.org/v1/gonum/mat"
	"syscall/js"
)

// Func is the Go side of one exported JS function. It returns a value accepted by js.ValueOf
// (including js.Value, map[string]any and []any) or an error, which the loader throws.
type Func func(a *Args) (any, error)

var table = map[string]map[string]Func{}

// Register adds fn as qif.<namespace>.<name>. It is called from init functions. It is not
// inlined: in the WebAssembly build each inlined copy of its map code cost about 1 KB, and
// there are some 150 registrations.
//
//go:noinline
func Register(namespace, name string, fn Func) {
	ns := table[namespace]
	if ns == nil {
		ns = map[string]Func{}
		table[namespace] = ns
	}
	if _, dup := ns[name]; dup {
		panic("bindings: " + namespace + "." + name + " registered twice")
	}
	ns[name] = fn
}

// helpers holds the JS helper functions supplied by the loader (see web/qif.js).
var helpers js.Value

// Export builds the JS API object: {namespace: {name: function}}. helperObj is the object of
// JS helpers that the loader provides (toMatrix, toVector).
func Export(helperObj js.Value) js.Value {
	helpers = helperObj
	api := js.Global().Get("Object").New()
	names := make([]string, 0, len(table))
	for ns := range table {
		names = append(names, ns)
	}
	sort.Strings(names)
	for _, ns := range names {
		obj := js.Global().Get("Object").New()
		for name, fn := range table[ns] {
			obj.Set(name, wrap(ns+"."+name, fn))
		}
		api.Set(ns, obj)
	}
	return api
}

// wrap turns fn into a js.Func that never panics: a panic becomes a JS Error naming the function.
func wrap(qualified string, fn Func) js.Func {
	return js.FuncOf(func(this js.Value, args []js.Value) (result any) {
		defer func() {
			if r := recover(); r != nil {
				debug.FreeOSMemory()
				result = jsError(fmt.Sprintf("%s: internal error: %v", qualified, r))
			}
		}()
		scratch.begin()
		defer scratch.end()
		v, err := fn(&Args{fn: qualified, v: args})
		if err != nil {
			return jsError(err.Error())
		}
		return v
	})
}

func jsError(msg string) js.Value { return js.Global().Get("Error").New(msg) }

// Args gives typed access to the arguments of one call. Every accessor returns an error that
// names the argument, so bindings read like: C, err := a.Matrix(0, "channel").
type Args struct {
	fn string
	v  []js.Value
}

// Len is the number of arguments passed.
func (a *Args) Len() int { return len(a.v) }

// Has reports whether argument i was passed and is neither undefined nor null.
func (a *Args) Has(i int) bool { return i < len(a.v) && !a.v[i].IsUndefined() && !a.v[i].IsNull() }

// Value returns argument i (undefined when missing).
func (a *Args) Value(i int) js.Value {
	if i < len(a.v) {
		return a.v[i]
	}
	return js.Undefined()
}

func (a *Args) missing(i int, name string) error {
	return fmt.Errorf("%s: missing argument %d (%s)", name, i+1, a.fn)
}

// Matrix reads argument i as a matrix.
func (a *Args) Matrix(i int, name string) (*mat.Dense, error) {
	if !a.Has(i) {
		return nil, a.missing(i, name)
	}
	return ToMatrix(a.v[i], name)
}

// Vector reads argument i as a vector.
func (a *Args) Vector(i int, name string) ([]float64, error) {
	if !a.Has(i) {
		return nil, a.missing(i, name)
	}
	return ToVector(a.v[i], name)
}

// Float reads argument i as a number (NaN is passed through for the core to reject).
func (a *Args) Float(i int, name string) (float64, error) {
	if !a.Has(i) {
		return 0, a.missing(i, name)
	}
	return ToFloat(a.v[i], name)
}

// Int reads argument i as an integer.
func (a *Args) Int(i int, name string) (int, error) {
	if !a.Has(i) {
		return 0, a.missing(i, name)
	}
	return ToInt(a.v[i], name)
}

// Options reads argument i as an options object; a missing argument gives empty options.
func (a *Args) Options(i int, name string) (Options, error) {
	if !a.Has(i) {
		return Options{name: name, v: js.Undefined()}, nil
	}
	if a.v[i].Type() != js.TypeObject {
		return Options{}, fmt.Errorf("%s: expected an options object, got %s", name, a.v[i].Type())
	}
	return Options{name: name, v: a.v[i]}, nil
}

// Options gives typed access to the fields of an options object.
type Options struct {
	name string
	v    js.Value
}

// Has reports whether field key is present and neither undefined nor null.
func (o Options) Has(key string) bool {
	if o.v.IsUndefined() || o.v.IsNull() {
		return false
	}
	f := o.v.Get(key)
	return !f.IsUndefined() && !f.IsNull()
}

// Get returns field key (undefined when absent).
func (o Options) Get(key string) js.Value {
	if o.v.IsUndefined() || o.v.IsNull() {
		return js.Undefined()
	}
	return o.v.Get(key)
}

// Float returns field key as a number, or def when absent.
func (o Options) Float(key string, def float64) (float64, error) {
	if !o.Has(key) {
		return def, nil
	}
	return ToFloat(o.v.Get(key), key)
}

// Int returns field key as an integer, or def when absent.
func (o Options) Int(key string, def int) (int, error) {
	if !o.Has(key) {
		return def, nil
	}
	return ToInt(o.v.Get(key), key)
}

// Matrix returns field key as a matrix, or nil when absent.
func (o Options) Matrix(key string) (*mat.Dense, error) {
	if !o.Has(key) {
		return nil, nil
	}
	return ToMatrix(o.v.Get(key), key)
}

// Vector returns field key as a vector, or nil when absent.
func (o Options) Vector(key string) ([]float64, error) {
	if !o.Has(key) {
		return nil, nil
	}
	return ToVector(o.v.Get(key), key)
}

// RequireFloat returns field key as a number and fails when it is absent.
func (o Options) RequireFloat(key string) (float64, error) {
	if !o.Has(key) {
		return 0, fmt.Errorf("%s: missing field %q", o.name, key)
	}
	return ToFloat(o.v.Get(key), key)
}

// RequireInt returns field key as an integer and fails when it is absent.
func (o Options) RequireInt(key string) (int, error) {
	if !o.Has(key) {
		return 0, fmt.Errorf("%s: missing field %q", o.name, key)
	}
	return ToInt(o.v.Get(key), key)
}

// Func returns field key when it is a JS function (for progress callbacks), else undefined.
func (o Options) Func(key string) js.Value {
	f := o.Get(key)
	if f.Type() == js.TypeFunction {
		return f
	}
	return js.Undefined()
}

// ToFloat converts a JS number.
func ToFloat(v js.Value, name string) (float64, error) {
	if v.Type() != js.TypeNumber {
		return 0, fmt.Errorf("%s: expected a number, got %s", name, typeName(v))
	}
	return v.Float(), nil
}

// ToInt converts a JS number that must be an integer.
func ToInt(v js.Value, name string) (int, error) {
	f, err := ToFloat(v, name)
	if err != nil {
		return 0, err
	}
	if math.IsNaN(f) || math.IsInf(f, 0) || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, fmt.Errorf("%s: expected an integer, got %v", name, f)
	}
	return int(f), nil
}

func typeName(v js.Value) string {
	if v.IsNull() {
		return "null"
	}
	if v.Type() == js.TypeObject && js.Global().Get("Array").Call("isArray", v).Bool() {
		return "an array"
	}
	return v.Type().String()
}

// ToMatrix converts a nested array or {rows, cols, data} into a *mat.Dense. The loader's
// toMatrix helper flattens it into one Float64Array first, so the copy into Go is a single bulk
// copy. Empty matrices are refused here, with the argument named.
func ToMatrix(v js.Value, name string) (*mat.Dense, error) {
	f := helpers.Call("toMatrix", v)
	if e := f.Get("error"); !e.IsUndefined() {
		return nil, fmt.Errorf("%s: %s", name, e.String())
	}
	r, c := f.Get("rows").Int(), f.Get("cols").Int()
	// Check the size before allocating; the JS helper has already matched data to rows×cols.
	if err := CheckFlatDims(name, r, c); err != nil {
		return nil, err
	}
	data := scratch.take(r * c)
	copyFloatsToGo(data, f.Get("data"))
	return FlatMatrix(name, r, c, data)
}

// ToVector converts an array or typed array of numbers.
func ToVector(v js.Value, name string) ([]float64, error) {
	f := helpers.Call("toVector", v)
	if f.Type() == js.TypeString {
		return nil, fmt.Errorf("%s: %s", name, f.String())
	}
	n := f.Get("length").Int()
	if n > maxEntries {
		return nil, fmt.Errorf("%s: %d entries, more than the limit of %d", name, n, maxEntries)
	}
	out := make([]float64, n)
	copyFloatsToGo(out, f)
	return out, nil
}

// copyFloatsToGo copies a Float64Array into dst with one bulk copy.
func copyFloatsToGo(dst []float64, f64 js.Value) {
	if len(dst) == 0 {
		return
	}
	u8 := js.Global().Get("Uint8Array").New(f64.Get("buffer"), f64.Get("byteOffset"), f64.Get("byteLength"))
	js.CopyBytesToGo(unsafe.Slice((*byte)(unsafe.Pointer(&dst[0])), 8*len(dst)), u8)
}

// Vec converts a vector into a new Float64Array with one bulk copy.
func Vec(x []float64) js.Value {
	u8 := js.Global().Get("Uint8Array").New(8 * len(x))
	if len(x) > 0 {
		js.CopyBytesToJS(u8, unsafe.Slice((*byte)(unsafe.Pointer(&x[0])), 8*len(x)))
	}
	return js.Global().Get("Float64Array").New(u8.Get("buffer"))
}

// Mat converts a matrix into {rows, cols, data: Float64Array} (row-major).
func Mat(m mat.Matrix) js.Value {
	r, c := m.Dims()
	var data []float64
	if d, ok := m.(*mat.Dense); ok {
		raw := d.RawMatrix()
		if raw.Stride == c {
			data = raw.Data[:r*c]
		}
	}
	if data == nil {
		data = make([]float64, r*c)
		for i := 0; i < r; i++ {
			for j := 0; j < c; j++ {
				data[i*c+j] = m.At(i, j)
			}
		}
	}
	o := js.Global().Get("Object").New()
	o.Set("rows", r)
	o.Set("cols", c)
	o.Set("data", Vec(data))
	return o
}

// Ints converts a slice of ints to a JS array.
func Ints(x []int) []any {
	out := make([]any, len(x))
	for i, v := range x {
		out[i] = v
	}
	return out
}

// scratch holds the buffers that input matrices are copied into, reused from call to call.
// Allocating, zeroing and later collecting 32 MB for a 2000×2000 channel on every call cost more
// than the copy itself. Reuse is safe because every binding converts its results to JS values
// (Mat, Vec copy) before returning and core keeps no reference to its inputs across calls.
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
