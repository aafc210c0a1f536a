package exact

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/qif-toolkit/qif/core/argerr"
)

// Limits of one typed number: longer strings and larger decimal exponents are refused before
// any arithmetic, so that "1e99999999" cannot ask for a number with hundreds of megabits.
const (
	MaxNumberLength = 10_000 // characters of one number
	MaxExponent     = 10_000 // |k| in a decimal exponent e±k
)

// Parse reads a rational number written as an integer ("3", "-2"), a decimal ("0.25", ".5",
// "1.5e-3") or a fraction of two such numbers ("1/3", "-2/7", "1/2.5"): the texts of
// FractionPattern (grammar.go), which a test checks Parse accepts exactly (a scanner, not a
// regular expression, since it reads every entry of a pasted matrix). Surrounding spaces are
// ignored. The value is the number as written: "0.1" is exactly 1/10. Hexadecimal, octal and
// other prefixes are not numbers here ("010" is ten). A zero denominator, an empty string and
// anything else are errors.
func Parse(s string) (*big.Rat, error) {
	t := strings.TrimSpace(s)
	if len(t) > MaxNumberLength {
		return nil, fmt.Errorf("%d characters, more than the limit of %d for one number", len(t), MaxNumberLength)
	}
	num, den, isFrac := strings.Cut(t, "/")
	if r, ok := parseSmallFraction(num, den, isFrac); ok {
		return r, nil
	}
	// Blanks and tabs around the bar (the ends are trimmed already).
	p, err := parseDecimal(strings.TrimRight(num, " \t"), true)
	if err != nil {
		return nil, fmt.Errorf("%q: %v", s, err)
	}
	if !isFrac {
		return p, nil
	}
	q, err := parseDecimal(strings.TrimLeft(den, " \t"), false)
	if err != nil {
		return nil, fmt.Errorf("%q: denominator: %v", s, err)
	}
	if q.Sign() == 0 {
		return nil, fmt.Errorf("%q: zero denominator", s)
	}
	return p.Quo(p, q), nil
}

// parseSmallFraction is the fast path of Parse for what typed channels mostly hold, "a/b" or
// "a" with at most 18 digits each: two strconv calls instead of big-number parsing (a
// 700×700 channel of such fractions parsed in 5 s in WebAssembly, most of it here).
func parseSmallFraction(num, den string, isFrac bool) (*big.Rat, bool) {
	small := func(s string, signed bool) (int64, bool) {
		digits := s
		if signed && len(s) > 0 && s[0] == '-' {
			digits = s[1:]
		}
		if len(digits) == 0 || len(digits) > 18 || !allDigits(digits) {
			return 0, false
		}
		v, err := strconv.ParseInt(s, 10, 64)
		return v, err == nil
	}
	a, ok := small(num, true)
	if !ok {
		return nil, false
	}
	if !isFrac {
		return new(big.Rat).SetInt64(a), true
	}
	b, ok := small(den, false)
	if !ok || b == 0 {
		return nil, false
	}
	return new(big.Rat).SetFrac64(a, b), true
}

// errNotNumber is the error for text that is not a number at all.
var errNotNumber = errors.New("not a number (expected an integer, a decimal such as 0.25 or a fraction such as 1/3)")

// parseDecimal reads [sign] digits [. digits] [e [sign] digits], the sign only when signed.
func parseDecimal(s string, signed bool) (*big.Rat, error) {
	neg := false
	if len(s) > 0 && (s[0] == '+' || s[0] == '-') {
		if !signed {
			return nil, fmt.Errorf("a sign belongs to the numerator")
		}
		neg = s[0] == '-'
		s = s[1:]
	}
	mant, expPart, hasExp := strings.Cut(strings.ToLower(s), "e")
	intPart, fracPart, _ := strings.Cut(mant, ".")
	if intPart == "" && fracPart == "" || !allDigits(intPart) || !allDigits(fracPart) {
		return nil, errNotNumber
	}
	exp := 0
	if hasExp {
		e, err := strconv.Atoi(expPart)
		if err != nil || expPart == "" || expPart[0] == ' ' {
			return nil, errNotNumber
		}
		if e > MaxExponent || e < -MaxExponent {
			return nil, fmt.Errorf("exponent %d is beyond ±%d", e, MaxExponent)
		}
		exp = e
	}
	var n big.Int
	n.SetString(intPart+fracPart, 10) // all digits, at least one
	if neg {
		n.Neg(&n)
	}
	exp -= len(fracPart)
	r := new(big.Rat).SetInt(&n)
	if exp != 0 {
		p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(exp))), nil)
		if exp > 0 {
			r.Mul(r, new(big.Rat).SetInt(p))
		} else {
			r.Quo(r, new(big.Rat).SetInt(p))
		}
	}
	return r, nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func abs(k int) int {
	if k < 0 {
		return -k
	}
	return k
}

// FromFloat converts a float64 through its shortest decimal representation, the digits a
// program prints for it: 0.1 becomes 1/10 (not the binary fraction 3602879701896397/2^55
// that the float64 holds), so numbers typed as decimals in JavaScript or Go keep the value
// that was typed. A third typed as 1/3 in floating point is 0.3333333333333333, a finite
// decimal; write the fraction as a string ("1/3") to mean a third. NaN and ±Inf are errors.
func FromFloat(v float64) (*big.Rat, error) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil, fmt.Errorf("%v is not a rational number", v)
	}
	return parseDecimal(strconv.FormatFloat(v, 'g', -1, 64), true)
}

// Vector is a vector of rationals (a prior, a distribution, a row).
type Vector []*big.Rat

// Matrix is a dense matrix of rationals in row-major order: entry (i, j) is Data[i*Cols+j].
type Matrix struct {
	Rows, Cols int
	Data       []*big.Rat
}

// NewMatrix returns a rows×cols matrix of zeros.
func NewMatrix(rows, cols int) *Matrix {
	m := &Matrix{Rows: rows, Cols: cols, Data: make([]*big.Rat, rows*cols)}
	for i := range m.Data {
		m.Data[i] = new(big.Rat)
	}
	return m
}

// At returns entry (i, j) (not a copy: do not modify it).
func (m *Matrix) At(i, j int) *big.Rat { return m.Data[i*m.Cols+j] }

// Row returns row i (sharing storage with m).
func (m *Matrix) Row(i int) []*big.Rat { return m.Data[i*m.Cols : (i+1)*m.Cols] }

// String writes a reduced fraction: "2/7", "-1/3", "0", "5".
func String(r *big.Rat) string { return r.RatString() }

// Strings writes every entry of v as a reduced fraction.
func (v Vector) Strings() []string {
	out := make([]string, len(v))
	for i, r := range v {
		out[i] = r.RatString()
	}
	return out
}

// Strings writes the entries of m in row-major order as reduced fractions.
func (m *Matrix) Strings() []string { return Vector(m.Data).Strings() }

// Floats returns the nearest float64 of every entry of v.
func (v Vector) Floats() []float64 {
	out := make([]float64, len(v))
	for i, r := range v {
		out[i], _ = r.Float64()
	}
	return out
}

// Floats returns the nearest float64 of every entry of m, row-major.
func (m *Matrix) Floats() []float64 { return Vector(m.Data).Floats() }

// ParseVector parses every entry of s (see Parse); errors name the argument and the entry.
func ParseVector(name string, s []string) (Vector, error) {
	out := make(Vector, len(s))
	for i, t := range s {
		r, err := Parse(t)
		if err != nil {
			return nil, argerr.Entry(name, i, ": %v", err)
		}
		out[i] = r
	}
	return out, nil
}

// VectorFromFloats converts every entry with FromFloat; errors name the argument and the entry.
func VectorFromFloats(name string, v []float64) (Vector, error) {
	out := make(Vector, len(v))
	for i, f := range v {
		r, err := FromFloat(f)
		if err != nil {
			return nil, argerr.Entry(name, i, ": %v", err)
		}
		out[i] = r
	}
	return out, nil
}

// ParseMatrix parses a matrix given as rows of strings; every row must have the same length.
func ParseMatrix(name string, rows [][]string) (*Matrix, error) {
	if len(rows) == 0 || len(rows[0]) == 0 {
		return nil, argerr.New(name, "empty matrix")
	}
	c := len(rows[0])
	if float64(len(rows))*float64(c) > MaxEntries {
		return nil, argerr.New(name, "%d×%d has more than the limit of %d entries", len(rows), c, MaxEntries)
	}
	m := &Matrix{Rows: len(rows), Cols: c, Data: make([]*big.Rat, 0, len(rows)*c)}
	for i, row := range rows {
		if len(row) != c {
			return nil, argerr.Row(name, i, "has %d entries where the first row has %d", len(row), c)
		}
		for j, t := range row {
			r, err := Parse(t)
			if err != nil {
				return nil, argerr.Cell(name, i, j, ": %v", err)
			}
			m.Data = append(m.Data, r)
		}
	}
	return m, nil
}

// MatrixFromFloats converts a row-major rows×cols slice with FromFloat.
func MatrixFromFloats(name string, rows, cols int, data []float64) (*Matrix, error) {
	if rows < 1 || cols < 1 {
		return nil, argerr.New(name, "empty matrix (%d×%d)", rows, cols)
	}
	if float64(rows)*float64(cols) > MaxEntries {
		return nil, argerr.New(name, "%d×%d has more than the limit of %d entries", rows, cols, MaxEntries)
	}
	if len(data) != rows*cols {
		return nil, argerr.New(name, "%d entries for a %d×%d matrix", len(data), rows, cols)
	}
	m := &Matrix{Rows: rows, Cols: cols, Data: make([]*big.Rat, len(data))}
	for k, f := range data {
		r, err := FromFloat(f)
		if err != nil {
			return nil, argerr.Cell(name, k/cols, k%cols, ": %v", err)
		}
		m.Data[k] = r
	}
	return m, nil
}

// ParseMetric parses a distance matrix for MechanismSpec.Metric: entries as in Parse, or
// "Infinity" (also "inf", "+inf", "∞", any case) for +∞, stored as a nil entry.
func ParseMetric(name string, rows [][]string) (*Matrix, error) {
	inf := make([][]bool, len(rows))
	clean := make([][]string, len(rows))
	for i, row := range rows {
		inf[i] = make([]bool, len(row))
		clean[i] = append([]string(nil), row...)
		for j, t := range row {
			switch strings.ToLower(strings.TrimSpace(t)) {
			case "infinity", "+infinity", "inf", "+inf", "∞":
				inf[i][j], clean[i][j] = true, "0"
			}
		}
	}
	m, err := ParseMatrix(name, clean)
	if err != nil {
		return nil, err
	}
	for i := range inf {
		for j, isInf := range inf[i] {
			if isInf {
				m.Data[i*m.Cols+j] = nil
			}
		}
	}
	return m, nil
}

// MustParse is Parse for constants written in a program (tests, examples); it panics on a
// malformed constant, like regexp.MustCompile. Parse user input with Parse.
func MustParse(s string) *big.Rat {
	r, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return r
}
