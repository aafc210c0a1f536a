package argerr

import (
	"errors"
	"fmt"
	"testing"
)

// The messages are the toolkit's established texts, written out here by hand, and the data
// survives wrapping with %w.
func TestMessagesAndData(t *testing.T) {
	for _, tc := range []struct {
		err   *Error
		want  string
		index []int
	}{
		{New("epsilon", "must be positive, got %g", -1.0), "epsilon: must be positive, got -1", nil},
		{Row("channel", 2, "sums to %.10g, expected 1", 0.9), "channel: row 2 sums to 0.9, expected 1", []int{2}},
		{Entry("prior", 1, "is %v, expected a probability", "NaN"), "prior: entry 1 is NaN, expected a probability", []int{1}},
		{Cell("A", 0, 3, "is negative (%g)", -0.5), "A: entry [0][3] is negative (-0.5)", []int{0, 3}},
		{Item("graph", "edge", 4, "(%d,%d) is a self-loop", 2, 2), "graph: edge 4 (2,2) is a self-loop", []int{4}},
		{Entry("prior", 2, ": %s", "not a fraction"), "prior: entry 2: not a fraction", []int{2}},
	} {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
		wrapped := fmt.Errorf("channel.validate: %w", tc.err)
		var e *Error
		if !errors.As(wrapped, &e) || e.Arg != tc.err.Arg || fmt.Sprint(e.Index) != fmt.Sprint(tc.index) {
			t.Errorf("%q: errors.As lost the data: %+v", tc.want, e)
		}
	}
	r := Rename(Row("channel", 1, "sums to 2, expected 1"), "channel", "A")
	if r.Error() != "A: row 1 sums to 2, expected 1" {
		t.Errorf("Rename: %q", r.Error())
	}
	if other := errors.New("x"); Rename(other, "channel", "A") != other {
		t.Error("Rename changed an error that is not an *Error")
	}
}
