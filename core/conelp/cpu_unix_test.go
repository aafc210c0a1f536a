//go:build unix

package conelp

import (
	"math"
	"syscall"
)

// cpuSeconds is the process's user and system CPU time: on a machine shared with other work the
// wall time of a benchmark is several times its CPU time.
func cpuSeconds() float64 {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return math.NaN()
	}
	return float64(u.Utime.Sec+u.Stime.Sec) + float64(u.Utime.Usec+u.Stime.Usec)*1e-6
}
