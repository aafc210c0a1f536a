package bindings

import "errors"

// qif.debug holds functions that measure the bindings themselves: benchmarks use them to
// separate the cost of crossing the boundary from the cost of computing.
var debugAPI = []Func{
	{NS: "debug", Name: "marshal", Params: []*Param{{Name: "M", Kind: KindMatrix, Doc: "any matrix"}}, Result: Number,
		Doc: "Copies a matrix into Go and returns its number of entries (marshaling cost only).",
		Call: func(a *Args) (any, error) {
			r, c := a.Mat("M").Dims()
			return r * c, nil
		}},
	{NS: "debug", Name: "noop", Result: Number, Doc: "Returns 0: the fixed cost of one call.",
		Call: func(*Args) (any, error) { return 0, nil }},
	{NS: "debug", Name: "syscalls", Params: []*Param{{Name: "k", Kind: KindInteger, Check: CheckNonNegative, Doc: "number of reads"},
		{Name: "o", Kind: KindObject, Doc: "an object {x: number}"}}, Result: Number,
		Doc: "Reads o.x k times from Go and returns the sum: the cost of k boundary crossings.",
		Call: func(a *Args) (any, error) {
			o, _ := a.Get("o").(Object)
			s := 0.0
			for i := 0; i < a.Int("k"); i++ {
				x, ok := o.Number("x")
				if !ok {
					return nil, errors.New("o.x: expected a number")
				}
				s += x
			}
			return s, nil
		}},
}
