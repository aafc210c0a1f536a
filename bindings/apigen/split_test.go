package main

import (
	"strings"
	"testing"
)

// The channel namespace is declared in two packages (one per module); split states once which
// module serves each of its functions, and checkSplit holds the tables to it.
func TestSplitAgreesWithTheTables(t *testing.T) {
	if err := checkSplit(); err != nil {
		t.Fatal(err)
	}
	// Every channel function is in split exactly once, and its module is the one api.gen.js states.
	seen := map[string]int{}
	for _, f := range functions() {
		if f.NS != "channel" {
			continue
		}
		seen[f.Name]++
		if got, want := splitModule(f), moduleOf(f); got != want {
			t.Errorf("channel.%s: split says %q, the tables %q", f.Name, got, want)
		}
	}
	if len(seen) != 10 || seen["factorize"] != 1 || seen["validate"] != 1 {
		t.Errorf("channel functions: %v", seen)
	}
	data := string(Generate()["web/api.gen.js"])
	if !strings.Contains(data, `modules: {"exact":"qif-exact.wasm","main":"qif.wasm","more":"qif-more.wasm"},`) ||
		!strings.Contains(data, `{"ns":"channel","name":"factorize","module":"more",`) {
		t.Error("api.gen.js does not state the modules as expected")
	}
}

// checkSplit fails on each way split and the tables can disagree: a function moved to the other
// module, one missing from split, one listed that no module declares, one listed twice.
func TestSplitRefusesDisagreement(t *testing.T) {
	saved := split
	defer func() { split = saved }()
	for _, c := range []struct {
		name  string
		split []servedBy
		want  string
	}{
		{"moved", []servedBy{{"channel", "more", []string{"cascade", "hyper", "iterativeBayesianUpdate", "parallel", "reduce", "validate"}},
			{"channel", "more", []string{"factorize", "fromMetric", "leftFactorize", "sample"}}},
			"channel.cascade is declared in module main, but split says more serves it"},
		{"missing", []servedBy{{"channel", "main", []string{"cascade", "hyper", "iterativeBayesianUpdate", "parallel", "reduce", "validate"}},
			{"channel", "more", []string{"factorize", "fromMetric", "leftFactorize"}}},
			"channel.sample (module more) is missing from split"},
		{"unknown", []servedBy{{"channel", "main", []string{"cascade", "hyper", "iterativeBayesianUpdate", "parallel", "reduce", "validate", "entropy"}},
			{"channel", "more", []string{"factorize", "fromMetric", "leftFactorize", "sample"}}},
			"channel.entropy is listed in split but declared by no module"},
		{"twice", []servedBy{{"channel", "main", []string{"cascade", "hyper", "iterativeBayesianUpdate", "parallel", "reduce", "validate"}},
			{"channel", "more", []string{"factorize", "fromMetric", "leftFactorize", "sample", "sample"}}},
			"channel.sample is listed twice in split"},
		{"none", nil, "namespace channel is served by more than one module"},
	} {
		split = c.split
		err := checkSplit()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
	}
}
