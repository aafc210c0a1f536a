package ratlp

import (
	"math/big"
	"sort"
)

// entry is one nonzero of a sparse row.
type entry struct {
	col int
	v   *big.Rat
}

// elim records one elimination step: row target −= f · row pivot.
type elim struct {
	target, pivot int
	f             *big.Rat
}

// lu is a sparse Gaussian elimination of a matrix K in rationals: a sequence of row operations
// E with E·K = U, U's rows taken in pivot order being upper triangular in the pivot columns.
// Exact arithmetic needs no pivoting for stability, so pivots are chosen by the Markowitz
// count alone (fewest other entries in the pivot's row times in its column), which keeps the
// fill, and with it the size of the numbers, small.
type lu struct {
	rows, cols int
	ops        []elim
	prow, pcol []int     // pivot s is at (prow[s], pcol[s])
	urow       [][]entry // the pivot row's entries when it was chosen (pivot included)
	piv        []*big.Rat
	// Rows and columns left without a pivot when K is singular or not square.
	freeRows, freeCols []int
}

// factorize eliminates the rows×cols matrix whose row i has the sorted entries k[i] (the
// slices are consumed). It never fails: a singular or rectangular matrix leaves unpivoted rows
// and columns in freeRows and freeCols.
func factorize(k [][]entry, rows, cols int) *lu {
	f := &lu{rows: rows, cols: cols}
	active := make([]bool, rows)
	colRows := make([][]int, cols) // rows that may hold the column (checked on use)
	colCount := make([]int, cols)
	for i, r := range k {
		active[i] = true
		for _, e := range r {
			colRows[e.col] = append(colRows[e.col], i)
			colCount[e.col]++
		}
	}
	colDone := make([]bool, cols)
	tmp := new(big.Rat)
	for {
		// Markowitz choice over the active rows; ties go to the smaller row, then column.
		bi, bc, best := -1, -1, -1
		for i := 0; i < rows; i++ {
			if !active[i] || len(k[i]) == 0 {
				continue
			}
			if best == 0 {
				break // no choice does better
			}
			rc := len(k[i]) - 1
			for _, e := range k[i] {
				if cost := rc * (colCount[e.col] - 1); best < 0 || cost < best {
					bi, bc, best = i, e.col, cost
				}
			}
		}
		if bi < 0 {
			break
		}
		prow := k[bi]
		pv := find(prow, bc)
		active[bi] = false
		colDone[bc] = true
		for _, e := range prow {
			colCount[e.col]--
		}
		for _, i := range colRows[bc] {
			if !active[i] {
				continue
			}
			a := find(k[i], bc)
			if a == nil {
				continue
			}
			m := new(big.Rat).Quo(a, pv)
			f.ops = append(f.ops, elim{target: i, pivot: bi, f: m})
			var added []int
			k[i], added = axpy(k[i], prow, m, bc, tmp, colCount)
			for _, c := range added {
				colRows[c] = append(colRows[c], i)
			}
		}
		colRows[bc] = nil
		f.prow = append(f.prow, bi)
		f.pcol = append(f.pcol, bc)
		f.urow = append(f.urow, prow)
		f.piv = append(f.piv, pv)
	}
	for i := 0; i < rows; i++ {
		if active[i] {
			f.freeRows = append(f.freeRows, i)
		}
	}
	for c := 0; c < cols; c++ {
		if !colDone[c] {
			f.freeCols = append(f.freeCols, c)
		}
	}
	return f
}

// find returns the value at column c of a sorted row, or nil.
func find(r []entry, c int) *big.Rat {
	k := sort.Search(len(r), func(q int) bool { return r[q].col >= c })
	if k < len(r) && r[k].col == c {
		return r[k].v
	}
	return nil
}

// axpy returns the sorted row r − m·p with column drop removed (it cancels by construction),
// updating the column counts, and the columns that were filled in.
func axpy(r, p []entry, m *big.Rat, drop int, tmp *big.Rat, colCount []int) ([]entry, []int) {
	out := make([]entry, 0, len(r)+len(p))
	var added []int
	a, b := 0, 0
	for a < len(r) || b < len(p) {
		switch {
		case b == len(p) || (a < len(r) && r[a].col < p[b].col):
			out = append(out, r[a])
			a++
		case a == len(r) || p[b].col < r[a].col:
			if p[b].col != drop {
				v := new(big.Rat).Mul(m, p[b].v)
				out = append(out, entry{p[b].col, v.Neg(v)})
				colCount[p[b].col]++
				added = append(added, p[b].col)
			}
			b++
		default: // same column
			c := r[a].col
			if c == drop {
				colCount[c]--
			} else {
				v := new(big.Rat).Sub(r[a].v, tmp.Mul(m, p[b].v))
				if v.Sign() != 0 {
					out = append(out, entry{c, v})
				} else {
					colCount[c]--
				}
			}
			a++
			b++
		}
	}
	return out, added
}

// solve returns x with K·x = b for a nonsingular square K (b indexed by rows, x by columns).
func (f *lu) solve(b []*big.Rat) []*big.Rat {
	w := make([]*big.Rat, len(b))
	for i, v := range b {
		w[i] = new(big.Rat).Set(v)
	}
	tmp := new(big.Rat)
	for _, o := range f.ops {
		if w[o.pivot].Sign() != 0 {
			w[o.target].Sub(w[o.target], tmp.Mul(o.f, w[o.pivot]))
		}
	}
	x := make([]*big.Rat, f.cols)
	for s := len(f.prow) - 1; s >= 0; s-- {
		v := new(big.Rat).Set(w[f.prow[s]])
		for _, e := range f.urow[s] {
			if e.col != f.pcol[s] && x[e.col].Sign() != 0 {
				v.Sub(v, tmp.Mul(e.v, x[e.col]))
			}
		}
		x[f.pcol[s]] = v.Quo(v, f.piv[s])
	}
	return x
}

// solveT returns y with Kᵀ·y = c for a nonsingular square K (c indexed by columns, y by rows).
func (f *lu) solveT(c []*big.Rat) []*big.Rat {
	w := make([]*big.Rat, len(c))
	for j, v := range c {
		w[j] = new(big.Rat).Set(v)
	}
	z := make([]*big.Rat, f.rows)
	for i := range z {
		z[i] = new(big.Rat)
	}
	tmp := new(big.Rat)
	for s := range f.prow {
		zr := z[f.prow[s]].Quo(w[f.pcol[s]], f.piv[s])
		if zr.Sign() == 0 {
			continue
		}
		for _, e := range f.urow[s] {
			if e.col != f.pcol[s] {
				w[e.col].Sub(w[e.col], tmp.Mul(e.v, zr))
			}
		}
	}
	for q := len(f.ops) - 1; q >= 0; q-- {
		o := f.ops[q]
		if z[o.target].Sign() != 0 {
			z[o.pivot].Sub(z[o.pivot], tmp.Mul(o.f, z[o.target]))
		}
	}
	return z
}
