package moreapi

import (
	"reflect"
	"strings"
	"testing"

	. "github.com/qif-toolkit/qif/bindings/table"
)

// String labels cross as codes by first appearance and a function returning the distinct
// strings; the function is called only when the names are read, and the decoded column gives
// back the strings.
func TestCodedLabelsDecode(t *testing.T) {
	calls := 0
	text := func() (string, bool) { calls++; return "b\x00\x00é", true }
	p := &Param{Name: "observations", Kind: KindSamples}
	v, err := decodeSamples(p, []Raw{{Type: RawNumber, Num: 4}, {Type: RawInts, Ints: []int32{0, 1, 0, 2}}, {Type: RawFunc, Text: text}, {}})
	if err != nil {
		t.Fatal(err)
	}
	l := v.(Samples).Labels
	if calls != 0 || !l.Text() || l.Len() != 4 {
		t.Fatalf("decoded %+v after %d calls", l, calls)
	}
	names, err := l.Names()
	if err != nil || !reflect.DeepEqual(names, []string{"b", "", "é"}) || calls != 1 {
		t.Errorf("names %q, %v, %d calls", names, err, calls)
	}
	for _, c := range []struct {
		raw  []Raw
		want string
	}{
		{[]Raw{{Type: RawNumber, Num: 3}, {Type: RawInts, Ints: []int32{0, 1, 0, 2}}, {Type: RawFunc, Text: text}, {}}, "malformed labels (3 given, 4 read"},
		{[]Raw{{Type: RawNumber, Num: 2}, {Type: RawInts, Ints: []int32{0, 1}}, {}, {}}, "expected an array of labels"},
		{[]Raw{{Type: RawNumber, Num: 2}, {Type: RawFloats, Floats: []float64{0, 1}}, {Type: RawFunc, Text: text}, {}}, "expected an array of labels"},
	} {
		if _, err := decodeSamples(p, c.raw); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %v, want …%s", err, c.want)
		}
	}
	bad := []Raw{{Type: RawNumber, Num: 1}, {Type: RawInts, Ints: []int32{0}}, {Type: RawFunc, Text: func() (string, bool) { return "", false }}, {}}
	v, err = decodeSamples(p, bad)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.(Samples).Labels.Names(); err == nil || !strings.Contains(err.Error(), "not a string") {
		t.Errorf("names that are no string: %v", err)
	}
}
