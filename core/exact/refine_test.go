package exact

import (
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/qif-toolkit/qif/core/measure"
	"github.com/qif-toolkit/qif/core/refine"
)

// checkAvg checks a verdict from its own evidence: a witness must be a channel with A·R = B
// exactly; a counterexample's vulnerabilities are recomputed here, in exact arithmetic and in
// floating point, and B's must be larger.
func checkAvg(t *testing.T, name string, A, B *Matrix, res *AvgResult) {
	t.Helper()
	if res.Holds {
		if err := ValidateChannel("witness", res.Witness); err != nil || !equalMatrices(mustMul(A, res.Witness), B) {
			t.Fatalf("%s: witness fails (%v)", name, err)
		}
		return
	}
	ce := res.Counterexample
	if ce == nil {
		t.Fatalf("%s: neither witness nor counterexample", name)
	}
	for _, g := range ce.Gain.Data {
		if g.Sign() < 0 || g.Cmp(big.NewRat(2, 1)) > 0 {
			t.Fatalf("%s: gain entry %s outside [0, 2]", name, g.RatString())
		}
	}
	va, _ := PosteriorGVulnerability(ce.Gain, ce.Prior, A)
	vb, _ := PosteriorGVulnerability(ce.Gain, ce.Prior, B)
	if va.Cmp(ce.VulnerabilityA) != 0 || vb.Cmp(ce.VulnerabilityB) != 0 || vb.Cmp(va) <= 0 {
		t.Fatalf("%s: V_g[A] = %s, V_g[B] = %s", name, va.RatString(), vb.RatString())
	}
	fa, _ := measure.PosteriorGVulnerability(dense(ce.Gain), ce.Prior.Floats(), dense(A))
	fb, _ := measure.PosteriorGVulnerability(dense(ce.Gain), ce.Prior.Floats(), dense(B))
	near(t, name+" V_g[A]", va, fa)
	near(t, name+" V_g[B]", vb, fb)
}

func TestRefineAvgByHand(t *testing.T) {
	id := mtx(row("1", "0"), row("0", "1"))
	half := mtx(row("1/2", "1/2"), row("1/2", "1/2"))
	res, err := RefineAvg(id, half, nil)
	if err != nil || !res.Holds || strings.Join(res.Witness.Strings(), " ") != "1/2 1/2 1/2 1/2" {
		t.Fatalf("identity ⊑ uniform: %v %+v", err, res)
	}
	checkAvg(t, "id ⊑ half", id, half, res)
	res, err = RefineAvg(half, id, nil)
	if err != nil || res.Holds {
		t.Fatalf("uniform ⋢ identity: %v %+v", err, res)
	}
	checkAvg(t, "half ⋢ id", half, id, res)
	// Zero and proportional columns of A; B merges them.
	A := mtx(row("1/4", "0", "1/4", "1/2"), row("1/8", "0", "1/8", "3/4"))
	B := mtx(row("1/2", "1/2"), row("1/4", "3/4"))
	res, err = RefineAvg(A, B, nil)
	if err != nil || !res.Holds {
		t.Fatalf("A ⊑ reduced A: %v %+v", err, res)
	}
	checkAvg(t, "reduced", A, B, res)
}

// On random channels the exact verdict agrees with the floating-point one, and every verdict
// carries evidence that checkAvg accepts. Half of the pairs are B = A·R by construction.
func TestRefineAvgRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	holds := 0
	for trial := 0; trial < 60; trial++ {
		n, ma, mb := 1+rng.IntN(5), 1+rng.IntN(5), 1+rng.IntN(5)
		A := randomChannel(rng, n, ma, 6, true)
		var B *Matrix
		if trial%2 == 0 {
			B = mustMul(A, randomChannel(rng, ma, mb, 4, true))
		} else {
			B = randomChannel(rng, n, mb, 6, true)
		}
		res, err := RefineAvg(A, B, nil)
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		checkAvg(t, "random", A, B, res)
		if trial%2 == 0 && !res.Holds {
			t.Fatalf("trial %d: B = A·R by construction, but no witness", trial)
		}
		fl, err := refine.Avg(dense(A), dense(B))
		if err != nil {
			t.Fatal(err)
		}
		if fl.Holds != res.Holds {
			t.Errorf("trial %d: exact %v, floating point %v (residual %g)", trial, res.Holds, fl.Holds, fl.Residual)
		}
		if res.Holds {
			holds++
		}
	}
	if holds < 30 {
		t.Errorf("only %d pairs hold", holds)
	}
}

func TestRefineAvgErrors(t *testing.T) {
	if _, err := RefineAvg(mtx(row("1")), mtx(row("1"), row("1")), nil); err == nil || !strings.Contains(err.Error(), "B: has 2 rows") {
		t.Errorf("rows: %v", err)
	}
	if _, err := RefineAvg(mtx(row("1/2", "1/3")), mtx(row("1")), nil); err == nil || !strings.Contains(err.Error(), "A: row 0 sums to 5/6") {
		t.Errorf("sum: %v", err)
	}
	wide := NewMatrix(1, 60)
	for _, r := range wide.Data {
		r.SetFrac64(1, 60)
	}
	if _, err := RefineAvg(wide, wide, nil); err == nil || !strings.Contains(err.Error(), "limit") {
		t.Errorf("size: %v", err)
	}
}

// RefineAvg reports the start of each stage and stops where the callback says so.
func TestRefineAvgProgress(t *testing.T) {
	A := mtx(row("1", "0"), row("0", "1"))
	B := mtx(row("1/2", "1/2"), row("1/2", "1/2"))
	for _, stop := range []string{"", "floating point", "exact"} {
		var stages []string
		res, err := RefineAvg(A, B, &RefineOptions{Progress: func(p MechanismProgress) bool {
			stages = append(stages, p.Stage)
			return p.Stage != stop
		}})
		switch {
		case stop == "" && (err != nil || !res.Holds || strings.Join(stages, ", ") != "floating point, exact"):
			t.Errorf("no cancel: %v, %v, stages %q", res, err, stages)
		case stop != "" && (err == nil || !strings.Contains(err.Error(), "cancelled before the") || stages[len(stages)-1] != stop):
			t.Errorf("cancel at %q: %v after %q", stop, err, stages)
		}
	}
}
