package lp

import "math"

// luFactor is a sparse LU factorization of a simplex basis B (m×m, its columns indexed by basis
// position) followed by product-form (eta) updates for the basis changes since the last
// factorization.
//
// The factorization is right-looking Gaussian elimination with Markowitz pivot choice and
// threshold partial pivoting: singleton columns and rows first (a basis of mostly logical
// variables is nearly triangular), then the pivot of least Markowitz cost (r−1)(c−1) among the
// sparsest columns and rows whose magnitude is at least luThreshold times the largest entry of its
// column. Step k pivots on row pivRow[k] and position pivCol[k].
type luFactor struct {
	m      int
	pivRow []int
	pivCol []int
	uDiag  []float64

	// L as a sequence of column etas: eta e subtracts lVal·x[lRow[e]] from x[lIdx].
	lRow   []int
	lStart []int
	lIdx   []int
	lVal   []float64

	// U by rows (step k: positions urIdx, values urVal) and by columns (step k: rows ucIdx).
	urStart []int
	urIdx   []int
	urVal   []float64
	ucStart []int
	ucIdx   []int
	ucVal   []float64

	// Product-form updates: eta e replaces position etaPos[e] by a column whose FTRAN is
	// (etaIdx, etaVal) off the pivot and etaPiv on it.
	etaPos   []int
	etaPiv   []float64
	etaStart []int
	etaIdx   []int
	etaVal   []float64

	nnzLU int

	// active submatrix during factorization
	cIdx  [][]int
	cVal  [][]float64
	rCols [][]int
	cnt   counts
	mark  []int
}

const (
	luThreshold = 0.1   // threshold partial pivoting: |pivot| ≥ luThreshold · max |column|
	luAbsTol    = 1e-11 // entries below this never become pivots (the basis counts as singular)
	luSearch    = 4     // number of candidate columns/rows searched for a Markowitz pivot
)

// counts keeps columns and rows in doubly linked buckets by their active count.
type counts struct {
	colCnt, rowCnt            []int
	colHead, colNext, colPrev []int
	rowHead, rowNext, rowPrev []int
}

func (c *counts) init(m int) {
	c.colCnt = resize(c.colCnt, m)
	c.rowCnt = resize(c.rowCnt, m)
	c.colHead = fill(resize(c.colHead, m+1), -1)
	c.rowHead = fill(resize(c.rowHead, m+1), -1)
	c.colNext = resize(c.colNext, m)
	c.colPrev = resize(c.colPrev, m)
	c.rowNext = resize(c.rowNext, m)
	c.rowPrev = resize(c.rowPrev, m)
}

func resize(a []int, n int) []int {
	if cap(a) < n {
		return make([]int, n)
	}
	return a[:n]
}

func fill(a []int, v int) []int {
	for i := range a {
		a[i] = v
	}
	return a
}

func (c *counts) addCol(j, k int) {
	c.colCnt[j] = k
	c.colPrev[j] = -1
	c.colNext[j] = c.colHead[k]
	if c.colHead[k] >= 0 {
		c.colPrev[c.colHead[k]] = j
	}
	c.colHead[k] = j
}

func (c *counts) delCol(j int) {
	k := c.colCnt[j]
	if c.colPrev[j] >= 0 {
		c.colNext[c.colPrev[j]] = c.colNext[j]
	} else {
		c.colHead[k] = c.colNext[j]
	}
	if c.colNext[j] >= 0 {
		c.colPrev[c.colNext[j]] = c.colPrev[j]
	}
}

func (c *counts) addRow(i, k int) {
	c.rowCnt[i] = k
	c.rowPrev[i] = -1
	c.rowNext[i] = c.rowHead[k]
	if c.rowHead[k] >= 0 {
		c.rowPrev[c.rowHead[k]] = i
	}
	c.rowHead[k] = i
}

func (c *counts) delRow(i int) {
	k := c.rowCnt[i]
	if c.rowPrev[i] >= 0 {
		c.rowNext[c.rowPrev[i]] = c.rowNext[i]
	} else {
		c.rowHead[k] = c.rowNext[i]
	}
	if c.rowNext[i] >= 0 {
		c.rowPrev[c.rowNext[i]] = c.rowPrev[i]
	}
}

// factor factorizes the m×m matrix whose column p is (idx[start[p]:start[p+1]], val[...]).
// When the matrix is singular it returns the positions and rows left without a pivot (equally
// many); the factorization is then incomplete and must not be used.
func (f *luFactor) factor(m int, start, idx []int, val []float64) (badPos, badRows []int) {
	f.m = m
	f.pivRow = f.pivRow[:0]
	f.pivCol = f.pivCol[:0]
	f.uDiag = f.uDiag[:0]
	f.lRow, f.lStart, f.lIdx, f.lVal = f.lRow[:0], append(f.lStart[:0], 0), f.lIdx[:0], f.lVal[:0]
	f.urStart, f.urIdx, f.urVal = append(f.urStart[:0], 0), f.urIdx[:0], f.urVal[:0]
	f.resetEtas()

	if cap(f.cIdx) < m {
		f.cIdx = make([][]int, m)
		f.cVal = make([][]float64, m)
		f.rCols = make([][]int, m)
	}
	f.cIdx, f.cVal, f.rCols = f.cIdx[:m], f.cVal[:m], f.rCols[:m]
	for i := 0; i < m; i++ {
		f.rCols[i] = f.rCols[i][:0]
	}
	for p := 0; p < m; p++ {
		f.cIdx[p] = append(f.cIdx[p][:0], idx[start[p]:start[p+1]]...)
		f.cVal[p] = append(f.cVal[p][:0], val[start[p]:start[p+1]]...)
		for _, i := range idx[start[p]:start[p+1]] {
			f.rCols[i] = append(f.rCols[i], p)
		}
	}
	f.cnt.init(m)
	for p := 0; p < m; p++ {
		f.cnt.addCol(p, len(f.cIdx[p]))
	}
	for i := 0; i < m; i++ {
		f.cnt.addRow(i, len(f.rCols[i]))
	}
	f.mark = fill(resize(f.mark, m), -1)
	colDone := make([]bool, m)
	rowDone := make([]bool, m)

	for k := 0; k < m; k++ {
		r, c := f.choosePivot()
		if r < 0 {
			break
		}
		f.eliminate(r, c)
		colDone[c], rowDone[r] = true, true
	}
	if len(f.pivRow) < m {
		for p := 0; p < m; p++ {
			if !colDone[p] {
				badPos = append(badPos, p)
			}
		}
		for i := 0; i < m; i++ {
			if !rowDone[i] {
				badRows = append(badRows, i)
			}
		}
		return badPos, badRows
	}
	f.buildUCols()
	f.nnzLU = len(f.lIdx) + len(f.urIdx) + m
	return nil, nil
}

func (f *luFactor) value(r, c int) float64 {
	for k, i := range f.cIdx[c] {
		if i == r {
			return f.cVal[c][k]
		}
	}
	return 0
}

func (f *luFactor) colMax(c int) float64 {
	mx := 0.0
	for _, v := range f.cVal[c] {
		if a := math.Abs(v); a > mx {
			mx = a
		}
	}
	return mx
}

// choosePivot returns a pivot (row, position), or (-1, -1) when no acceptable pivot remains.
func (f *luFactor) choosePivot() (int, int) {
	ct := &f.cnt
	// Column singletons: no L entries, no fill.
	for c := ct.colHead[1]; c >= 0; c = ct.colNext[c] {
		if math.Abs(f.cVal[c][0]) > luAbsTol {
			return f.cIdx[c][0], c
		}
	}
	// Row singletons: no U entries, no fill.
	for r := ct.rowHead[1]; r >= 0; r = ct.rowNext[r] {
		c := f.rCols[r][0]
		v := math.Abs(f.value(r, c))
		if v > luAbsTol && v >= luThreshold*f.colMax(c) {
			return r, c
		}
	}
	bestR, bestC := -1, -1
	bestCost := math.MaxFloat64
	bestMag := 0.0
	searched := 0
	m := f.m
	for k := 2; k <= m; k++ {
		for c := ct.colHead[k]; c >= 0; c = ct.colNext[c] {
			mx := f.colMax(c)
			for e, i := range f.cIdx[c] {
				a := math.Abs(f.cVal[c][e])
				if a <= luAbsTol || a < luThreshold*mx {
					continue
				}
				cost := float64(ct.rowCnt[i]-1) * float64(k-1)
				if cost < bestCost || (cost == bestCost && a > bestMag) {
					bestR, bestC, bestCost, bestMag = i, c, cost, a
				}
			}
			searched++
			if bestR >= 0 && searched >= luSearch {
				return bestR, bestC
			}
		}
		for r := ct.rowHead[k]; r >= 0; r = ct.rowNext[r] {
			for _, c := range f.rCols[r] {
				a := math.Abs(f.value(r, c))
				if a <= luAbsTol || a < luThreshold*f.colMax(c) {
					continue
				}
				cost := float64(k-1) * float64(ct.colCnt[c]-1)
				if cost < bestCost || (cost == bestCost && a > bestMag) {
					bestR, bestC, bestCost, bestMag = r, c, cost, a
				}
			}
			searched++
			if bestR >= 0 && searched >= luSearch {
				return bestR, bestC
			}
		}
		if bestR >= 0 && bestCost <= float64(k-1)*float64(k-1) {
			return bestR, bestC
		}
	}
	return bestR, bestC
}

func removeInt(a []int, v int) []int {
	for k, x := range a {
		if x == v {
			a[k] = a[len(a)-1]
			return a[:len(a)-1]
		}
	}
	return a
}

func (f *luFactor) eliminate(r, c int) {
	ct := &f.cnt
	pv := f.value(r, c)
	f.pivRow = append(f.pivRow, r)
	f.pivCol = append(f.pivCol, c)
	f.uDiag = append(f.uDiag, pv)

	// L column: the rest of column c, divided by the pivot.
	l0 := len(f.lIdx)
	for e, i := range f.cIdx[c] {
		if i == r {
			continue
		}
		f.lIdx = append(f.lIdx, i)
		f.lVal = append(f.lVal, f.cVal[c][e]/pv)
		f.rCols[i] = removeInt(f.rCols[i], c)
	}
	ct.delCol(c)
	f.cIdx[c] = f.cIdx[c][:0]
	f.cVal[c] = f.cVal[c][:0]

	// U row: the rest of row r, removed from the active columns.
	u0 := len(f.urIdx)
	for _, j := range f.rCols[r] {
		if j == c {
			continue
		}
		ci, cv := f.cIdx[j], f.cVal[j]
		for e, i := range ci {
			if i == r {
				f.urIdx = append(f.urIdx, j)
				f.urVal = append(f.urVal, cv[e])
				last := len(ci) - 1
				ci[e], cv[e] = ci[last], cv[last]
				f.cIdx[j], f.cVal[j] = ci[:last], cv[:last]
				break
			}
		}
	}
	ct.delRow(r)
	f.rCols[r] = f.rCols[r][:0]
	f.urStart = append(f.urStart, len(f.urIdx))

	// Schur complement update: column j −= l · u_j.
	lIdx, lVal := f.lIdx[l0:], f.lVal[l0:]
	for ui := u0; ui < len(f.urIdx); ui++ {
		j, uv := f.urIdx[ui], f.urVal[ui]
		ci := f.cIdx[j]
		for e, i := range ci {
			f.mark[i] = e
		}
		cv := f.cVal[j]
		for e, i := range lIdx {
			d := -lVal[e] * uv
			if p := f.mark[i]; p >= 0 {
				cv[p] += d
			} else {
				ci = append(ci, i)
				cv = append(cv, d)
				f.rCols[i] = append(f.rCols[i], j)
			}
		}
		for _, i := range ci {
			f.mark[i] = -1
		}
		f.cIdx[j], f.cVal[j] = ci, cv
		ct.delCol(j)
		ct.addCol(j, len(ci))
	}
	for _, i := range lIdx {
		ct.delRow(i)
		ct.addRow(i, len(f.rCols[i]))
	}
	if len(lIdx) > 0 {
		f.lRow = append(f.lRow, r)
		f.lStart = append(f.lStart, len(f.lIdx))
	}
}

// buildUCols transposes U into columns indexed by step.
func (f *luFactor) buildUCols() {
	m := f.m
	colStep := make([]int, m)
	for k, p := range f.pivCol {
		colStep[p] = k
	}
	f.ucStart = resize(f.ucStart, m+1)
	for k := range f.ucStart {
		f.ucStart[k] = 0
	}
	for _, p := range f.urIdx {
		f.ucStart[colStep[p]+1]++
	}
	for k := 0; k < m; k++ {
		f.ucStart[k+1] += f.ucStart[k]
	}
	nnz := len(f.urIdx)
	if cap(f.ucIdx) < nnz {
		f.ucIdx = make([]int, nnz)
		f.ucVal = make([]float64, nnz)
	}
	f.ucIdx, f.ucVal = f.ucIdx[:nnz], f.ucVal[:nnz]
	next := make([]int, m)
	copy(next, f.ucStart[:m])
	for k := 0; k < m; k++ {
		row := f.pivRow[k]
		for e := f.urStart[k]; e < f.urStart[k+1]; e++ {
			t := colStep[f.urIdx[e]]
			f.ucIdx[next[t]] = row
			f.ucVal[next[t]] = f.urVal[e]
			next[t]++
		}
	}
}

func (f *luFactor) resetEtas() {
	f.etaPos = f.etaPos[:0]
	f.etaPiv = f.etaPiv[:0]
	f.etaStart = append(f.etaStart[:0], 0)
	f.etaIdx = f.etaIdx[:0]
	f.etaVal = f.etaVal[:0]
}

func (f *luFactor) etaNonzeros() int { return len(f.etaIdx) }

// addEta records that position p now holds a column whose FTRAN (with the old basis) is alpha.
func (f *luFactor) addEta(p int, alpha []float64, nz []int) {
	f.etaPos = append(f.etaPos, p)
	f.etaPiv = append(f.etaPiv, alpha[p])
	for _, i := range nz {
		if i != p && alpha[i] != 0 {
			f.etaIdx = append(f.etaIdx, i)
			f.etaVal = append(f.etaVal, alpha[i])
		}
	}
	f.etaStart = append(f.etaStart, len(f.etaIdx))
}

// ftran solves B x = a. a is indexed by row and is destroyed; x is indexed by basis position.
func (f *luFactor) ftran(a, x []float64) {
	lStart, lIdx, lVal := f.lStart, f.lIdx, f.lVal
	for e, r := range f.lRow {
		v := a[r]
		if v == 0 {
			continue
		}
		idx := lIdx[lStart[e]:lStart[e+1]]
		val := lVal[lStart[e]:lStart[e+1]]
		val = val[:len(idx)]
		for k, i := range idx {
			a[i] -= val[k] * v
		}
	}
	pivRow, pivCol, uDiag := f.pivRow[:f.m], f.pivCol[:f.m], f.uDiag[:f.m]
	ucStart, ucIdx, ucVal := f.ucStart, f.ucIdx, f.ucVal
	for k := f.m - 1; k >= 0; k-- {
		v := a[pivRow[k]]
		if v == 0 {
			x[pivCol[k]] = 0
			continue
		}
		v /= uDiag[k]
		x[pivCol[k]] = v
		idx := ucIdx[ucStart[k]:ucStart[k+1]]
		val := ucVal[ucStart[k]:ucStart[k+1]]
		val = val[:len(idx)]
		for e, i := range idx {
			a[i] -= val[e] * v
		}
	}
	etaStart, etaIdx, etaVal, etaPiv := f.etaStart, f.etaIdx, f.etaVal, f.etaPiv
	for e, p := range f.etaPos {
		v := x[p]
		if v == 0 {
			continue
		}
		v /= etaPiv[e]
		x[p] = v
		idx := etaIdx[etaStart[e]:etaStart[e+1]]
		val := etaVal[etaStart[e]:etaStart[e+1]]
		val = val[:len(idx)]
		for k, i := range idx {
			x[i] -= val[k] * v
		}
	}
}

// btran solves Bᵀ y = e. e is indexed by basis position and is destroyed; y is indexed by row.
func (f *luFactor) btran(e, y []float64) {
	etaStart, etaIdx, etaVal, etaPiv, etaPos := f.etaStart, f.etaIdx, f.etaVal, f.etaPiv, f.etaPos
	for t := len(etaPos) - 1; t >= 0; t-- {
		p := etaPos[t]
		v := e[p]
		idx := etaIdx[etaStart[t]:etaStart[t+1]]
		val := etaVal[etaStart[t]:etaStart[t+1]]
		val = val[:len(idx)]
		for k, i := range idx {
			v -= val[k] * e[i]
		}
		e[p] = v / etaPiv[t]
	}
	pivRow, pivCol, uDiag := f.pivRow[:f.m], f.pivCol[:f.m], f.uDiag[:f.m]
	urStart, urIdx, urVal := f.urStart, f.urIdx, f.urVal
	for k := range pivCol {
		v := e[pivCol[k]]
		if v == 0 {
			y[pivRow[k]] = 0
			continue
		}
		v /= uDiag[k]
		y[pivRow[k]] = v
		idx := urIdx[urStart[k]:urStart[k+1]]
		val := urVal[urStart[k]:urStart[k+1]]
		val = val[:len(idx)]
		for q, i := range idx {
			e[i] -= val[q] * v
		}
	}
	lStart, lIdx, lVal, lRow := f.lStart, f.lIdx, f.lVal, f.lRow
	for t := len(lRow) - 1; t >= 0; t-- {
		r := lRow[t]
		s := y[r]
		idx := lIdx[lStart[t]:lStart[t+1]]
		val := lVal[lStart[t]:lStart[t+1]]
		val = val[:len(idx)]
		for k, i := range idx {
			s -= val[k] * y[i]
		}
		y[r] = s
	}
}
