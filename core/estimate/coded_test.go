package estimate

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/qif-toolkit/qif/core/labels"
)

// coded codes strings by first appearance, as a caller in another language does before sending
// them (the bindings' JS wrapper), counting the calls of Names.
func coded(xs []string, calls *int) Labels {
	codes, names := labels.Coded(xs)
	return Labels{Codes: codes, Names: func() ([]string, error) { *calls++; return names, nil }}
}

// Coded string labels make the same sample, channel and names as the strings themselves:
// repeated and distinct labels, unicode (code-point order, which UTF-16 order is not), the empty
// string and strings that read as numbers.
func TestCodedLabelsSameAsStrings(t *testing.T) {
	secrets := []string{"b", "", "10", "9", "é", "😀", "\uffff", "b", "a", "", "10", "a"}
	obs := []string{"x", "y", "x", "z", "", "y", "x", "1e3", "z", "y", "", "x"}
	want, err := NewSample(Labels{Strings: secrets}, Observations{Labels: Labels{Strings: obs}})
	if err != nil {
		t.Fatal(err)
	}
	var calls int
	got, err := NewSample(coded(secrets, &calls), Observations{Labels: coded(obs, &calls)})
	if err != nil {
		t.Fatal(err)
	}
	cw, err := FrequentistChannel(want)
	if err != nil {
		t.Fatal(err)
	}
	cg, err := FrequentistChannel(got)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(cw, cg) || !reflect.DeepEqual(want.Secret, got.Secret) || !reflect.DeepEqual(want.Obs, got.Obs) {
		t.Errorf("coded labels differ:\n%+v\n%+v", cg, cw)
	}
	// The order is Go's byte order of UTF-8 (code points): "\uffff" before "😀" (U+1F600),
	// which JS's UTF-16 comparison puts the other way round.
	if i, j := index(cg.Secrets, "\uffff"), index(cg.Secrets, "😀"); i > j {
		t.Errorf("secrets %q: U+FFFF after U+1F600", cg.Secrets)
	}
}

func index(xs []string, x string) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	return -1
}

// Mostly distinct coded observations are refused without fetching their names.
func TestCodedLabelsRefusedUnread(t *testing.T) {
	n := 1000
	secrets, obs := make([]string, n), make([]string, n)
	for i := range obs {
		secrets[i], obs[i] = fmt.Sprint(i%2), fmt.Sprint("o", i)
	}
	var sCalls, oCalls int
	s, err := NewSample(coded(secrets, &sCalls), Observations{Labels: coded(obs, &oCalls)})
	if err != nil {
		t.Fatal(err)
	}
	err = RefuseDistinct("the frequentist channel", s)
	if err == nil || !strings.Contains(err.Error(), "1,000 of the 1,000 observations are distinct") {
		t.Fatalf("got %v", err)
	}
	if sCalls != 1 || oCalls != 0 {
		t.Errorf("names fetched: secrets %d times, observations %d times; want 1 and 0", sCalls, oCalls)
	}
}

// Codes that are not numbered by first appearance, names of the wrong number or given twice, and
// a failing Names are errors naming the column.
func TestCodedLabelsMalformed(t *testing.T) {
	names := func(xs ...string) func() ([]string, error) { return func() ([]string, error) { return xs, nil } }
	good := Labels{Codes: []int32{0, 1, 0}, Names: names("a", "b")}
	for _, c := range []struct {
		l    Labels
		want string
	}{
		{Labels{Codes: []int32{1, 0, 0}, Names: names("a", "b")}, "entry 0 has code 1"},
		{Labels{Codes: []int32{0, -1, 0}, Names: names("a", "b")}, "entry 1 has code -1"},
		{Labels{Codes: []int32{0, 1, 0}, Names: names("a")}, "2 distinct codes but 1 names"},
		{Labels{Codes: []int32{0, 1, 0}, Names: names("a", "a")}, `the name "a" has two codes`},
		{Labels{Codes: []int32{0, 1, 0}}, "no names"},
		{Labels{Codes: []int32{0, 1, 0}, Names: func() ([]string, error) { return nil, errors.New("gone") }}, "gone"},
	} {
		_, err := NewSample(c.l, Observations{Labels: good})
		if err == nil || !strings.HasPrefix(err.Error(), "secrets: ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: got %v, want secrets: …%s", c.l.Codes, err, c.want)
		}
	}
}
