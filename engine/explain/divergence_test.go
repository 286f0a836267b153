package explain

import (
	"testing"

	"schedplay/engine/sim"
)

// dec is a short decision constructor.
func dec(at int64, task int, kind string, from, to int) sim.Decision {
	return sim.Decision{At: at, Task: task, Kind: kind, From: from, To: to}
}

func TestFirstDivergence(t *testing.T) {
	base := []sim.Decision{
		dec(0, 0, "fork", 0, 0),
		dec(0, 1, "fork", 0, 1),
		dec(100, 0, "wakeup", 0, 0),
		dec(150, 1, "wakeup", 1, 1),
		dec(200, 0, "wakeup", 0, 2),
	}
	clone := func() []sim.Decision { return append([]sim.Decision(nil), base...) }
	cases := []struct {
		name   string
		a, b   []sim.Decision
		truncA bool
		ok     bool
		task   int
		ord    int
		ia, ib int
	}{
		{name: "identical", a: base, b: clone(), ok: false},
		{
			name: "different CPU on the third decision of task 0",
			a:    base,
			b:    func() []sim.Decision { d := clone(); d[4].To = 3; return d }(),
			ok:   true, task: 0, ord: 2, ia: 4, ib: 4,
		},
		{
			// b has an extra migration of task 1 at 120: indexes shift,
			// but task 0's decisions still pair by ordinal.
			name: "extra migration pairs by ordinal, not index",
			a:    base,
			b: []sim.Decision{
				dec(0, 0, "fork", 0, 0), dec(0, 1, "fork", 0, 1), dec(100, 0, "wakeup", 0, 0),
				dec(120, 1, "periodic", 1, 3), dec(150, 1, "wakeup", 3, 3), dec(200, 0, "wakeup", 0, 2),
			},
			ok: true, task: 1, ord: 1, ia: 3, ib: 3,
		},
		{
			// The same CPU chosen, earlier in time, is no divergence; the
			// earliest diverging pair wins even if another task's index is lower.
			name: "earliest by time across tasks",
			a:    base,
			b: func() []sim.Decision {
				d := clone()
				d[3].To = 0 // task 1 at 150
				d[4].To = 5 // task 0 at 200
				return d
			}(),
			ok: true, task: 1, ord: 1, ia: 3, ib: 3,
		},
		{
			name: "missing tail counts when neither is truncated",
			a:    base,
			b:    clone()[:4],
			ok:   true, task: 0, ord: 2, ia: 4, ib: -1,
		},
		{
			name: "missing tail ignored when a record was truncated",
			a:    base, b: clone()[:4], truncA: true,
			ok: false,
		},
	}
	for _, c := range cases {
		ta := &sim.Timeline{Decisions: c.a, Truncated: c.truncA}
		tb := &sim.Timeline{Decisions: c.b}
		d, ok := FirstDivergence(ta, tb)
		if ok != c.ok {
			t.Errorf("%s: ok=%v, want %v (%+v)", c.name, ok, c.ok, d)
			continue
		}
		if !ok {
			continue
		}
		if d.Task != c.task || d.Ordinal != c.ord || d.IndexA != c.ia || d.IndexB != c.ib {
			t.Errorf("%s: got task %d ord %d idx %d/%d, want task %d ord %d idx %d/%d",
				c.name, d.Task, d.Ordinal, d.IndexA, d.IndexB, c.task, c.ord, c.ia, c.ib)
		}
		if (d.IndexA >= 0) != (d.A != nil) || (d.IndexB >= 0) != (d.B != nil) {
			t.Errorf("%s: decision pointers do not match indexes", c.name)
		}
		if d.A != nil && d.A != &ta.Decisions[d.IndexA] || d.B != nil && d.B != &tb.Decisions[d.IndexB] {
			t.Errorf("%s: pointers do not point into the timelines", c.name)
		}
	}
}

func TestFirstDivergenceSymmetric(t *testing.T) {
	a := &sim.Timeline{Decisions: []sim.Decision{dec(10, 0, "wakeup", 0, 1), dec(20, 1, "wakeup", 2, 2)}}
	b := &sim.Timeline{Decisions: []sim.Decision{dec(10, 0, "wakeup", 0, 1), dec(15, 1, "wakeup", 2, 3)}}
	ab, ok1 := FirstDivergence(a, b)
	ba, ok2 := FirstDivergence(b, a)
	if !ok1 || !ok2 || ab.Task != 1 || ba.Task != 1 || ab.At != 15 || ba.At != 15 || ab.IndexA != ba.IndexB {
		t.Errorf("ab=%+v ba=%+v", ab, ba)
	}
	if _, ok := FirstDivergence(nil, b); ok {
		t.Error("nil timeline diverges")
	}
}
