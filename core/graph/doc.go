// Package graph holds undirected adjacency graphs on secrets or answers
// (docs/mathematics.md#differential-privacy): the families used in differential privacy (path,
// cycle, clique, grid, hypercube, Hamming V^u, Petersen), graphs induced on answers by a query,
// shortest-path distances (BFS, and DistanceRows for all sources with reused buffers and a
// bit-parallel search on dense graphs), distance distributions n_d, the symmetry tests
// (distance-regular, VT+) behind the tight bounds, and the greedy spanner of a metric
// (GreedySpanner), on whose edges the optimal mechanism of core/mechanism may be computed.
package graph
