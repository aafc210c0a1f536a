// Package graph holds undirected adjacency graphs on secrets or answers
// (docs/mathematics.md#differential-privacy): the families used in differential privacy (path,
// cycle, clique, grid, hypercube, Hamming V^u, Petersen), graphs induced on answers by a query,
// shortest-path distances, distance distributions n_d, and the symmetry tests (distance-regular,
// VT+) behind the tight bounds.
package graph
