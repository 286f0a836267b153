package explain

import "schedplay/engine/sim"

// Divergence is the first placement two runs made differently.
type Divergence struct {
	// Task is the task id (index into Timeline.Tasks) and Ordinal the
	// number of placement decisions the task had before this one (0 = its
	// first), identical in both runs.
	Task    int `json:"task"`
	Ordinal int `json:"ordinal"`
	// IndexA and IndexB index Timeline.Decisions of run A and run B; -1 when
	// that run has no such decision (its record ended first).
	IndexA int `json:"index_a"`
	IndexB int `json:"index_b"`
	// A and B are the two decisions (nil where the index is -1).
	A *sim.Decision `json:"a,omitempty"`
	B *sim.Decision `json:"b,omitempty"`
	// At is the earlier of the two decision times (ns): where to put the
	// marker when one line is drawn across both timelines.
	At int64 `json:"at"`
}

// FirstDivergence finds the first placement decision (wake-up, fork or
// migration) where runs a and b disagree.
//
// Matching rule: the decisions of each run are grouped by task, keeping
// their recorded (time) order; a's k-th decision for task t is paired with
// b's k-th decision for task t. A pair diverges when the two decisions chose
// a different destination CPU (To) or are of a different kind (one run
// woke the task where the other migrated it, so their histories already
// differ). When one run has more decisions for a task than the other, the
// first unpaired one diverges too, unless either timeline was truncated
// (its record just stopped). Among all diverging pairs the first is the one
// with the smallest earlier time min(A.At, B.At); ties go to the smaller
// index in a, then in b.
//
// ok is false when the runs agree on every paired decision (or either
// timeline is nil).
func FirstDivergence(a, b *sim.Timeline) (d Divergence, ok bool) {
	if a == nil || b == nil {
		return Divergence{}, false
	}
	byTaskA := decisionsByTask(a.Decisions)
	byTaskB := decisionsByTask(b.Decisions)
	tails := !a.Truncated && !b.Truncated
	n := max(len(byTaskA), len(byTaskB))
	for t := 0; t < n; t++ {
		la, lb := listAt(byTaskA, t), listAt(byTaskB, t)
		for k := 0; k < max(len(la), len(lb)); k++ {
			ia, ib := indexAt(la, k), indexAt(lb, k)
			if ia < 0 || ib < 0 {
				if !tails {
					break
				}
			} else if da, db := &a.Decisions[ia], &b.Decisions[ib]; da.To == db.To && da.Kind == db.Kind {
				continue
			}
			c := divergenceAt(a, b, t, k, ia, ib)
			if !ok || earlier(c, d) {
				d, ok = c, true
			}
			break // later decisions of this task cannot come first
		}
	}
	return d, ok
}

// decisionsByTask lists each task's decision indexes in recorded order.
func decisionsByTask(ds []sim.Decision) [][]int {
	var out [][]int
	for i := range ds {
		t := ds[i].Task
		if t < 0 {
			continue
		}
		for len(out) <= t {
			out = append(out, nil)
		}
		out[t] = append(out[t], i)
	}
	return out
}

func listAt(l [][]int, t int) []int {
	if t < len(l) {
		return l[t]
	}
	return nil
}

func indexAt(l []int, k int) int {
	if k < len(l) {
		return l[k]
	}
	return -1
}

// divergenceAt fills a Divergence for one pair.
func divergenceAt(a, b *sim.Timeline, t, k, ia, ib int) Divergence {
	d := Divergence{Task: t, Ordinal: k, IndexA: ia, IndexB: ib}
	first := true
	if ia >= 0 {
		d.A = &a.Decisions[ia]
		d.At, first = d.A.At, false
	}
	if ib >= 0 {
		d.B = &b.Decisions[ib]
		if first || d.B.At < d.At {
			d.At = d.B.At
		}
	}
	return d
}

// earlier orders divergences: time, then index in a, then index in b
// (a missing index, -1, sorts after any present one).
func earlier(x, y Divergence) bool {
	if x.At != y.At {
		return x.At < y.At
	}
	if ax, ay := idxKey(x.IndexA), idxKey(y.IndexA); ax != ay {
		return ax < ay
	}
	return idxKey(x.IndexB) < idxKey(y.IndexB)
}

func idxKey(i int) uint { return uint(i) } // -1 becomes the largest
