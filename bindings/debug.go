//go:build js && wasm

package bindings

// qif.debug holds functions that exist to measure the bindings themselves (benchmarks use
// them to separate the cost of crossing the boundary from the cost of computing).
func init() {
	// marshal(M) copies a matrix into Go and returns its number of entries: the marshaling cost
	// of any function taking that matrix, with nothing computed.
	Register("debug", "marshal", func(a *Args) (any, error) {
		m, err := a.Matrix(0, "M")
		if err != nil {
			return nil, err
		}
		r, c := m.Dims()
		return r * c, nil
	})
	// noop() returns 0: the fixed cost of one call.
	Register("debug", "noop", func(a *Args) (any, error) { return 0, nil })
}

func init() {
	// syscalls(k) performs k property reads on a JS object: the cost of one boundary crossing.
	Register("debug", "syscalls", func(a *Args) (any, error) {
		k, err := a.Int(0, "k")
		if err != nil {
			return nil, err
		}
		o := a.Value(1)
		s := 0
		for i := 0; i < k; i++ {
			s += o.Get("x").Int()
		}
		return s, nil
	})
}
