//go:build !unix

package conelp

import "math"

// cpuSeconds is not measured where getrusage is missing: the benchmarks report NaN.
func cpuSeconds() float64 { return math.NaN() }
