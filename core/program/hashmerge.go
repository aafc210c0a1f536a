package program

// mergeHashed is merge's path for many states whose variables are all unboxed scalars or
// strings (a counter per coin, the usual case): states are found by a 64-bit hash of their
// observations and variables in an open-addressing table reused from call to call, and compared
// exactly on a match — instead of building every state's key as bytes and hashing the bytes in
// a map. It counts the same work as the key path (the length of the key it does not build),
// so that the work budget stops the same programs at the same place — or, with pairwise, the
// work of the pairwise path (one unit per variable) that it replaces for a few states. ok is
// false, with nothing done, when some variable is a list, a tuple or a big number.
func (r *runner) mergeHashed(d dist, p Pos, pairwise bool) (out dist, ok bool, err error) {
	for i := range d {
		for _, v := range d[i].vars {
			if v.ref != nil && v.k != kStr {
				return nil, false, nil
			}
		}
	}
	size := 16
	for size < 2*len(d) {
		size *= 2
	}
	if cap(r.htab) < size {
		r.htab = make([]int32, size)
	}
	tab := r.htab[:size]
	clear(tab) // 0: empty; k+1: out[k]
	mask := uint64(size - 1)
	out = d[:0]
	for _, s := range d {
		n := 4 // the observations' id, as the key path writes it
		h := uint64(uint32(s.obs))*0x9e3779b97f4a7c15 + 1
		for _, v := range s.vars {
			n += keyLen(v)
			h = (h ^ hashValue(v)) * 0x100000001b3
			h ^= h >> 29
		}
		if pairwise {
			n = len(s.vars)
		}
		if err := r.addWork(n, p); err != nil {
			return nil, true, err
		}
		slot := h & mask
		for {
			k := tab[slot]
			if k == 0 {
				tab[slot] = int32(len(out) + 1)
				out = append(out, s)
				break
			}
			if sameState(&out[k-1], &s) {
				out[k-1].p = addP(out[k-1].p, s.p)
				break
			}
			slot = (slot + 1) & mask
		}
	}
	return out, true, r.budget(len(out), p)
}

// hashValue mixes an unboxed scalar or a string into 64 bits.
func hashValue(v Value) uint64 {
	h := uint64(v.k)<<56 ^ uint64(v.n)
	if v.k == kStr {
		s := v.str()
		h = 0xcbf29ce484222325 ^ uint64(len(s))
		for i := 0; i < len(s); i++ {
			h = (h ^ uint64(s[i])) * 0x100000001b3
		}
	}
	return h * 0xff51afd7ed558ccd
}

// keyLen is the length of v.key(nil) for an unboxed scalar or a string, without building it.
func keyLen(v Value) int {
	switch v.k {
	case kInt:
		return 1 + base36Len(v.n)
	case kBool:
		return 2
	case kStr:
		l := len(v.str())
		return 2 + decimalLen(int64(l)) + l
	}
	return 1 // unset: its kind alone
}

// base36Len is the number of characters of strconv.FormatInt(n, 36).
func base36Len(n int64) int {
	k := 1
	u := uint64(n)
	if n < 0 {
		k++
		u = uint64(-n) // -MinInt64 wraps to itself, read as 2^63: right as unsigned
	}
	for u >= 36 {
		u /= 36
		k++
	}
	return k
}

// decimalLen is the number of digits of a non-negative n.
func decimalLen(n int64) int {
	k := 1
	for n >= 10 {
		n /= 10
		k++
	}
	return k
}
