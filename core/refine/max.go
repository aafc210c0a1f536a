package refine

import (
	"fmt"

	"github.com/qif-toolkit/qif/core/argerr"
	"github.com/qif-toolkit/qif/core/channel"
	"gonum.org/v1/gonum/mat"
)

// MaxTolerance is the decision tolerance of Max: a posterior of B counts as inside the convex
// hull of A's posteriors when its Euclidean distance to the hull is at most 1e-9.
const MaxTolerance = 1e-9

// PosteriorCounterexample is a posterior of B (under the uniform prior) outside the convex
// hull S of A's posteriors. With V(σ) = the Euclidean distance from σ to S — quasi-convex,
// continuous — the max-case posterior vulnerability V^max[u▷A] is 0 (every posterior of A lies
// in S) while V^max[u▷B] ≥ Distance > 0: an adversary who prefers B.
type PosteriorCounterexample struct {
	// Output is the column of B whose posterior this is.
	Output int
	// Posterior is that posterior: column Output of B divided by its sum.
	Posterior []float64
	// Distance is the Euclidean distance from Posterior to the hull (the nearest point found);
	// DistanceLowerBound is certified by a separating hyperplane (see hullProjection).
	Distance, DistanceLowerBound float64
	// Nearest is the point of the hull nearest to Posterior.
	Nearest []float64
}

// MaxResult is the verdict of Max.
type MaxResult struct {
	// Holds reports A ⊑max B: every posterior of B is within MaxTolerance of the hull of A's.
	Holds bool
	// Witness, when Holds, is the row-stochastic R with B̂ = R·Â: row i holds the convex
	// weights, over A's posteriors, of the i-th posterior of B. Rows follow OutputsB and
	// columns OutputsA.
	Witness *mat.Dense
	// OutputsA and OutputsB list the non-zero columns of A and B, i.e. the outputs whose
	// posteriors are the columns and rows of Witness.
	OutputsA, OutputsB []int
	// Distances[i] is the distance from the i-th posterior of B to the hull of A's posteriors.
	Distances []float64
	// Counterexample, when !Holds, is the posterior of B farthest from the hull.
	Counterexample *PosteriorCounterexample
}

// Posteriors returns Ĉ (docs/mathematics.md#refinement): C with its all-zero columns dropped, each
// column divided by its sum, transposed — row i is the posterior, under the uniform prior, of
// output outputs[i].
func Posteriors(C mat.Matrix) (post *mat.Dense, outputs []int, err error) {
	if err := channel.Validate(C); err != nil {
		return nil, nil, err
	}
	n, m := C.Dims()
	c := normalizedRows(C)
	outputs = nonzeroColumns(c, n, m)
	return mat.NewDense(len(outputs), n, posteriorRows(c, n, m, outputs)), outputs, nil
}

func posteriorRows(c []float64, n, m int, cols []int) []float64 {
	out := make([]float64, len(cols)*n)
	for i, y := range cols {
		s := 0.0
		for x := 0; x < n; x++ {
			s += c[x*m+y]
		}
		for x := 0; x < n; x++ {
			out[i*n+x] = c[x*m+y] / s
		}
	}
	return out
}

// Max decides A ⊑max B (docs/mathematics.md#refinement, Chatzikokolakis et al. (CSF 2019) §3): B̂ =
// R·Â for a row-stochastic R, i.e. every posterior of B under the uniform prior lies in the convex
// hull of A's posteriors. Each posterior of B is projected on that hull independently (Wolfe's
// min-norm-point algorithm, see hullProjection): the verdict is that every distance is at most
// MaxTolerance; the convex weights of the projections form the witness, and the farthest posterior
// is the counterexample when the order fails.
func Max(A, B mat.Matrix) (*MaxResult, error) { return MaxWith(A, B, nil) }

// MaxWith is Max with options (a context checked between posteriors, a different tolerance).
func MaxWith(A, B mat.Matrix, opt *Options) (*MaxResult, error) {
	if err := checkOptions(opt); err != nil {
		return nil, err
	}
	p, err := newPair(A, B)
	if err != nil {
		return nil, err
	}
	tol := opt.tol(MaxTolerance)
	ctx := opt.ctx()
	n, k1, k2 := p.n, len(p.colA), len(p.colB)
	pa := posteriorRows(p.a, n, p.ma, p.colA)
	pb := posteriorRows(p.b, n, p.mb, p.colB)
	res := &MaxResult{
		Holds:     true,
		OutputsA:  append([]int(nil), p.colA...),
		OutputsB:  append([]int(nil), p.colB...),
		Distances: make([]float64, k2),
	}
	W := mat.NewDense(k2, k1, nil)
	worst := -1
	var worstLower float64
	var worstLambda []float64
	for i := 0; i < k2; i++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		b := pb[i*n : (i+1)*n]
		lambda, dist, lower, err := hullProjection(pa, k1, n, b)
		if err != nil {
			return nil, fmt.Errorf("%w (posterior of output %d of B)", err, p.colB[i])
		}
		res.Distances[i] = dist
		W.SetRow(i, lambda)
		if dist > tol {
			res.Holds = false
			if worst < 0 || dist > res.Distances[worst] {
				worst, worstLower, worstLambda = i, lower, lambda
			}
		}
	}
	if res.Holds {
		res.Witness = W
		return res, nil
	}
	b := pb[worst*n : (worst+1)*n]
	nearest := make([]float64, n)
	for j, w := range worstLambda {
		if w != 0 {
			for x := 0; x < n; x++ {
				nearest[x] += w * pa[j*n+x]
			}
		}
	}
	res.Counterexample = &PosteriorCounterexample{
		Output:             p.colB[worst],
		Posterior:          append([]float64(nil), b...),
		Distance:           res.Distances[worst],
		DistanceLowerBound: worstLower,
		Nearest:            nearest,
	}
	return res, nil
}

// HullDistance returns the Euclidean distance from the distribution sigma (finite,
// non-negative entries summing to 1, checked like a prior) to the convex hull of the
// posteriors of C under the uniform prior — the vulnerability V of the max-case
// counterexample (0 on C's own posteriors). It is exposed so that a counterexample can be
// checked with measure.MaxCasePosteriorVulnerability.
func HullDistance(C mat.Matrix, sigma []float64) (float64, error) {
	post, _, err := Posteriors(C)
	if err != nil {
		return 0, err
	}
	k, n := post.Dims()
	if len(sigma) != n {
		return 0, argerr.New("sigma", "has %d entries but the channel has %d secrets", len(sigma), n)
	}
	if err := channel.ValidateDistribution("sigma", sigma); err != nil {
		return 0, err
	}
	_, d, _, err := hullProjection(post.RawMatrix().Data, k, n, sigma)
	return d, err
}

// MaxMeet returns the channel whose posteriors under the uniform prior are the union of A's and
// B's: [A | B]/2, reduced (all-zero columns dropped, proportional columns merged). Its hull is the
// hull of both posterior sets, so it is the greatest lower bound of A and B for ⊑max
// (Chatzikokolakis et al. (CSF 2019) §7.2): MaxMeet ⊑max A, MaxMeet ⊑max B, and every C with C ⊑max
// A and C ⊑max B has C ⊑max MaxMeet.
//
// Some accounts call this channel the join. Under the reading of A ⊑max B used here (B's posteriors
// in the hull of A's: B is the safer one) the union of the posteriors is below both channels, the
// less safe one, hence the meet; the join (the safest channel refining neither more than needed)
// has the intersection of the hulls as its hull, which Chatzikokolakis et al. (CSF 2019) §7.2 notes
// is hard to compute in general.
func MaxMeet(A, B mat.Matrix) (*mat.Dense, error) {
	p, err := newPair(A, B)
	if err != nil {
		return nil, err
	}
	n, m := p.n, p.ma+p.mb
	u := mat.NewDense(n, m, nil)
	ud := u.RawMatrix().Data
	for x := 0; x < n; x++ {
		for y := 0; y < p.ma; y++ {
			ud[x*m+y] = p.a[x*p.ma+y] / 2
		}
		for z := 0; z < p.mb; z++ {
			ud[x*m+p.ma+z] = p.b[x*p.mb+z] / 2
		}
	}
	return channel.Reduce(u)
}
