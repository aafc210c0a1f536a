package accounting

import (
	"context"
	"errors"
	"math"
	"sort"
	"strings"

	"github.com/qif-toolkit/qif/core/argerr"
)

// The methods a result may name.
const (
	MethodGaussianDP         = "gaussian-dp"
	MethodOptimalComposition = "optimal-composition"
	MethodEnumeration        = "enumeration"
	MethodPLD                = "pld"
)

// DefaultTolerance is the relative width of [Lower, Upper] asked by default.
const DefaultTolerance = 1e-4

// Options are the options of Epsilon, Delta and Profile.
type Options struct {
	// Tolerance is the relative width of the certified interval asked (0: DefaultTolerance).
	Tolerance float64
	// Progress, when set, is called after each pass of the PLD with the passes done and the
	// most there may be; returning false cancels (the result so far is returned with
	// context.Canceled).
	Progress func(done, total int) bool
}

func (o *Options) tolerance() float64 {
	if o == nil || o.Tolerance == 0 {
		return DefaultTolerance
	}
	return o.Tolerance
}

// Details says how a result was computed.
type Details struct {
	Scenarios int     // pairs of neighbouring data sets (and orientations) accounted
	Grid      float64 // width h of the loss grid of the last PLD pass (0: a closed form)
	Passes    int     // PLD passes (each with a finer grid)
	Computed  string  // what the maximum is taken over, in words
	Note      string  // anything the number alone does not say ("" when nothing)
}

// Result is ε(δ) of a composition with its certified interval.
type Result struct {
	Epsilon, Lower, Upper float64
	Method                string
	Details               Details
}

// DeltaResult is δ(ε) of a composition with its certified interval.
type DeltaResult struct {
	Delta, Lower, Upper float64
	Method              string
	Details             Details
}

// maxPasses bounds the refinements of the grid.
const maxPasses = 8

// closedForm is the exact profile of a scenario when one applies.
type closedForm struct {
	method string
	delta  func(eps float64) float64
	eps    func(delta float64) (lo, hi float64)
}

// exact returns the closed form of the scenario, or nil.
func (sc *scenario) exact() *closedForm {
	if sc.onlyGaussian {
		mu := math.Sqrt(sc.mu2)
		f := func(e float64) float64 { return gaussianDelta(mu, e) }
		return &closedForm{MethodGaussianDP, f, func(d float64) (float64, float64) { return bisectEpsilon(f, d) }}
	}
	if sc.mu2 > 0 {
		return nil
	}
	var acc *atoms
	for _, t := range sc.terms {
		d, ok := t.src.(*discreteSource)
		if !ok {
			return nil
		}
		a, ok := kfold(d, t.count)
		if !ok {
			return nil
		}
		if acc == nil {
			acc = a
		} else if acc, ok = product(acc, a); !ok {
			return nil
		}
	}
	method := MethodEnumeration
	if sc.onlyPure {
		method = MethodOptimalComposition
	}
	return &closedForm{method, acc.delta, func(d float64) (float64, float64) {
		e := acc.epsilon(d)
		return e, e
	}}
}

// computedWords says what the maximum is over.
func computedWords(events []Event, n int) string {
	var parts []string
	if edgeList(events)[0][0] >= 0 {
		parts = append(parts, "the maximum over ordered pairs of neighbouring rows of the composition on that pair (not the composition of per-event maxima)")
	}
	if hasSubsampled(events) {
		parts = append(parts, "both orientations of the subsampled events (remove and add), the larger reported")
	}
	if len(parts) == 0 {
		return "one pair of neighbouring data sets (every event is its own reverse)"
	}
	return strings.Join(parts, "; ")
}

// prepare validates and builds the scenarios and their closed forms (all or none).
func prepare(events []Event) ([]scenario, []*closedForm, error) {
	if err := Validate(events); err != nil {
		return nil, nil, err
	}
	scs := scenarios(events)
	var cfs []*closedForm
	for i := range scs {
		cf := scs[i].exact()
		if cf == nil {
			return scs, nil, nil
		}
		cfs = append(cfs, cf)
	}
	return scs, cfs, nil
}

// Epsilon is the least ε with δ(ε) ≤ delta for the composition of the events, with a
// certified interval [Lower, Upper]; Epsilon is Upper unless a closed form gives it.
func Epsilon(ctx context.Context, events []Event, delta float64, opts *Options) (*Result, error) {
	if !(delta >= 0 && delta < 1) {
		return nil, argerr.New("delta", "expected a number in [0, 1), got %v", delta)
	}
	if err := checkTolerance(opts); err != nil {
		return nil, err
	}
	scs, cfs, err := prepare(events)
	if err != nil {
		return nil, err
	}
	res := &Result{Method: MethodPLD, Details: Details{Scenarios: len(scs), Computed: computedWords(events, len(scs))}}
	if delta == 0 {
		// ε(0) is the greatest loss of positive mass: exact, whichever method would apply.
		if cfs != nil {
			res.Method = cfs[0].method
		}
		for i := range scs {
			res.Upper = math.Max(res.Upper, scs[i].maxLoss())
		}
		res.Lower, res.Epsilon = res.Upper, res.Upper
	} else if cfs != nil {
		res.Method = cfs[0].method
		for _, cf := range cfs {
			lo, hi := cf.eps(delta)
			res.Lower, res.Upper = math.Max(res.Lower, lo), math.Max(res.Upper, hi)
			if cf.method != res.Method {
				res.Method = MethodEnumeration
			}
		}
		res.Epsilon = res.Upper
	} else {
		tol := opts.tolerance()
		tau := math.Min(math.Max(delta*tol*1e-3/64, 1e-30), 1e-14)
		err = refinePasses(ctx, scs, tol, tau, 1e-12, true, opts, &res.Details, func(p, o []*pld) (float64, float64) {
			res.Upper, res.Lower = 0, 0
			for i := range p {
				res.Upper = math.Max(res.Upper, p[i].epsilon(delta))
				res.Lower = math.Max(res.Lower, o[i].epsilon(delta))
			}
			res.Lower = math.Min(res.Lower, res.Upper)
			res.Epsilon = res.Upper
			return res.Upper, res.Lower
		})
		if err != nil && !errors.Is(err, context.Canceled) {
			return nil, err
		}
	}
	if math.IsInf(res.Epsilon, 1) {
		res.Details.Note = infiniteNote(events, delta)
	}
	return res, err
}

// infiniteNote explains an infinite ε.
func infiniteNote(events []Event, delta float64) string {
	if delta == 0 {
		for i := range events {
			if events[i].Mechanism == Gaussian || (events[i].Of != nil && events[i].Of.Mechanism == Gaussian) {
				return "ε = ∞ at δ = 0: a Gaussian mechanism's privacy loss is unbounded, so no finite ε holds with δ = 0"
			}
		}
		return "ε = ∞ at δ = 0: some output has positive probability on one data set and none on its neighbour"
	}
	return "ε = ∞: the probability of an infinite privacy loss exceeds δ"
}

func checkTolerance(opts *Options) error {
	if opts != nil && opts.Tolerance != 0 && !(opts.Tolerance > 0 && opts.Tolerance < 1) {
		return argerr.New("tolerance", "expected a number in (0, 1), got %v", opts.Tolerance)
	}
	return nil
}

// refinePasses discretizes every scenario on finer and finer grids until eval's interval
// [lower, upper] has relative width at most tol; details records the last grid.
//
// floor is an absolute width that is enough whatever the relative one (a δ of 1e-14 is 0 for
// every purpose; an ε known to 1e-12).
//
// When eval's unit is ε (lossUnits), the pessimistic PLDs are kept from the pass where their
// predicted error (the splitting moves each event's mean loss by at most h²/8) is a twentieth of
// the width asked, and only the optimistic ones are refined: the pessimistic side converges like
// h², the optimistic one (an atom off the grid) sometimes like h.
func refinePasses(ctx context.Context, scs []scenario, tol, tau, floor float64, lossUnits bool, opts *Options, det *Details, eval func(p, o []*pld) (up, low float64)) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	K := 0
	for i := range scs {
		k := 0
		if scs[i].mu2 > 0 {
			k = 1
		}
		for _, t := range scs[i].terms {
			k += t.count
		}
		K = max(K, k)
	}
	h := math.Min(0.05, math.Sqrt(4*tol/float64(K)))
	cache := ffts{}
	lastWidth, lastH := 0.0, 0.0
	var kept []*pld // pessimistic PLDs kept from an earlier pass
	stalls := 0
	for pass := 1; pass <= maxPasses; pass++ {
		h = snap(scs, h)
		p, o := make([]*pld, len(scs)), make([]*pld, len(scs))
		var err error
		for i := range scs {
			if p[i], o[i], err = scs[i].plds(ctx, cache, h, tau, kept == nil); err != nil {
				break
			}
		}
		if kept != nil {
			p = kept
		}
		if err != nil {
			if errors.Is(err, errTooFine) && pass > 1 {
				det.Note = "the tolerance was not reached: a finer grid would not fit in memory"
				return nil
			}
			if errors.Is(err, errTooFine) {
				return errors.New("the composition needs a loss grid too fine to fit in memory (more than 2^22 points); use fewer distinct events or a larger tolerance")
			}
			if ctx.Err() != nil && pass > 1 {
				return context.Canceled
			}
			return err
		}
		up, low := eval(p, o)
		det.Grid, det.Passes = h, pass
		width := up - low
		target := tol * up
		if opts != nil && opts.Progress != nil && !opts.Progress(pass, maxPasses) {
			return context.Canceled
		}
		if width <= target || width <= floor || math.IsInf(up, 1) {
			return nil
		}
		stalled := pass > 1 && width > 0.9*lastWidth
		if stalled {
			stalls++
		} else {
			stalls = 0
		}
		if stalled && kept != nil {
			kept = nil // the kept side is what stalls: refine both from now on
		} else if stalls >= 2 { // twice in a row (one stall may be the grid's alignment)
			// A finer grid no longer narrows the interval: what is left is rounding (the FFT's
			// noise at tiny δ), not discretization.
			det.Note = "the tolerance was not reached: a finer grid no longer narrows the interval (floating-point rounding); the interval is still certified up to rounding"
			return nil
		}
		// The width shrinks like h^p, p between 1 (an atom off the grid) and 2 (the splitting
		// and merging); p is measured from the last two passes when there are two.
		order := 2.0
		if pass > 1 && lastWidth > width && lastH > h {
			order = math.Min(math.Max(math.Log(lastWidth/width)/math.Log(lastH/h), 1), 2)
		}
		lastWidth, lastH = width, h
		if lossUnits && kept == nil && float64(K)*h*h/8 <= 0.05*target {
			kept = p
		}
		h *= math.Min(math.Max(0.85*math.Pow(target/width, 1/order), 1.0/8), 1/1.5)
	}
	det.Note = "the tolerance was not reached within the passes allowed; the interval is still certified"
	return nil
}

// snap makes h divide the span of losses when every scenario is one mechanism with atoms at both
// ends of its losses (Laplace, randomized response): both atoms then lie on the grid, and the
// optimistic discretization rounds neither down.
func snap(scs []scenario, h float64) float64 {
	span := 0.0
	for i := range scs {
		if len(scs[i].terms) != 1 || scs[i].mu2 > 0 {
			return h
		}
		s := scs[i].terms[0].src
		lo, hi := s.bounds()
		top, _ := s.mass(hi, math.Inf(1), false)
		bottom, _ := s.mass(math.Inf(-1), lo, true)
		if math.IsInf(lo, 0) || math.IsInf(hi, 0) || !(top > 0 && bottom > 0) || hi <= lo {
			return h
		}
		if span != 0 && math.Abs(span-(hi-lo)) > 1e-12*span {
			return h
		}
		span = hi - lo
	}
	return span / math.Ceil(span/h)
}

// plds is the pessimistic and optimistic PLDs of the scenario's composition on the grid h.
// The pessimistic one is skipped (nil) unless pessToo.
func (sc *scenario) plds(ctx context.Context, cache ffts, h, tau float64, pessToo bool) (pess, opt *pld, err error) {
	terms := sc.terms
	if sc.mu2 > 0 {
		terms = append([]term{{src: gaussianSource{mu: math.Sqrt(sc.mu2)}, count: 1}}, terms...)
	}
	for _, pessimistic := range []bool{true, false} {
		if pessimistic && !pessToo {
			continue
		}
		var parts []*pld
		for _, t := range terms {
			d, err := discretize(t.src, h, pessimistic, tau)
			if err != nil {
				return nil, nil, err
			}
			if t.count >= 16 {
				// One transform; when Chernoff's bound cannot make the window fit, squaring
				// (which truncates as it goes) instead.
				var pw *pld
				if pw, err = cache.powerFFT(d, t.count, tau, pessimistic); errors.Is(err, errTooFine) {
					pw, err = cache.power(ctx, d, t.count, tau, pessimistic)
				}
				d = pw
			} else {
				d, err = cache.power(ctx, d, t.count, tau, pessimistic)
			}
			if err != nil {
				return nil, nil, err
			}
			parts = append(parts, d)
		}
		// Compose the distinct events pairwise, smallest first (a tree: each level halves).
		for len(parts) > 1 {
			sort.Slice(parts, func(i, j int) bool { return len(parts[i].m) < len(parts[j].m) })
			next := parts[:0:0]
			for i := 0; i+1 < len(parts); i += 2 {
				c, err := cache.convolve(parts[i], parts[i+1], tau, pessimistic)
				if err != nil {
					return nil, nil, err
				}
				next = append(next, c)
			}
			if len(parts)%2 == 1 {
				next = append(next, parts[len(parts)-1])
			}
			parts = next
			if err := ctx.Err(); err != nil {
				return nil, nil, err
			}
		}
		if pessimistic {
			pess = parts[0]
		} else {
			opt = parts[0]
		}
	}
	return pess, opt, nil
}
