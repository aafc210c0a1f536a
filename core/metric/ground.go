package metric

import (
	"fmt"
	"math"

	"github.com/qif-toolkit/qif/core/argerr"
	"gonum.org/v1/gonum/mat"
)

// MaxPoints is the largest number of points of a ground metric: its n×n matrix then has at most
// channel.MaxEntries (5·10⁷) entries, the memory limit of every matrix of the toolkit.
const MaxPoints = 7071

// Euclidean returns the n×n matrix of Euclidean distances between n points, each given by its
// coordinates (any dimension ≥ 1, the same for all points).
func Euclidean(points [][]float64) (*mat.Dense, error) {
	return pointMetric(points, func(a, b []float64) float64 {
		// Scaled by the largest coordinate difference so that the squares neither overflow
		// (coordinates of 1e200) nor underflow (1e-200).
		scale := 0.0
		for k, v := range a {
			scale = math.Max(scale, math.Abs(v-b[k]))
		}
		if scale == 0 || math.IsInf(scale, 0) {
			return scale
		}
		s := 0.0
		for k, v := range a {
			d := (v - b[k]) / scale
			s += d * d
		}
		return scale * math.Sqrt(s)
	})
}

// Manhattan returns the n×n matrix of Manhattan (L1) distances Σ_k |a_k − b_k| between n
// points, each given by its coordinates (any dimension ≥ 1, the same for all points).
func Manhattan(points [][]float64) (*mat.Dense, error) {
	return pointMetric(points, func(a, b []float64) float64 {
		s := 0.0
		for k, v := range a {
			s += math.Abs(v - b[k])
		}
		return s
	})
}

// pointMetric validates points and fills the symmetric matrix of dist over every pair.
func pointMetric(points [][]float64, dist func(a, b []float64) float64) (*mat.Dense, error) {
	n := len(points)
	if n == 0 {
		return nil, argerr.New("points", "no points given")
	}
	if n > MaxPoints {
		return nil, argerr.New("points", "%d points give a %d×%d matrix, more than the limit of %d points", n, n, n, MaxPoints)
	}
	dim := len(points[0])
	if dim == 0 {
		return nil, argerr.New("points", "point 0 has no coordinates")
	}
	for i, p := range points {
		if len(p) != dim {
			return nil, argerr.New("points", "point %d has %d coordinates but point 0 has %d", i, len(p), dim)
		}
		for k, v := range p {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, argerr.New("points", "coordinate %d of point %d is %v, expected a finite number", k, i, v)
			}
		}
	}
	d := mat.NewDense(n, n, nil)
	raw := d.RawMatrix().Data
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			v := dist(points[i], points[j])
			if math.IsInf(v, 0) {
				return nil, argerr.New("points", "the distance between points %d and %d overflows (coordinates too far apart)", i, j)
			}
			raw[i*n+j], raw[j*n+i] = v, v
		}
	}
	return d, nil
}

// GridEuclidean returns the Euclidean distances between the cells of a width×height grid: cell
// i (row-major, i = 0..width·height−1) is the point (i mod width, ⌊i/width⌋)·cellSize.
func GridEuclidean(width, height int, cellSize float64) (*mat.Dense, error) {
	pts, err := gridPoints(width, height, cellSize)
	if err != nil {
		return nil, err
	}
	return Euclidean(pts)
}

// GridManhattan returns the Manhattan distances between the cells of a width×height grid, cell
// i being the point (i mod width, ⌊i/width⌋)·cellSize.
func GridManhattan(width, height int, cellSize float64) (*mat.Dense, error) {
	pts, err := gridPoints(width, height, cellSize)
	if err != nil {
		return nil, err
	}
	return Manhattan(pts)
}

func gridPoints(width, height int, cellSize float64) ([][]float64, error) {
	switch {
	case width < 1:
		return nil, argerr.New("width", "must be at least 1, got %d", width)
	case height < 1:
		return nil, argerr.New("height", "must be at least 1, got %d", height)
	case float64(width)*float64(height) > float64(MaxPoints):
		return nil, fmt.Errorf("width, height: a %d×%d grid has %.3g cells, more than the limit of %d", width, height, float64(width)*float64(height), MaxPoints)
	case math.IsNaN(cellSize) || cellSize <= 0 || math.IsInf(cellSize, 0):
		return nil, argerr.New("cellSize", "must be a positive finite number, got %v", cellSize)
	}
	pts := make([][]float64, width*height)
	for i := range pts {
		pts[i] = []float64{float64(i%width) * cellSize, float64(i/width) * cellSize}
	}
	return pts, nil
}

// Discrete returns the discrete metric on n points scaled by s: D[x][x'] = s for x ≠ x', 0 on
// the diagonal. s may be 0 (every point at distance 0) or +Inf (every pair fully
// distinguishable); the diagonal stays 0 (∞·0 = 0).
func Discrete(n int, scale float64) (*mat.Dense, error) {
	switch {
	case n < 1:
		return nil, argerr.New("n", "must be at least 1, got %d", n)
	case n > MaxPoints:
		return nil, argerr.New("n", "%d points give a %d×%d matrix, more than the limit of %d points", n, n, n, MaxPoints)
	case math.IsNaN(scale) || scale < 0:
		return nil, argerr.New("scale", "must be ≥ 0 (+Inf allowed), got %v", scale)
	}
	d := mat.NewDense(n, n, nil)
	raw := d.RawMatrix().Data
	for i := range raw {
		if i/n != i%n {
			raw[i] = scale
		}
	}
	return d, nil
}

// Threshold returns the 0/1 matrix T[x][x'] = 0 when D[x][x'] < t and 1 otherwise, for a
// distance matrix D and a threshold t > 0 (+Inf allowed: then only the infinite distances
// become 1). The diagonal stays 0. T is symmetric but in general not a metric in the strict
// sense (the triangle inequality may fail), which the d-privacy functions do not require.
func Threshold(D mat.Matrix, t float64) (*mat.Dense, error) {
	n, err := validateGround("D", D, -1)
	if err != nil {
		return nil, err
	}
	if math.IsNaN(t) || t <= 0 {
		return nil, argerr.New("t", "the threshold must be positive (so that the diagonal stays 0), got %v", t)
	}
	out := mat.NewDense(n, n, nil)
	raw := out.RawMatrix().Data
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if !(D.At(i, j) < t) {
				raw[i*n+j] = 1
			}
		}
	}
	return out, nil
}
