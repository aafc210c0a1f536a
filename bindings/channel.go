//go:build js && wasm

package bindings

import "github.com/qif-toolkit/qif/core/channel"

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
}
