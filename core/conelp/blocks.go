package conelp

import (
	"context"
	"math"
	"sort"
	"time"

	"github.com/qif-toolkit/qif/core/lp"
)

// Output generation with an exact restricted program. On location maps most outputs are
// never reported at the optimum (5 of 36 cells on a 6×6 map with a hot-spot prior, 8 of 49 on
// 7×7), and a column of H that is 0 somewhere is 0 everywhere (the pairs connect every cell).
// So the program restricted to the outputs in use, U, is small, and the simplex solves it
// to a vertex with exact complementary prices μ of the row sums. Every output is then priced
// at μ by the generalized-flow pricing: the bound it gives is valid for the full program, and
// when it meets the restricted optimum, H (with the other columns 0) is optimal for the full
// program, certified as the decomposition certifies it. Otherwise the outputs that price
// positive join U. This replaces the decomposition's long tail of rounds, in which the master
// approaches the right extreme rays of K one small step at a time, by a few exact solves.

// Limits of output generation: beyond them the restricted programs cost more than the
// decomposition they replace, which then takes over, starting from the last restricted
// solution and the best prices. When most outputs are in use (binary gains at large ε) the
// decomposition needs few rounds anyway. Each restricted program starts from the basis of the
// one before (lp.Options.Start), which makes a re-solve after a few outputs or pairs joined a
// matter of the pivots the change needs: without it 80% of the time went to solving each from
// scratch. Large maps take W/50 outputs per round, so that the rounds (each a pricing of every
// output) stay few while the support grows to its size (15 outputs of 100 on a 10×10 map).
const (
	outputsPerRound = 2     // outputs that join U per round, at least
	maxOutputRounds = 40    // rounds
	maxRestricted   = 40000 // variables of a restricted program (N·|U|)
	// fullPricingEvery: every this many rounds all outputs are priced (see pricingOrder).
	fullPricingEvery = 5
	// fullPricingPivots: a round whose restricted solves took this many pivots prices every
	// output. A full pricing costs about as much as 1,000 pivots on the 10×10 map (whose
	// rounds take 900–3,200 pivots) and 200 on the 20×20 spanner map (12,000–22,000 pivots).
	fullPricingPivots = 5000
)

// outputGen is the state of output generation; Solve provides the pricing of every output
// at given prices (price, which fills gain and rmax and returns the bound) and the
// reporting.
type outputGen struct {
	n, W      int
	cost      [][]float64
	pairs     []Pair
	ctx       context.Context
	start     time.Time
	timeLimit time.Duration
	// price prices the outputs at mu in the given order, stopping when want of those not in
	// skip price positive (want 0: never); it fills gain and rmax and returns the bound
	// (valid only when every output was reached) and how many outputs it priced.
	price  func(mu []float64, order []int, skip []bool, want int) (bound float64, reached int)
	gain   []float64 // per output: the gain of its priced point, 0 if it prices out
	rmax   []float64
	ok     func() bool // the pricing was not stopped
	report func(obj, gap float64) bool
	trace  func(string, ...any) // a line per output round, when set
	// fullPricing prices every output every round (design.fullPricing).
	fullPricing bool
	// points holds each output's last priced point in K (nil: pairs are left to the row
	// generation alone; see joinPairs).
	points [][]float64

	rounds, pivots, columns, activePairs int
	// The gain of each output when it was last priced, which orders the partial pricings,
	// and the number of outputs priced over all rounds.
	prevGain []float64
	priced   int
	// The basis of the last restricted solve, where the next one starts.
	basis restrictedBasis
	// The last restricted objective and gap, for reports made during a pricing pass.
	lastObj, lastGap float64
	// The last restricted solution (feasible for the full program), its prices and the
	// best bound: what a stopped run returns.
	bestH     []float64
	bestMu    []float64
	bestBound float64
	bestAt    []float64 // the prices of the best bound, and their rmax
	bestRmax  []float64
}

// run starts from the single output first (the constant mechanism on it is feasible). It
// returns H (N×W), the certified prices and the bound when the restricted optimum meets the
// bound of the full program, and done false otherwise (stopped: og.ok() is false; or a limit).
func (og *outputGen) run(first int) (H []float64, mu []float64, bound float64, done bool) {
	n, W := og.n, og.W
	og.bestH = make([]float64, n*W)
	for y := range n {
		og.bestH[y*W+first] = 1
	}
	og.bestMu = make([]float64, n)
	og.bestBound = math.Inf(1)
	og.lastObj, og.lastGap = 0, math.Inf(1)
	og.prevGain = make([]float64, W)
	for y := range n {
		og.lastObj += og.cost[first][y]
	}
	U := []int{first}
	inU := make([]bool, W)
	inU[first] = true
	active := nearPairs(n, og.pairs, lazyStart)
	for og.rounds < maxOutputRounds && n*len(U) <= maxRestricted && 3*len(U) <= 2*W+1 {
		og.rounds++
		opt := &lp.Options{Context: og.ctx}
		if og.timeLimit > 0 {
			if opt.TimeLimit = og.timeLimit - time.Since(og.start); opt.TimeLimit <= 0 {
				return nil, nil, 0, false
			}
		}
		t0 := time.Now()
		pv0 := og.pivots
		cols, mu, obj, ok := restrictedOutputs(n, og.cost, og.pairs, active, U, opt, &og.pivots, &og.basis)
		if !ok {
			og.handOver("the restricted program was not solved to a verified optimum")
			return nil, nil, 0, false
		}
		H := make([]float64, n*W)
		for j, w := range U {
			floorColumn(cols[j])
			if !privateColumn(cols[j], og.pairs) {
				// The simplex met a pair only to its tolerance where the pair's factor is far
				// beyond it (e^{−599} beside 1): the column is not private in the ratios. The
				// decomposition, which builds its columns in logarithms, takes over.
				og.handOver("a restricted column misses a pair as a ratio")
				return nil, nil, 0, false
			}
			for y, v := range cols[j] {
				H[y*W+w] = v
			}
		}
		t1 := time.Now()
		order, want := og.pricingOrder(inU, len(U), og.pivots-pv0)
		bound, reached := og.price(mu, order, inU, want)
		if !og.ok() {
			return nil, nil, 0, false
		}
		og.priced += reached
		full := reached == W
		if full {
			copy(og.prevGain, og.gain)
		} else {
			for _, w := range order[:reached] {
				og.prevGain[w] = og.gain[w]
			}
		}
		og.bestH, og.bestMu = H, mu
		if bound < og.bestBound {
			og.bestBound = bound
			og.bestAt = append(og.bestAt[:0], mu...)
			og.bestRmax = append(og.bestRmax[:0], og.rmax...)
		}
		og.lastObj, og.lastGap = obj, og.bestBound-obj
		og.columns = len(U)
		gap := bound - obj
		if og.trace != nil {
			og.trace("output round %d: %d outputs, restricted %.12f bound %.12f; simplex %v (%d pivots), pricing %v (%d outputs)",
				og.rounds, len(U), obj, bound, t1.Sub(t0).Round(time.Millisecond), og.pivots-pv0, time.Since(t1).Round(time.Millisecond), reached)
		}
		if full && gap <= gapTol/2*math.Max(1, math.Abs(obj)) {
			// Certify as the decomposition does: the prices raised by their residual maxima
			// are priced once more, so that the reported dual residual is that of the
			// returned prices.
			for y := range mu {
				mu[y] += og.rmax[y]
			}
			bound, _ = og.price(mu, nil, nil, 0)
			if !og.ok() {
				return nil, nil, 0, false
			}
			for _, a := range active {
				if a {
					og.activePairs++
				}
			}
			return H, mu, bound, true
		}
		if !og.report(obj, og.lastGap) {
			return nil, nil, 0, false
		}
		var cand []int
		for w, g := range og.gain {
			if !inU[w] && g > enterTol {
				cand = append(cand, w)
			}
		}
		if len(cand) == 0 {
			og.handOver("the bound is not met and nothing prices positive")
			return nil, nil, 0, false
		}
		if full && og.rounds >= 5 && 2*len(cand) > W && 8*len(U) > W {
			// Most outputs still price positive after five rounds: the optimum uses most of
			// them, and the decomposition is the faster method.
			og.handOver("most outputs still price positive")
			return nil, nil, 0, false
		}
		sort.Slice(cand, func(a, b int) bool { return og.gain[cand[a]] > og.gain[cand[b]] })
		// Outputs the restricted optimum leaves unused leave U (they may come back): the
		// restricted program stays about the size of the optimum's support.
		kept := U[:0]
		for j, w := range U {
			used := false
			for _, v := range cols[j] {
				if v > 1e-9 {
					used = true
					break
				}
			}
			if used {
				kept = append(kept, w)
			} else {
				inU[w] = false
			}
		}
		U = kept
		for _, w := range cand[:min(len(cand), og.perRound())] {
			inU[w] = true
			U = append(U, w)
			og.joinPairs(w, active)
		}
	}
	og.handOver("a limit on rounds or on the restricted program's size")
	return nil, nil, 0, false
}

// joinPairs activates, for the restricted program, the pairs tight at the priced point of
// an output that joins U: its column will likely bind them, and a pair found violated only
// after the solve costs a second solve (row generation). The point is in K (closed over every
// pair), so a pair it holds at equality up to rounding is one whose constraint shapes it.
func (og *outputGen) joinPairs(w int, active []bool) {
	if og.points == nil || len(og.points[w]) != og.n {
		return
	}
	h := og.points[w]
	for i, q := range og.pairs {
		if active[i] || !(q.Log < floorLog) {
			continue
		}
		a, b := h[q.A], h[q.B]
		if a <= 0 || b <= 0 {
			continue
		}
		if d := math.Abs(math.Log(a) - math.Log(b)); d >= q.Log-1e-9*math.Max(1, q.Log) {
			active[i] = true
		}
	}
}

// perRound is the number of outputs that join U per round, at most.
func (og *outputGen) perRound() int { return max(outputsPerRound, og.W/50) }

// pricingOrder is the order in which a round prices the outputs, and how many positive ones
// end the pricing (0: price them all). The first round prices every output, and so does every
// fifth and every round from the fifth on where U is large enough for the hand-over test (most
// outputs still positive: it needs every gain), and a round whose restricted solves took
// fullPricingPivots pivots or more: on large maps (20×20) a full pricing is then a small part
// of the round, and it gives the progress reports a better bound every round. The others need
// only the outputs that join U: they price first the outputs outside U of largest gain when
// last priced, and stop at twice as many positive ones as join. A round that reaches every
// output is a full pricing all the same, with its bound; the certificate comes only from such
// a round.
func (og *outputGen) pricingOrder(inU []bool, inside, pivots int) (order []int, want int) {
	handOver := og.rounds >= 5 && 8*inside > og.W
	if og.rounds == 1 || og.rounds%fullPricingEvery == 0 || handOver || og.fullPricing || pivots >= fullPricingPivots {
		return nil, 0
	}
	order = make([]int, 0, og.W)
	for w := range og.W {
		if !inU[w] {
			order = append(order, w)
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return og.prevGain[order[a]] > og.prevGain[order[b]] })
	for w := range og.W {
		if inU[w] {
			order = append(order, w)
		}
	}
	return order, 2 * og.perRound()
}

// handOver traces why output generation hands over to the decomposition.
func (og *outputGen) handOver(why string) {
	if og.trace != nil {
		og.trace("output generation hands over after %d rounds: %s", og.rounds, why)
	}
}

// floorColumn raises the entries of a column of H to e^−floorLog of its largest, as the
// decomposition's cone points are floored (pointFromLogs). The restricted programs leave out
// the pairs with Log ≥ floorLog, and a column positive on one side of such a pair and 0 on the
// other would break it outright (no finite ε); floored, it meets it, and the objective and the
// row sums move by less than N·e^−600 of the column's mass, below what a double resolves. A
// column whose largest entry is too small for its floor to be a normal double (below 1e−40,
// mass no row sum can see) is set to 0.
func floorColumn(col []float64) {
	top := 0.0
	for _, v := range col {
		top = math.Max(top, v)
	}
	if top == 0 {
		return
	}
	if top < 1e-40 {
		clear(col)
		return
	}
	fl := top * math.Exp(-floorLog)
	for y, v := range col {
		col[y] = math.Max(v, fl)
	}
}

// privateColumn reports whether a column meets every pair as a ratio, in logarithms (so that
// e^Log may overflow): h[a] ≤ e^Log·h[b] both ways, to a relative 1e−12 of Log, and never a
// positive entry beside a 0. The simplex's tolerances are on probabilities; this is the check
// the mechanism is judged by.
func privateColumn(col []float64, pairs []Pair) bool {
	for _, q := range pairs {
		if math.IsInf(q.Log, 1) {
			continue
		}
		a, b := col[q.A], col[q.B]
		if a == b {
			continue
		}
		if a == 0 || b == 0 || math.Abs(math.Log(a)-math.Log(b)) > q.Log+1e-12*math.Max(1, q.Log) {
			return false
		}
	}
	return true
}

// restrictedOutputs solves the program over the outputs in U: it returns the columns of H for
// U (each of length n), the row prices μ (maximization sense) and the objective, or ok false
// when the solver does not report a verified optimum.
func restrictedOutputs(n int, cost [][]float64, pairs []Pair, active []bool, U []int, opt *lp.Options, pivots *int, warm *restrictedBasis) (H [][]float64, mu []float64, obj float64, ok bool) {
	// Row generation: the program over the active pairs, then every pair checked on the
	// solution; the violated ones join and the program is solved again. Most pairs of a map
	// are slack at the optimum, and a solution of the relaxation that meets every pair is
	// optimal for the full restricted program (its prices, zero on the inactive pairs, are
	// then its prices too).
	for {
		H, mu, obj, ok = restrictedOnce(n, cost, pairs, active, U, opt, pivots, warm)
		if !ok {
			return nil, nil, 0, false
		}
		grew := false
		for i, q := range pairs {
			if active[i] || !(q.Log < floorLog) {
				continue
			}
			f := math.Exp(-q.Log)
			for j := range U {
				a, b := H[j][q.A], H[j][q.B]
				if f*a-b > 1e-12 || f*b-a > 1e-12 {
					active[i] = true
					grew = true
					break
				}
			}
		}
		if !grew {
			return H, mu, obj, true
		}
	}
}

// nearPairs marks each node's k shortest pairs.
func nearPairs(n int, pairs []Pair, k int) []bool {
	byNode := make([][]int, n)
	for i, q := range pairs {
		byNode[q.A] = append(byNode[q.A], i)
		byNode[q.B] = append(byNode[q.B], i)
	}
	active := make([]bool, len(pairs))
	for _, ks := range byNode {
		sort.Slice(ks, func(a, b int) bool { return pairs[ks[a]].Log < pairs[ks[b]].Log })
		for _, i := range ks[:min(k, len(ks))] {
			active[i] = true
		}
	}
	return active
}

// restrictedBasis is the final basis of a restricted solve with what its variables and rows
// stand for, so that the next restricted program, with more pairs and other outputs, starts
// from it: each entry of H and each row keeps its status where it is still in the program, a
// new pair's rows start basic (not binding) and a new output's entries at 0.
type restrictedBasis struct {
	outputs []int           // U of the solve: variable y·len(U)+j is H[y][U[j]]
	rows    map[pairRow]int // the rows after the N row sums, by what they constrain
	last    *lp.Result
}

// pairRow names a row of a restricted program: pair i in direction dir for output w.
type pairRow struct{ pair, output, dir int }

// start maps the saved basis onto the program over U whose pair rows are rows (nil without a
// saved basis).
func (b *restrictedBasis) start(n int, U []int, rows []pairRow) *lp.Basis {
	if b.last == nil {
		return nil
	}
	old := make(map[int]int, len(b.outputs))
	for j, w := range b.outputs {
		old[w] = j
	}
	st := &lp.Basis{Vars: make([]lp.BasisStatus, n*len(U)), Rows: make([]lp.BasisStatus, n+len(rows))}
	for y := range n {
		for j, w := range U {
			st.Vars[y*len(U)+j] = lp.AtLower
			if k, ok := old[w]; ok {
				st.Vars[y*len(U)+j] = b.last.VarStatus[y*len(b.outputs)+k]
			}
		}
		st.Rows[y] = b.last.RowStatus[y]
	}
	for r, pr := range rows {
		st.Rows[n+r] = lp.Basic
		if k, ok := b.rows[pr]; ok {
			st.Rows[n+r] = b.last.RowStatus[n+k]
		}
	}
	return st
}

// restrictedOnce solves the restricted program over the active pairs, from the basis in warm,
// which it then replaces by its own.
func restrictedOnce(n int, cost [][]float64, pairs []Pair, active []bool, U []int, opt *lp.Options, pivots *int, warm *restrictedBasis) (H [][]float64, mu []float64, obj float64, ok bool) {
	m := lp.NewModel(lp.Maximize)
	blk := m.AddBlock("H", n, len(U))
	for j, w := range U {
		for y, c := range cost[w] {
			if c != 0 {
				m.SetObjective(blk.At(y, j), c)
			}
		}
	}
	row := make([]lp.Term, len(U))
	var rows []pairRow
	for y := 0; y < n; y++ {
		for j := range U {
			row[j] = lp.Term{Var: blk.At(y, j), Coef: 1}
		}
		m.AddEq(row, 1)
	}
	for i, q := range pairs {
		if !(q.Log < floorLog) || !active[i] {
			continue
		}
		f := math.Exp(-q.Log)
		for j, w := range U {
			m.AddLe([]lp.Term{{Var: blk.At(q.A, j), Coef: f}, {Var: blk.At(q.B, j), Coef: -1}}, 0)
			m.AddLe([]lp.Term{{Var: blk.At(q.B, j), Coef: f}, {Var: blk.At(q.A, j), Coef: -1}}, 0)
			rows = append(rows, pairRow{i, w, 0}, pairRow{i, w, 1})
		}
	}
	o := *opt
	o.Start = warm.start(n, U, rows)
	res, err := m.Solve(&o)
	if err == nil {
		*pivots += res.Iterations
	}
	if err != nil || res.Status != lp.Optimal {
		return nil, nil, 0, false
	}
	warm.outputs, warm.last = append(warm.outputs[:0], U...), res
	warm.rows = make(map[pairRow]int, len(rows))
	for r, pr := range rows {
		warm.rows[pr] = r
	}
	H = make([][]float64, len(U))
	for j := range U {
		H[j] = make([]float64, n)
		for y := range n {
			H[j][y] = math.Max(0, res.X[blk.At(y, j)])
		}
	}
	return H, append([]float64(nil), res.Duals[:n]...), res.Objective, true
}
