package mechanism

// heapEntry is a vertex v with its key: a distance in the spanner's searches, minus a
// log-probability in the privacy closure (which wants the largest first).
type heapEntry struct {
	key float64
	v   int
}

// minHeap is a binary heap of entries, smallest key first; the searches push stale entries
// rather than decrease keys, and skip them when popped.
type minHeap []heapEntry

func (h *minHeap) push(it heapEntry) {
	*h = append(*h, it)
	a := *h
	for i := len(a) - 1; i > 0; {
		p := (i - 1) / 2
		if a[p].key <= a[i].key {
			break
		}
		a[p], a[i] = a[i], a[p]
		i = p
	}
}

func (h *minHeap) pop() heapEntry {
	a := *h
	top := a[0]
	last := len(a) - 1
	a[0] = a[last]
	a = a[:last]
	for i := 0; ; {
		l := 2*i + 1
		if l >= len(a) {
			break
		}
		m := l
		if r := l + 1; r < len(a) && a[r].key < a[l].key {
			m = r
		}
		if a[i].key <= a[m].key {
			break
		}
		a[i], a[m] = a[m], a[i]
		i = m
	}
	*h = a
	return top
}
