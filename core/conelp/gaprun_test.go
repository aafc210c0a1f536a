package conelp

import (
	"context"
	"math"
	"os"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/qif-toolkit/qif/core/lp"
)

// TestGapRun (CONELP_GAP=geo20s1.1 CONELP_CPU=600s go test ./core/conelp -run GapRun -v
// -timeout 0) solves one location map with a cap on the process's CPU time, logging the
// certified relative gap |bound − value|/|value| at every progress report and the CPU
// seconds at which it first fell to 1e−2, 1e−4 and 1e−6. The name is bench/lp/bench.mjs's:
// geo<side>[s<δ>][u][e<ε>] (every pair, or a δ-spanner; hot spots, or the uniform prior;
// ε = 0.5 unless given). The cap is CPU time, not wall time, because the machine it was
// written for is shared: a watcher cancels the solve's context once the process has used
// CONELP_CPU (default 10 minutes). Skipped unless CONELP_GAP is set.
func TestGapRun(t *testing.T) {
	name := os.Getenv("CONELP_GAP")
	if name == "" {
		t.Skip("set CONELP_GAP to a map such as geo20s1.1 (and CONELP_CPU to a cap such as 600s)")
	}
	p := geoByName(t, name)
	p.design = parseDesign(t, os.Getenv("CONELP_DESIGN"))
	if os.Getenv("CONELP_TRACE_ROUNDS") != "" {
		p.design.trace = t.Logf
	}
	cpuCap := 10 * time.Minute
	if s := os.Getenv("CONELP_CPU"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			t.Fatal(err)
		}
		cpuCap = d
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cpu0 := cpuSeconds()
	go func() {
		for ctx.Err() == nil {
			if cpuSeconds()-cpu0 > cpuCap.Seconds() {
				cancel()
				return
			}
			time.Sleep(200 * time.Millisecond)
		}
	}()
	wall0 := time.Now()
	marks := []float64{1e-2, 1e-4, 1e-6}
	reached := make([]float64, len(marks))
	for i := range reached {
		reached[i] = math.NaN()
	}
	best := math.Inf(1)
	progress := func(pr lp.Progress) bool {
		g := relGap(pr.Objective, pr.Bound)
		cpu := cpuSeconds() - cpu0
		if g < best {
			best = g
			t.Logf("cpu %7.1fs wall %7.1fs %-17s value %.10g bound %.10g rel gap %.3g pivots %d",
				cpu, time.Since(wall0).Seconds(), pr.Phase, pr.Objective, pr.Bound, g, pr.Iteration)
		}
		for i, m := range marks {
			if g <= m && math.IsNaN(reached[i]) {
				reached[i] = cpu
			}
		}
		return true
	}
	r, err := Solve(p, &lp.Options{Context: ctx, Progress: progress})
	if err != nil {
		t.Fatal(err)
	}
	cpu := cpuSeconds() - cpu0
	g := relGap(r.Objective, r.Bound)
	for i, m := range marks {
		if g <= m && math.IsNaN(reached[i]) {
			reached[i] = cpu
		}
	}
	t.Logf("%s: %v after %.1f CPU s (%.1f s wall): value %.12g bound %.12g rel gap %.3g; rounds %d pivots %d outputs %d pairs %d/%d",
		name, r.Status, cpu, time.Since(wall0).Seconds(), r.Objective, r.Bound, g, r.Rounds, r.Iterations, r.Outputs, r.Pairs, len(p.Pairs))
	t.Logf("%s: CPU s to rel gap 1e-2 %.1f, 1e-4 %.1f, 1e-6 %.1f (NaN: not reached)", name, reached[0], reached[1], reached[2])
}

// relGap is the certified relative gap between a feasible value and a bound (+Inf before the
// first bound).
func relGap(value, bound float64) float64 {
	if math.IsInf(bound, 0) || math.IsNaN(bound) {
		return math.Inf(1)
	}
	return math.Abs(bound-value) / math.Max(math.Abs(value), 1e-300)
}

// geoByName builds the location map named as bench/lp/bench.mjs names them:
// geo<side>[s<δ>][u][e<ε>].
func geoByName(t *testing.T, name string) *Problem {
	m := regexp.MustCompile(`^geo(\d+)(?:s([\d.]+))?(u)?(?:e([\d.]+))?$`).FindStringSubmatch(name)
	if m == nil {
		t.Fatalf("not a map name: %q", name)
	}
	side, _ := strconv.Atoi(m[1])
	eps := 0.5
	if m[4] != "" {
		eps, _ = strconv.ParseFloat(m[4], 64)
	}
	var p *Problem
	if m[2] != "" {
		delta, _ := strconv.ParseFloat(m[2], 64)
		p = geoSpanner(side, eps, delta)
	} else {
		p = geoProblem(side, eps)
	}
	if m[3] != "" {
		p = uniformPrior(p, side)
	}
	return p
}
