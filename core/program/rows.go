package program

import (
	"math/big"
)

// domainValue is one value of a secret's domain with its prior probability.
type domainValue struct {
	v Value
	p *big.Rat
}

// secretDomain is the values of one secret: a list, or bits(n)'s lists built when a row needs
// them (a million lists of 20 bits held at once cost most of a run that observes one bit).
type secretDomain struct {
	vals []domainValue
	bits *bitsDomain
}

func (d *secretDomain) size() int {
	if d.bits != nil {
		return 1 << d.bits.n
	}
	return len(d.vals)
}

func (d *secretDomain) value(i int) Value {
	if d.bits != nil {
		return d.bits.value(i)
	}
	return d.vals[i].v
}

// appendLabel appends value i's label (inside: as an element of a tuple).
func (d *secretDomain) appendLabel(b []byte, i int, inside, quote bool) []byte {
	if d.bits != nil {
		return d.bits.appendLabel(b, i)
	}
	return d.vals[i].v.appendLabel(b, inside, quote)
}

// rowSet is every secret value of a program: row k's secrets are value idx[i] of domain i, the
// indices in lexicographic order (the first secret varies slowest).
type rowSet struct {
	n      int
	doms   []secretDomain
	prior  []*big.Rat
	labels []string
}

// index writes row k's index in each domain into idx.
func (rs *rowSet) index(k int, idx []int) {
	for i := len(rs.doms) - 1; i >= 0; i-- {
		m := rs.doms[i].size()
		idx[i] = k % m
		k /= m
	}
}

// fill writes row k's secrets into their slots (the first len(doms) variables).
func (rs *rowSet) fill(k int, vars []Value) {
	if len(rs.doms) == 1 {
		vars[0] = rs.doms[0].value(k)
		return
	}
	var buf [8]int
	idx := buf[:0]
	if len(rs.doms) > len(buf) {
		idx = make([]int, len(rs.doms))
	}
	idx = idx[:len(rs.doms)]
	rs.index(k, idx)
	for i, j := range idx {
		vars[i] = rs.doms[i].value(j)
	}
}

// appendLabel appends row k's label: its secret, or their tuple.
func (rs *rowSet) appendLabel(b []byte, k int, quote bool) []byte {
	if len(rs.doms) == 1 {
		return rs.doms[0].appendLabel(b, k, false, quote)
	}
	idx := make([]int, len(rs.doms))
	rs.index(k, idx)
	b = append(b, '(')
	for i, j := range idx {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = rs.doms[i].appendLabel(b, j, true, quote)
	}
	return append(b, ')')
}

// secretRows evaluates the secrets' domains and returns every secret value with the product
// prior and the row labels.
func (r *runner) secretRows() (*rowSet, error) {
	rs := &rowSet{doms: make([]secretDomain, len(r.prog.secrets))}
	total := 1.0
	for i, s := range r.prog.secrets {
		if c, ok := s.Domain.(*Call); ok && c.Name == "bits" {
			b, err := r.bitsDomainOf(c)
			if err != nil {
				return nil, err
			}
			rs.doms[i].bits = b
		} else {
			d, err := r.domain(s)
			if err != nil {
				return nil, err
			}
			rs.doms[i].vals = d
		}
		total *= float64(rs.doms[i].size())
		if total > MaxRows {
			return nil, r.fail(s.P, "the secrets take more than %d values together, the limit", MaxRows)
		}
	}
	n := int(total)
	rs.n = n
	prior := make([]*big.Rat, n)
	idx := make([]int, len(rs.doms))
	pOf := func(i, j int) *big.Rat {
		if d := rs.doms[i]; d.bits != nil {
			return d.bits.p
		}
		return rs.doms[i].vals[j].p
	}
	for k := 0; k < n; k++ {
		p := pOf(0, idx[0]) // one secret: its domain's probability, shared (read-only)
		for i := 1; i < len(idx); i++ {
			p = new(big.Rat).Mul(p, pOf(i, idx[i]))
		}
		prior[k] = p
		for i := len(idx) - 1; i >= 0; i-- { // the next index, last secret fastest
			idx[i]++
			if idx[i] < rs.doms[i].size() {
				break
			}
			idx[i] = 0
		}
	}
	rs.prior = prior
	rowStr := false
	for k, d := range rs.doms {
		if d.bits != nil || numeric(r.prog.secrets[k].Domain) {
			continue
		}
		for _, v := range d.vals {
			if holdsString(v.v) {
				rowStr = true
				break
			}
		}
	}
	rs.labels, r.rowText = distinctLabels(n, rowStr, rs.appendLabel)
	return rs, nil
}
