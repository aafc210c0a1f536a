package metric_test

import (
	"fmt"
	"math"

	"github.com/qif-toolkit/qif/core/metric"
)

func ExampleGridManhattan() {
	// A 3×2 grid with cells 0.5 apart: cell 5 is the point (2, 1)·0.5.
	D, _ := metric.GridManhattan(3, 2, 0.5)
	fmt.Println(D.At(0, 5), D.At(1, 3))
	// Output: 1.5 1
}

func ExampleDiscrete() {
	D, _ := metric.Discrete(3, math.Inf(1))
	fmt.Println(D.At(0, 0), D.At(0, 1))
	// Output: 0 +Inf
}

func ExampleTotalVariation() {
	tv, _ := metric.TotalVariation([]float64{0.25, 0.25, 0.25, 0.25}, []float64{1, 0, 0, 0})
	fmt.Println(tv)
	// Output: 0.75
}

func ExampleMultiplicativeTotalVariation() {
	d, _ := metric.MultiplicativeTotalVariation([]float64{0.5, 0.5}, []float64{0.8, 0.2})
	fmt.Printf("%.4f = ln 2.5\n", d)
	// Output: 0.9163 = ln 2.5
}

func ExampleKantorovich() {
	// Moving the uniform distribution on the points 0, 1, 2, 3 of a line onto the point 0
	// costs (0 + 1 + 2 + 3)/4.
	D, _ := metric.Manhattan([][]float64{{0}, {1}, {2}, {3}})
	k, _ := metric.Kantorovich([]float64{0.25, 0.25, 0.25, 0.25}, []float64{1, 0, 0, 0}, D)
	fmt.Println(k)
	// Forbid moving mass between different points: only equal distributions are coupled.
	inf, _ := metric.Discrete(4, math.Inf(1))
	k, _ = metric.Kantorovich([]float64{0.25, 0.25, 0.25, 0.25}, []float64{1, 0, 0, 0}, inf)
	fmt.Println(k)
	// Output:
	// 1.5
	// +Inf
}

func ExampleMultiplicativeKantorovich() {
	D, _ := metric.Manhattan([][]float64{{0}, {1}, {2}})
	k, _ := metric.MultiplicativeKantorovich([]float64{1, 0, 0}, []float64{0, 0, 1}, D)
	fmt.Printf("%.6f\n", k) // point masses: their distance
	// Output: 2.000000
}
