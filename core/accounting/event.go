package accounting

import (
	"fmt"
	"math"
	"strings"

	"github.com/qif-toolkit/qif/core/argerr"
	"github.com/qif-toolkit/qif/core/graph"
	"gonum.org/v1/gonum/mat"
)

// The mechanisms an Event may name.
const (
	Gaussian           = "gaussian"
	Laplace            = "laplace"
	Geometric          = "geometric"
	RandomizedResponse = "randomizedResponse"
	Pure               = "pure"
	Approximate        = "approximate"
	Channel            = "channel"
	Subsampled         = "subsampled"
)

// Mechanisms lists the mechanism names in the order the documentation gives them.
var Mechanisms = []string{Gaussian, Laplace, Geometric, RandomizedResponse, Pure, Approximate, Channel, Subsampled}

// Event is one mechanism run Count times. Which fields are read depends on Mechanism:
// Gaussian reads Sigma and Sensitivity, Laplace Scale and Sensitivity, Geometric,
// RandomizedResponse and Pure read Epsilon, Approximate Epsilon and Delta, Channel reads Channel
// (rows are data sets) and Graph (which rows are neighbours; nil: every pair), Subsampled reads
// Rate and Of (the event subsampled, whose own Count is ignored).
type Event struct {
	Mechanism   string
	Count       int // ≥ 1; 0 is read as 1
	Sigma       float64
	Sensitivity float64 // 0 is read as 1
	Scale       float64
	Epsilon     float64
	Delta       float64
	Rate        float64
	Channel     *mat.Dense
	Graph       *graph.Graph
	Of          *Event
}

// count is the event's Count with the default.
func (e *Event) count() int {
	if e.Count == 0 {
		return 1
	}
	return e.Count
}

// sensitivity is the event's Sensitivity with the default.
func (e *Event) sensitivity() float64 {
	if e.Sensitivity == 0 {
		return 1
	}
	return e.Sensitivity
}

// MaxCount bounds an event's count: beyond it no loss grid of the composition fits in memory
// and the closed forms lose their digits.
const MaxCount = 1 << 40

// Validate checks the events; the error names the argument ("events[2].sigma").
func Validate(events []Event) error {
	if len(events) == 0 {
		return argerr.New("events", "empty list: give at least one event")
	}
	rows := -1
	for i := range events {
		name := fmt.Sprintf("events[%d]", i)
		if err := validateEvent(&events[i], name, false); err != nil {
			return err
		}
		if c := channelOf(&events[i]); c != nil {
			r, _ := c.Channel.Dims()
			if rows >= 0 && r != rows {
				return argerr.New(name+".channel", "has %d rows but an earlier channel event has %d: channel events compose on the same data sets", r, rows)
			}
			rows = r
		}
	}
	return nil
}

// channelOf is the channel event inside e (e itself or what it subsamples), or nil.
func channelOf(e *Event) *Event {
	for e != nil {
		if e.Mechanism == Channel {
			return e
		}
		e = e.Of
	}
	return nil
}

func validateEvent(e *Event, name string, inner bool) error {
	if e.Count < 0 || e.Count > MaxCount {
		return argerr.New(name+".count", "expected a positive integer (at most 2^40), got %d", e.Count)
	}
	positive := func(key string, x float64) error {
		if !(x > 0) || math.IsInf(x, 1) {
			return argerr.New(name+"."+key, "expected a positive finite number, got %v", x)
		}
		return nil
	}
	sens := func() error {
		if e.Sensitivity != 0 {
			return positive("sensitivity", e.Sensitivity)
		}
		return nil
	}
	switch e.Mechanism {
	case Gaussian:
		if err := positive("sigma", e.Sigma); err != nil {
			return err
		}
		return sens()
	case Laplace:
		if err := positive("scale", e.Scale); err != nil {
			return err
		}
		return sens()
	case Geometric, RandomizedResponse, Pure:
		return positive("epsilon", e.Epsilon)
	case Approximate:
		if !(e.Epsilon >= 0) || math.IsInf(e.Epsilon, 1) {
			return argerr.New(name+".epsilon", "expected a non-negative finite number, got %v", e.Epsilon)
		}
		if !(e.Delta >= 0 && e.Delta < 1) {
			return argerr.New(name+".delta", "expected a number in [0, 1), got %v", e.Delta)
		}
		return nil
	case Channel:
		return validateChannel(e, name)
	case Subsampled:
		if !(e.Rate > 0 && e.Rate <= 1) {
			return argerr.New(name+".rate", "expected a sampling rate in (0, 1], got %v", e.Rate)
		}
		if e.Of == nil {
			return argerr.New(name+".of", "missing: the event that is subsampled")
		}
		return validateEvent(e.Of, name+".of", true)
	case "":
		return argerr.New(name+".mechanism", "missing; expected one of %s", strings.Join(Mechanisms, ", "))
	}
	msg := fmt.Sprintf("unknown mechanism %q", e.Mechanism)
	if near := nearest(e.Mechanism, Mechanisms); near != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", near)
	}
	return argerr.New(name+".mechanism", "%s; expected one of %s", msg, strings.Join(Mechanisms, ", "))
}

// validateChannel checks a channel event: a row-stochastic matrix with at least two rows and a
// graph on its rows.
func validateChannel(e *Event, name string) error {
	if e.Channel == nil {
		return argerr.New(name+".channel", "missing: the channel (rows are data sets, columns outputs)")
	}
	r, c := e.Channel.Dims()
	if r < 2 {
		return argerr.New(name+".channel", "has %d row; composition needs at least two data sets", r)
	}
	for i := 0; i < r; i++ {
		s := 0.0
		for j := 0; j < c; j++ {
			x := e.Channel.At(i, j)
			if !(x >= 0) || math.IsInf(x, 1) {
				return argerr.Cell(name+".channel", i, j, "is %v, expected a probability", x)
			}
			s += x
		}
		if math.Abs(s-1) > 1e-9 {
			return argerr.Row(name+".channel", i, "sums to %v, expected 1", s)
		}
	}
	if e.Graph != nil {
		if e.Graph.N != r {
			return argerr.New(name+".graph", "has %d vertices but the channel has %d rows", e.Graph.N, r)
		}
		if len(e.Graph.Edges()) == 0 {
			return argerr.New(name+".graph", "has no edge: no two data sets are neighbours")
		}
	}
	return nil
}

// nearest is the name within edit distance 3 of s (case-insensitively), or "".
func nearest(s string, names []string) string {
	best, bestD := "", 4
	for _, n := range names {
		if d := editDistance(strings.ToLower(s), strings.ToLower(n)); d < bestD {
			best, bestD = n, d
		}
	}
	if strings.Contains(strings.ToLower(s), "response") || strings.EqualFold(s, "rr") {
		return RandomizedResponse
	}
	return best
}

// editDistance is the Levenshtein distance of a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			sub := prev[j-1]
			if a[i-1] != b[j-1] {
				sub++
			}
			cur[j] = min(sub, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
