package moreapi

import . "github.com/qif-toolkit/qif/bindings/table"

// Parameters shared across namespaces (the first module, package bindings, declares the ones it
// uses itself: a module's package links nothing of the other's).
var (
	pC       = Param{Name: "C", Label: "channel", Kind: KindMatrix, Doc: "channel: rows secrets, columns observables, each row sums to 1"}
	pPrior   = Param{Name: "prior", Kind: KindVector, Doc: "prior π on the secrets (non-negative, sums to 1)"}
	pA       = Param{Name: "A", Kind: KindMatrix, Doc: "a channel"}
	pB       = Param{Name: "B", Kind: KindMatrix, Doc: "a channel on the same secrets"}
	pGraph   = Param{Name: "graph", Kind: KindGraph, Doc: "adjacency graph on the inputs"}
	pEpsilon = Param{Name: "epsilon", Kind: KindNumber, Doc: "privacy parameter ε, nats"}
	pMetric  = Param{Name: "D", Label: "metric", Kind: KindMatrix, Doc: "distance matrix (symmetric, zero diagonal, Infinity allowed), nats per unit of ε"}
)

// The papers functions come from.
const (
	csf    = "Chatzikokolakis et al. (CSF 2019)"
	icalp  = "Alvim et al. (ICALP 2011)"
	wu     = "Wu (2019)"
	vadhan = "Vadhan (2013)"
)

// result passes a typed result on as any, keeping a nil pointer from becoming a non-nil any.
func result[T any](v *T, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	return v, nil
}
