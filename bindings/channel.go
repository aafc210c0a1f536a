//go:build js && wasm

package bindings

import (
	"github.com/qif-toolkit/qif/core/channel"
	"gonum.org/v1/gonum/mat"
)

func init() {
	Register("channel", "validate", func(a *Args) (any, error) {
		c, err := a.Matrix(0, "channel")
		if err != nil {
			return nil, err
		}
		if err := channel.Validate(c); err != nil {
			return nil, err
		}
		return true, nil
	})
	Register("channel", "hyper", func(a *Args) (any, error) {
		prior, err := a.Vector(0, "prior")
		if err != nil {
			return nil, err
		}
		c, err := a.Matrix(1, "channel")
		if err != nil {
			return nil, err
		}
		h, err := channel.Hyper(prior, c)
		if err != nil {
			return nil, err
		}
		return map[string]any{"outer": Vec(h.Outer), "inners": Mat(h.Inners)}, nil
	})
	Register("channel", "reduce", func(a *Args) (any, error) {
		c, err := a.Matrix(0, "channel")
		if err != nil {
			return nil, err
		}
		r, err := channel.Reduce(c)
		if err != nil {
			return nil, err
		}
		return Mat(r), nil
	})
	Register("channel", "cascade", binaryChannelOp(channel.Cascade))
	Register("channel", "parallel", binaryChannelOp(channel.Parallel))
}

// binaryChannelOp binds a composition f(A, B) of two channels.
func binaryChannelOp(f func(a, b mat.Matrix) (*mat.Dense, error)) Func {
	return func(a *Args) (any, error) {
		A, err := a.Matrix(0, "A")
		if err != nil {
			return nil, err
		}
		B, err := a.Matrix(1, "B")
		if err != nil {
			return nil, err
		}
		r, err := f(A, B)
		if err != nil {
			return nil, err
		}
		return Mat(r), nil
	}
}
