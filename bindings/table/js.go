//go:build js && wasm

package table

import (
	"errors"
	"fmt"
	"os"
	"sort"
	"unsafe"

	"github.com/qif-toolkit/qif/core/argerr"
	"github.com/qif-toolkit/qif/core/graph"
	"gonum.org/v1/gonum/mat"
	"syscall/js"
)

// The JS side of the interpreter: web/qif.js turns every argument into wire values by the kinds
// of the table (numbers, strings, booleans, functions and byte arrays, never a caller's object),
// calls the one dispatcher exported here with the function's index, and throws what comes back
// as a Failure. Everything between reading the wire values and encoding the result is plain Go
// (Func.Invoke in args.go).

var (
	uint8Array   = js.Global().Get("Uint8Array")
	float64Array = js.Global().Get("Float64Array")
	int32Array   = js.Global().Get("Int32Array")
	object       = js.Global().Get("Object")
	failure      js.Value // the loader's Failure class: new Failure(message, name, partial, argument, index, detail, fields)
	split        js.Value // the loader's split(text): the list of strings joined by commas in text
	splitRows    js.Value // the loader's splitRows(text, cols): the rows of a StringRows
	splitLabels  js.Value // the loader's splitLabels(text, n): the strings of a LabelText
)

// Serve is the body of a WebAssembly entry point (wasm/main.go, wasm/exact/main.go): it hands
// the module's API object to the loader and blocks forever, so that the functions stay callable.
//
// The loader (web/qif.js) sets QIF_EXPORT to the name of a global callback before running the
// module; Serve calls it with null to receive the loader's helpers ({Failure, split}), then with
// the API object {names, call, version}. A callback name chosen by the loader lets several
// instances live side by side in one JS realm.
func Serve(m *Module) {
	name := os.Getenv("QIF_EXPORT")
	if name == "" {
		name = "__qifExport"
	}
	cb := js.Global().Get(name)
	if cb.Type() != js.TypeFunction {
		println("qif: no loader callback", name, "- load the module through web/qif.js")
		return
	}
	api := m.Export(cb.Invoke(js.Null()))
	api.Set("version", Version)
	cb.Invoke(api)
	select {}
}

// Export builds what the loader receives: {names: ["ns.name", ...], call}. names lists the
// module's table in wire order, so that the loader can check that the module and its generated
// JS come from the same table; call(id, ...wire) runs function id. helpers is the loader's
// object {Failure, split}.
func (m *Module) Export(helpers js.Value) js.Value {
	failure, split = helpers.Get("Failure"), helpers.Get("split")
	splitRows, splitLabels = helpers.Get("splitRows"), helpers.Get("splitLabels")
	fs := m.Functions()
	names := make([]any, len(fs))
	for i, f := range fs {
		names[i] = f.Qualified()
	}
	api := object.New()
	api.Set("names", js.ValueOf(names))
	api.Set("call", js.FuncOf(func(_ js.Value, args []js.Value) any { return dispatch(fs, args) }))
	return api
}

func dispatch(fs []*Func, args []js.Value) (out any) {
	if len(args) == 0 || args[0].Type() != js.TypeNumber || args[0].Int() < 0 || args[0].Int() >= len(fs) {
		return failure.New("qif: unknown function id", "Error")
	}
	f := fs[args[0].Int()]
	scratch.begin()
	defer scratch.end()
	defer func() { // Invoke recovers from the function's panics; this, from reading and encoding
		if r := recover(); r != nil {
			out = failure.New(fmt.Sprintf("%s: internal error: %v", f.Qualified(), r), "Error")
		}
	}()
	var raw []Raw
	if len(args) > 1 {
		raw = make([]Raw, len(args)-1)
		for i, v := range args[1:] {
			raw[i] = rawOf(v)
		}
	}
	res, err := f.Invoke(raw)
	if c, ok := err.(*Cancelled); ok {
		return failure.New(c.Error(), "AbortError", encode(c.Partial))
	}
	if err != nil {
		var ae *argerr.Error
		if errors.As(err, &ae) {
			return failure.New(err.Error(), "Error", js.Undefined(), ae.Arg, indexValue(ae.Index), ae.Detail)
		}
		var fe FieldsError
		if errors.As(err, &fe) {
			return failure.New(err.Error(), "Error", js.Undefined(), js.Undefined(), js.Undefined(), js.Undefined(), encode(Obj(fe.ErrorFields())))
		}
		return failure.New(err.Error(), "Error")
	}
	return encode(res)
}

// indexValue is an argerr.Error's Index as error.index: undefined, a number, or [row, column].
func indexValue(index []int) any {
	switch len(index) {
	case 0:
		return js.Undefined()
	case 1:
		return index[0]
	}
	out := make([]any, len(index))
	for i, k := range index {
		out[i] = k
	}
	return out
}

// rawOf reads one wire value. A Uint8Array is copied into Go as float64s with one bulk copy.
func rawOf(v js.Value) Raw {
	switch v.Type() {
	case js.TypeNumber:
		return Raw{Type: RawNumber, Num: v.Float()}
	case js.TypeBoolean:
		return Raw{Type: RawBool, Bool: v.Bool()}
	case js.TypeString:
		return Raw{Type: RawString, Str: v.String()}
	case js.TypeFunction:
		// The loader's adapter returns a boolean: false when the caller's function returned
		// false (or threw, which the loader rethrows after the call).
		// Or, for coded labels, the loader's function that returns their names (labels.go).
		return Raw{Type: RawFunc, Fn: func(args ...any) bool { return v.Invoke(args...).Bool() },
			Text: func() (string, bool) {
				t := v.Invoke()
				return t.String(), t.Type() == js.TypeString
			}}
	case js.TypeObject:
		if v.InstanceOf(uint8Array) {
			n := v.Length()
			if n%8 != 0 || n/8 > MaxEntries {
				return Raw{Type: RawObject}
			}
			dst := scratch.take(n / 8)
			if n > 0 {
				js.CopyBytesToGo(unsafe.Slice((*byte)(unsafe.Pointer(&dst[0])), n), v)
			}
			return Raw{Type: RawFloats, Floats: dst}
		}
		if v.InstanceOf(int32Array) { // coded labels: copied as bytes
			n := v.Length()
			if n > MaxEntries {
				return Raw{Type: RawObject}
			}
			dst := make([]int32, n)
			if n > 0 {
				src := uint8Array.New(v.Get("buffer"), v.Get("byteOffset"), 4*n)
				js.CopyBytesToGo(unsafe.Slice((*byte)(unsafe.Pointer(&dst[0])), 4*n), src)
			}
			return Raw{Type: RawInts, Ints: dst}
		}
		return Raw{Type: RawObject, Obj: jsObject{v}}
	}
	return Raw{}
}

type jsObject struct{ v js.Value }

func (o jsObject) Number(key string) (float64, bool) {
	x := o.v.Get(key)
	if x.Type() != js.TypeNumber {
		return 0, false
	}
	return x.Float(), true
}

// encode converts a result into a JS value: numbers, booleans and strings as they are, nil as
// null, Strings as an array of strings, []float64 as a Float64Array, []int32 as an Int32Array and a matrix as {rows, cols, data: Float64Array} (both one
// bulk copy), []int and [][]int as arrays, a graph as {n, edges}, Obj as an object (keys in
// alphabetical order) and []any element by element.
func encode(v any) any {
	switch x := v.(type) {
	case nil, float64, int, bool, string:
		return x
	case []float64:
		return floats(x)
	case []int:
		return intList(x)
	case []int32:
		return int32s(x)
	case Strings:
		return split.Invoke(string(x))
	case StringRows:
		return splitRows.Invoke(x.Text, x.Cols)
	case LabelText:
		return splitLabels.Invoke(x.Text, x.N)
	case [][]int:
		out := make([]any, len(x))
		for i, r := range x {
			out[i] = intList(r)
		}
		return out
	case *mat.Dense:
		return matrix(x)
	case *graph.Graph:
		return graphValue(x)
	case Obj:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		o := object.New()
		for _, k := range keys {
			o.Set(k, encode(x[k]))
		}
		return o
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = encode(e)
		}
		return out
	}
	panic(fmt.Sprintf("bindings: cannot encode a %T", v))
}

// floats converts a vector into a new Float64Array with one bulk copy.
func floats(x []float64) js.Value {
	u8 := uint8Array.New(8 * len(x))
	if len(x) > 0 {
		js.CopyBytesToJS(u8, unsafe.Slice((*byte)(unsafe.Pointer(&x[0])), 8*len(x)))
	}
	return float64Array.New(u8.Get("buffer"))
}

// int32s converts indices into a new Int32Array with one bulk copy.
func int32s(x []int32) js.Value {
	u8 := uint8Array.New(4 * len(x))
	if len(x) > 0 {
		js.CopyBytesToJS(u8, unsafe.Slice((*byte)(unsafe.Pointer(&x[0])), 4*len(x)))
	}
	return int32Array.New(u8.Get("buffer"))
}

func intList(x []int) js.Value {
	out := make([]any, len(x))
	for i, v := range x {
		out[i] = v
	}
	return js.ValueOf(out)
}

// matrix converts a matrix into {rows, cols, data: Float64Array} (row-major).
func matrix(m *mat.Dense) js.Value {
	r, c := m.Dims()
	raw := m.RawMatrix()
	data := raw.Data
	if raw.Stride != c {
		data = make([]float64, 0, r*c)
		for i := 0; i < r; i++ {
			data = append(data, raw.Data[i*raw.Stride:i*raw.Stride+c]...)
		}
	}
	o := object.New()
	o.Set("rows", r)
	o.Set("cols", c)
	o.Set("data", floats(data[:r*c]))
	return o
}

// graphValue converts g into {n, edges: [[a,b], ...]}, each edge once with a < b, sorted.
func graphValue(g *graph.Graph) js.Value {
	es := g.Edges()
	arr := make([]any, len(es))
	for k, e := range es {
		arr[k] = []any{e.A, e.B}
	}
	o := object.New()
	o.Set("n", g.N)
	o.Set("edges", js.ValueOf(arr))
	return o
}
