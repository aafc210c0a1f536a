// Package heap is the binary min-heap of (key, vertex) entries that the searches of core/ share:
// Dijkstra's algorithm in the greedy spanner of core/graph and the privacy closure of
// core/mechanism (which pushes −value to take the largest first). Searches push stale entries
// rather than decrease keys, and skip them when popped.
package heap

// Entry is a vertex V with its key: a distance in the spanner's searches, minus a
// log-probability in the privacy closure.
type Entry struct {
	Key float64
	V   int
}

// Min is a binary heap of entries, smallest key first.
type Min []Entry

// Push adds an entry.
func (h *Min) Push(it Entry) {
	*h = append(*h, it)
	a := *h
	for i := len(a) - 1; i > 0; {
		p := (i - 1) / 2
		if a[p].Key <= a[i].Key {
			break
		}
		a[p], a[i] = a[i], a[p]
		i = p
	}
}

// Pop removes and returns an entry with the smallest key; the heap must not be empty.
func (h *Min) Pop() Entry {
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
		if r := l + 1; r < len(a) && a[r].Key < a[l].Key {
			m = r
		}
		if a[i].Key <= a[m].Key {
			break
		}
		a[i], a[m] = a[m], a[i]
		i = m
	}
	*h = a
	return top
}
