package labels

import "testing"

func TestLen(t *testing.T) {
	for _, c := range []struct {
		col  Column
		want int
	}{{Column{}, 0}, {Column{Numbers: []float64{1, 2, 2}}, 3}, {Column{Strings: []string{"a"}}, 1}, {Column{Strings: []string{}}, 0}} {
		if got := c.col.Len(); got != c.want {
			t.Errorf("%+v: Len() = %d, want %d", c.col, got, c.want)
		}
	}
}
