package accounting

import (
	"fmt"
	"math"
)

// term is one distinct mechanism of a scenario with how many times it runs.
type term struct {
	src   source
	count int
}

// scenario is one pair of neighbouring data sets (an ordered edge of the channels' graph) in
// one orientation of the subsampled events: the composition's δ(ε) is the maximum over them.
type scenario struct {
	name  string
	terms []term
	// mu2 is Σ count·μ² of the Gaussian events, composed exactly into one Gaussian.
	mu2 float64
	// onlyGaussian, discreteKOV: which closed form applies.
	onlyGaussian, onlyPure bool
}

// edgeList is the ordered edges of the channel events' graph (every ordered pair by default),
// or one empty edge when no event is a channel.
func edgeList(events []Event) [][2]int {
	for i := range events {
		c := channelOf(&events[i])
		if c == nil {
			continue
		}
		n, _ := c.Channel.Dims()
		var out [][2]int
		if c.Graph != nil {
			for _, e := range c.Graph.Edges() {
				out = append(out, [2]int{e.A, e.B}, [2]int{e.B, e.A})
			}
			return out
		}
		for a := 0; a < n; a++ {
			for b := 0; b < n; b++ {
				if a != b {
					out = append(out, [2]int{a, b})
				}
			}
		}
		return out
	}
	return [][2]int{{-1, -1}}
}

// hasSubsampled reports whether an event is subsampled: only those are not their own reverse.
func hasSubsampled(events []Event) bool {
	for i := range events {
		if events[i].Mechanism == Subsampled {
			return true
		}
	}
	return false
}

// scenarios builds the pairs to account. Gaussian events are merged into one (exact), equal
// events into one term with the counts added.
func scenarios(events []Event) []scenario {
	edges := edgeList(events)
	orients := []bool{false}
	if hasSubsampled(events) {
		orients = []bool{false, true}
	}
	var out []scenario
	for _, e := range edges {
		for _, rev := range orients {
			sc := scenario{onlyGaussian: true, onlyPure: true}
			if e[0] >= 0 {
				sc.name = fmt.Sprintf("rows %d, %d", e[0], e[1])
			}
			if rev {
				sc.name += " (add)"
			}
			keys := map[string]int{}
			for i := range events {
				ev := &events[i]
				k := ev.count()
				if ev.Mechanism == Gaussian {
					mu := ev.sensitivity() / ev.Sigma
					sc.mu2 += float64(k) * mu * mu
					continue
				}
				sc.onlyGaussian = false
				switch ev.Mechanism {
				case Channel, Subsampled, Laplace:
					sc.onlyPure = false
				}
				key := eventKey(ev)
				if j, ok := keys[key]; ok {
					sc.terms[j].count += k
					continue
				}
				keys[key] = len(sc.terms)
				sc.terms = append(sc.terms, term{src: sourceOf(ev, e, rev), count: k})
			}
			out = append(out, sc)
		}
	}
	return out
}

// eventKey identifies equal events (the same mechanism and parameters, count aside).
func eventKey(e *Event) string {
	if e.Mechanism == Channel {
		return fmt.Sprintf("channel %p %p", e.Channel, e.Graph)
	}
	k := fmt.Sprintf("%s %v %v %v %v %v %v", e.Mechanism, e.Sigma, e.sensitivity(), e.Scale, e.Epsilon, e.Delta, e.Rate)
	if e.Of != nil {
		k += " of " + eventKey(e.Of)
	}
	return k
}

// sourceOf is the pair of an event on the ordered edge e, reversed when rev (for subsampled
// events; the others are their own reverse, or are reversed by the edge).
func sourceOf(ev *Event, e [2]int, rev bool) source {
	switch ev.Mechanism {
	case Gaussian:
		return gaussianSource{mu: ev.sensitivity() / ev.Sigma}
	case Laplace:
		return laplaceSource{a: ev.sensitivity() / ev.Scale}
	case Geometric, RandomizedResponse, Pure:
		// The two-sided geometric mechanism at sensitivity 1 has L = ±ε with the masses of
		// randomized response; any ε-DP mechanism is dominated by randomized response.
		return rrSource(ev.Epsilon, 0)
	case Approximate:
		return rrSource(ev.Epsilon, ev.Delta)
	case Channel:
		return pairSource(ev.Channel.RawRowView(e[0]), ev.Channel.RawRowView(e[1]))
	}
	// Subsampled: the inner event's forward pair, subsampled, in the orientation asked.
	base := sourceOf(ev.Of, e, false)
	var s source = base
	if ev.Rate < 1 {
		s = subsampledSource(base, ev.Rate)
	}
	if rev {
		return reverseSource(s)
	}
	return s
}

// subsampledSource subsamples a source; a finite pair stays finite (so that it can be
// enumerated exactly).
func subsampledSource(base source, q float64) source {
	d, ok := base.(*discreteSource)
	if !ok {
		return subsampled{s: base, q: q}
	}
	var p, qq []float64
	for _, a := range d.atoms {
		p, qq = append(p, q*a.p+(1-q)*a.q), append(qq, a.q)
	}
	p, qq = append(p, q*d.pInf, (1-q)*d.qNegInf), append(qq, 0, d.qNegInf)
	return pairSource(p, qq)
}

// reverseSource is (Q, P); a finite pair stays finite.
func reverseSource(s source) source {
	d, ok := s.(*discreteSource)
	if !ok {
		return reversed{s: s}
	}
	r := &discreteSource{pInf: d.qNegInf, qNegInf: d.pInf}
	for i := len(d.atoms) - 1; i >= 0; i-- {
		a := d.atoms[i]
		r.atoms = append(r.atoms, atom{-a.l, a.q, a.p})
	}
	return r
}

// maxLoss is the greatest loss of positive mass of the composition in a scenario: ε at δ = 0.
func (sc *scenario) maxLoss() float64 {
	if sc.mu2 > 0 {
		return math.Inf(1)
	}
	s := 0.0
	for _, t := range sc.terms {
		if p, _ := t.src.inf(); p > 0 {
			return math.Inf(1)
		}
		_, hi := t.src.bounds()
		s += float64(t.count) * hi
	}
	return s
}
