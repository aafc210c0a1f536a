package labels

import "testing"

func TestLen(t *testing.T) {
	names := func() ([]string, error) { return []string{"a", "b"}, nil }
	for _, c := range []struct {
		col  Column
		want int
		text bool
	}{{Column{}, 0, false}, {Column{Numbers: []float64{1, 2, 2}}, 3, false}, {Column{Strings: []string{"a"}}, 1, true}, {Column{Strings: []string{}}, 0, true},
		{Column{Codes: []int32{0, 1, 0}, Names: names}, 3, true}} {
		if got := c.col.Len(); got != c.want {
			t.Errorf("%+v: Len() = %d, want %d", c.col, got, c.want)
		}
		if got := c.col.Text(); got != c.text {
			t.Errorf("%+v: Text() = %v, want %v", c.col, got, c.text)
		}
	}
}

func TestCoded(t *testing.T) {
	codes, names := Coded([]string{"b", "", "b", "é", ""})
	want, wantNames := []int32{0, 1, 0, 2, 1}, []string{"b", "", "é"}
	if len(codes) != len(want) || len(names) != len(wantNames) {
		t.Fatalf("Coded gave %v, %q", codes, names)
	}
	for i := range want {
		if codes[i] != want[i] {
			t.Errorf("code %d = %d, want %d", i, codes[i], want[i])
		}
	}
	for i := range wantNames {
		if names[i] != wantNames[i] {
			t.Errorf("name %d = %q, want %q", i, names[i], wantNames[i])
		}
	}
}
