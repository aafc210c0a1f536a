package table

import (
	"fmt"
	"reflect"
	"slices"
	"sort"

	"github.com/qif-toolkit/qif/core/argerr"
)

// KindDecoder turns the Kind.Width() wire values of one parameter, never all absent, into the Go
// value Call reads (Args.Get, Args.Graph, Args.Samples, ...).
type KindDecoder func(p *Param, raw []Raw) (any, error)

// The interpreter reads the kinds every module may take itself (decodeValue); a kind that only
// some modules take is decoded by a KindDecoder that those modules register, each for the kinds
// its own functions take. A module's WebAssembly binary thus links the decoders, and the core
// packages behind them, of its own kinds only: the first module, which takes none of them,
// links neither the LP problem's decoder (core/lp) nor the graph's nor the samples'. The wire
// width of every kind stays here (Kind.Width), since it is the contract with web/qif.js, one
// loader for all modules.
var registered = map[Kind]*registration{}

type registration struct {
	decode  KindDecoder
	modules []string
}

// builtin lists the kinds decodeValue reads itself.
var builtin = []Kind{KindNumber, KindInteger, KindBoolean, KindEnum, KindString, KindEvents, KindVector,
	KindIndices, KindMatrix, KindCallback, KindOptions, KindObject}

// RegisterKind installs decode for kinds, on behalf of the module named (called from the init
// of the module's package). Two modules may register one kind with the same decoder (the graph,
// DecodeGraph); with another decoder it panics, since one binary would then read the kind two ways.
func RegisterKind(module string, decode KindDecoder, kinds ...Kind) {
	for _, k := range kinds {
		if slices.Contains(builtin, k) {
			panic(fmt.Sprintf("table.RegisterKind: %s is read by the interpreter itself", k))
		}
		r := registered[k]
		if r == nil {
			r = &registration{decode: decode}
			registered[k] = r
		} else if reflect.ValueOf(r.decode).Pointer() != reflect.ValueOf(decode).Pointer() {
			panic(fmt.Sprintf("table.RegisterKind: module %s registers another decoder of %s than module %s", module, k, r.modules[0]))
		}
		if !slices.Contains(r.modules, module) {
			r.modules = append(r.modules, module)
		}
	}
}

// Decodable reports whether a parameter of kind k can be decoded for module: a kind the
// interpreter reads itself, or one that the module has registered.
func Decodable(module string, k Kind) bool {
	if slices.Contains(builtin, k) {
		return true
	}
	r := registered[k]
	return r != nil && slices.Contains(r.modules, module)
}

// Registered lists the kinds that module has registered, sorted.
func Registered(module string) []Kind {
	var out []Kind
	for k, r := range registered {
		if slices.Contains(r.modules, module) {
			out = append(out, k)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// Decode reads the wire values of one parameter by its kind: for a module's decoder that reads
// its kind through another (samples given as a matrix, one row per sample).
func Decode(p *Param, raw []Raw) (any, error) { return decodeValue(p, raw) }

// DecodeGraph is the decoder of KindGraph, (n, edge bytes) → *graph.Graph, which the modules
// whose functions take a graph register.
func DecodeGraph(p *Param, raw []Raw) (any, error) {
	if raw[0].Type != RawNumber || raw[1].Type != RawFloats {
		return nil, argerr.New(p.ArgName(), "expected a graph {n, edges}")
	}
	return FlatGraph(p.ArgName(), raw[0].Num, raw[1].Floats)
}
