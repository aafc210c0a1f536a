package channel

import (
	"encoding/binary"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// matrixFromBytes decodes fuzz input: byte 0 and 1 give the size (0..7 rows/cols), then each
// entry takes one byte choosing among values likely to form channels and hostile values, or,
// for selector ≥ 240, eight raw bytes as a float64.
func matrixFromBytes(b []byte) (rows, cols int, data []float64) {
	if len(b) < 2 {
		return 0, 0, nil
	}
	rows, cols = int(b[0]%8), int(b[1]%8)
	b = b[2:]
	pick := []float64{0, 1, 0.5, 0.25, 0.75, 1. / 3, 2. / 3, 0.1, 0.9, 0.2, 0.8,
		math.NaN(), math.Inf(1), math.Inf(-1), -0.5, -0, 1e-7, 1 + 1e-7, 5e-7, 2e-6, math.MaxFloat64,
		math.SmallestNonzeroFloat64}
	data = make([]float64, rows*cols)
	for i := range data {
		if len(b) == 0 {
			break
		}
		s := b[0]
		b = b[1:]
		if s >= 240 && len(b) >= 8 {
			data[i] = math.Float64frombits(binary.LittleEndian.Uint64(b))
			b = b[8:]
			continue
		}
		data[i] = pick[int(s)%len(pick)]
	}
	return rows, cols, data
}

// referenceValid is the definition, written as plainly as possible.
func referenceValid(rows, cols int, data []float64) bool {
	if rows == 0 || cols == 0 {
		return false
	}
	for i := 0; i < rows; i++ {
		sum := 0.0
		for j := 0; j < cols; j++ {
			v := data[i*cols+j]
			if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
				return false
			}
			sum += v
		}
		if sum < 1-Tolerance || sum > 1+Tolerance {
			return false
		}
	}
	return true
}

func FuzzValidate(f *testing.F) {
	f.Add([]byte{2, 2, 2, 2, 1, 0}) // [[.5,.5],[1,0]]
	f.Add([]byte{1, 3, 5, 5, 5})    // thirds
	f.Add([]byte{2, 1, 1, 11})      // NaN
	f.Add([]byte{0, 3})             // empty
	f.Add([]byte{1, 2, 14, 255})    // negative, then raw bytes
	f.Add([]byte{1, 2, 1, 16})      // 1e-7 over
	f.Fuzz(func(t *testing.T, b []byte) {
		rows, cols, data := matrixFromBytes(b)
		want := referenceValid(rows, cols, data)
		var forms []mat.Matrix
		if rows == 0 || cols == 0 {
			forms = []mat.Matrix{&mat.Dense{}}
		} else {
			d := mat.NewDense(rows, cols, data)
			forms = []mat.Matrix{d, d.T().T(), sliced(d)}
		}
		for _, c := range forms {
			err := Validate(c)
			if (err == nil) != want {
				t.Fatalf("Validate(%v) = %v, reference says valid=%v", data, err, want)
			}
			if err != nil && err.Error()[:8] != "channel:" {
				t.Fatalf("error %q does not name the argument", err)
			}
		}
		if want {
			// A valid channel must go through every operation without error.
			d := mat.NewDense(rows, cols, data)
			prior := make([]float64, rows)
			for i := range prior {
				prior[i] = 1 / float64(rows)
			}
			h, err := Hyper(prior, d)
			if err != nil {
				t.Fatalf("Hyper of a valid channel: %v", err)
			}
			s := 0.0
			for _, o := range h.Outer {
				s += o
			}
			if math.Abs(s-1) > 1e-5 {
				t.Fatalf("outer sums to %v", s)
			}
			if _, err := Reduce(d); err != nil {
				t.Fatalf("Reduce of a valid channel: %v", err)
			}
			if _, err := Parallel(d, d); err != nil {
				t.Fatalf("Parallel: %v", err)
			}
		}
	})
}
