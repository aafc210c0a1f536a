package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/qif-toolkit/qif/bindings"
)

// moduleFiles names the file of each module, as the build writes it beside qif.js (written
// into web/api.gen.js as API.modules, which web/qif.js and the reference read).
var moduleFiles = map[string]string{"main": "qif.wasm", "more": "qif-more.wasm", "exact": "qif-exact.wasm"}

// servedBy lists functions of one namespace that one module serves.
type servedBy struct {
	NS, Module string
	Names      []string
}

// split states, once, which module serves each function of a namespace that more than one
// module serves (only channel: the first module serves what a page showing a channel needs,
// the second the functions that search for a channel by linear programming or draw samples).
//
// The functions themselves are declared, as Func, in the package of their module:
// bindings/api_channel.go for qif.wasm, bindings/moreapi/api_channel.go for qif-more.wasm. They
// cannot share one file, because each WebAssembly binary links the package of its own table and
// everything that package imports: one file declaring both halves would link the LP solver and
// the samplers into qif.wasm, the module a lesson downloads before its first number. Instead,
// checkSplit (run before anything is generated, and by the package's test) fails unless every
// function listed here is declared exactly once, in the module named, and every function of a
// namespace served by more than one module is listed here.
var split = []servedBy{
	{NS: "channel", Module: "main", Names: []string{"cascade", "hyper", "iterativeBayesianUpdate", "parallel", "reduce", "validate"}},
	{NS: "channel", Module: "more", Names: []string{"factorize", "fromMetric", "leftFactorize", "sample"}},
}

// splitModule is the module split names for a function, or "" when its namespace is not split.
func splitModule(f *bindings.Func) string {
	for _, s := range split {
		if s.NS == f.NS && contains(s.Names, f.Name) {
			return s.Module
		}
	}
	return ""
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// checkSplit compares split with the modules' tables: nil when they agree, else an error listing
// every disagreement.
func checkSplit() error {
	declared := map[string][]string{} // "ns.name" → the modules declaring it
	servers := map[string]map[string]bool{}
	for _, m := range modules {
		for _, f := range m.Functions() {
			declared[f.Qualified()] = append(declared[f.Qualified()], m.Name)
			if servers[f.NS] == nil {
				servers[f.NS] = map[string]bool{}
			}
			servers[f.NS][m.Name] = true
		}
	}
	var problems []string
	listed := map[string]bool{}
	isSplit := map[string]bool{}
	for _, s := range split {
		isSplit[s.NS] = true
		if _, ok := moduleFiles[s.Module]; !ok {
			problems = append(problems, fmt.Sprintf("split names an unknown module %q", s.Module))
		}
		for _, n := range s.Names {
			q := s.NS + "." + n
			if listed[q] {
				problems = append(problems, q+" is listed twice in split")
			}
			listed[q] = true
			switch d := declared[q]; {
			case len(d) == 0:
				problems = append(problems, q+" is listed in split but declared by no module")
			case len(d) > 1:
				problems = append(problems, fmt.Sprintf("%s is declared by %d modules (%s)", q, len(d), strings.Join(d, ", ")))
			case d[0] != s.Module:
				problems = append(problems, fmt.Sprintf("%s is declared in module %s, but split says %s serves it", q, d[0], s.Module))
			}
		}
	}
	for q, d := range declared {
		ns := q[:strings.LastIndex(q, ".")]
		switch {
		case isSplit[ns] && !listed[q]:
			problems = append(problems, fmt.Sprintf("%s (module %s) is missing from split", q, d[0]))
		case !isSplit[ns] && len(servers[ns]) > 1:
			problems = append(problems, fmt.Sprintf("namespace %s is served by more than one module: list its functions in split (%s)", ns, q))
		case len(d) > 1 && !isSplit[ns]:
			problems = append(problems, fmt.Sprintf("%s is declared by %d modules (%s)", q, len(d), strings.Join(d, ", ")))
		}
	}
	if len(problems) == 0 {
		return nil
	}
	sort.Strings(problems)
	return fmt.Errorf("the modules' tables and split (bindings/apigen/split.go) disagree:\n  %s", strings.Join(problems, "\n  "))
}
