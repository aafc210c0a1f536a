package mechanism

import (
	"fmt"
	"math"

	"github.com/qif-toolkit/qif/core/argerr"
	"github.com/qif-toolkit/qif/core/channel"
)

// checkEpsilon refuses ε that is NaN, not positive, or infinite, naming the argument.
func checkEpsilon(eps float64) error {
	switch {
	case math.IsNaN(eps):
		return argerr.New("epsilon", "is NaN, expected a positive number")
	case eps <= 0:
		return argerr.New("epsilon", "must be positive, got %g", eps)
	case math.IsInf(eps, 1):
		return argerr.New("epsilon", "must be finite, got +Inf (ε = ∞ is no privacy at all)")
	}
	return nil
}

// checkSize refuses n < 1, m < 1 and n×m matrices with more than channel.MaxEntries entries.
func checkSize(n, m int) error {
	if n < 1 {
		return argerr.New("n", "must be at least 1, got %d", n)
	}
	if m < 1 {
		return argerr.New("m", "must be at least 1, got %d", m)
	}
	if float64(n)*float64(m) > channel.MaxEntries {
		return fmt.Errorf("n, m: a %d×%d mechanism has %.3g entries, more than the limit of %d",
			n, m, float64(n)*float64(m), channel.MaxEntries)
	}
	return nil
}
