package rtapp

import (
	"fmt"
	"strconv"

	"schedplay/engine/scenario"
)

// phase is one rt-app phase under construction: its loop count and its
// events in order.
type phase struct {
	loop int
	keys []string
	vals []any
}

// add appends an event; the key gets the event's index in the phase so
// repeated kinds stay distinct ("run0", "sleep1", "run2").
func (p *phase) add(kind string, v any) {
	p.keys = append(p.keys, kind+strconv.Itoa(len(p.keys)))
	p.vals = append(p.vals, v)
}

// object renders the phase as {"loop": n, events…}.
func (p *phase) object() *Object {
	o := &Object{}
	o.Set("loop", p.loop)
	for i, k := range p.keys {
		o.Set(k, p.vals[i])
	}
	return o
}

// simple reports whether st is a single event (no nested steps).
func simple(st *scenario.Step) bool {
	return st.Repeat == 0 && st.Pool == "" && st.Periodic == nil
}

// flat reports whether every step is simple.
func flat(steps []scenario.Step) bool {
	for i := range steps {
		if !simple(&steps[i]) {
			return false
		}
	}
	return true
}

// phases turns a step list into phases. Consecutive simple steps share one
// phase; a repeat of simple steps is one looping phase; a repeat around
// loops is unrolled when small, otherwise its inner phases' loops are
// multiplied (noted). mult is the enclosing multiplier of that fallback.
func (c *conv) phases(steps []scenario.Step, mult int) []*phase {
	var out []*phase
	var cur *phase
	for i := range steps {
		st := &steps[i]
		if simple(st) {
			if cur == nil {
				cur = &phase{loop: mult}
				out = append(out, cur)
			}
			c.event(cur, st)
			continue
		}
		cur = nil
		out = append(out, c.loopStep(st, mult)...)
	}
	return out
}

// loopStep converts a repeat, pool or periodic step.
func (c *conv) loopStep(st *scenario.Step, mult int) []*phase {
	if st.Periodic != nil {
		return []*phase{c.periodic(st.Periodic, mult)}
	}
	n := st.Repeat
	if st.Pool != "" {
		n = c.pool(st)
	}
	if n <= 0 {
		return nil
	}
	if flat(st.Do) {
		p := &phase{loop: n * mult}
		for i := range st.Do {
			c.event(p, &st.Do[i])
		}
		return []*phase{p}
	}
	// Nested loops: unroll when small (every copy is converted afresh, so
	// barriers get one name per place), else multiply the inner loops.
	probe := len(c.phasesDry(st.Do))
	if probe*n <= maxUnrolledPhases {
		var out []*phase
		for k := 0; k < n; k++ {
			out = append(out, c.phases(st.Do, mult)...)
		}
		return out
	}
	c.note("group %q: repeat %d around loops is not expressible with rt-app's two loop levels: its inner phases loop %d times as many instead, which reorders events", c.group, n, n)
	return c.phases(st.Do, mult*n)
}

// phasesDry counts the phases of steps without touching the notes or the
// barrier names.
func (c *conv) phasesDry(steps []scenario.Step) []*phase {
	saved := *c
	saved.barrierUses = map[string]int{}
	saved.seen = map[string]bool{}
	saved.notes = nil
	return saved.phases(steps, 1)
}

// pool approximates a shared request pool: each of the group's threads
// takes an equal share.
func (c *conv) pool(st *scenario.Step) int {
	per := 1
	if cnt := c.groupCount(); cnt > 0 {
		per = (st.Total + cnt - 1) / cnt
	}
	c.note("group %q: pool %q (%d requests shared by all threads) has no rt-app equivalent: approximated as a loop of %d per thread (ceil(total/count)), so threads no longer rebalance the work", c.group, st.Pool, st.Total, per)
	return per
}

// periodic converts a periodic step: an absolute "unique" timer, then the body.
func (c *conv) periodic(pd *scenario.Periodic, mult int) *phase {
	n := pd.Count
	if n == 0 && pd.Every > 0 {
		n = int((int64(c.run.Duration) + int64(pd.Every) - 1) / int64(pd.Every))
	}
	p := &phase{loop: n * mult}
	c.timers++
	timer := map[string]any{
		"ref":    fmt.Sprintf("unique_%s_%d", c.group, c.timers),
		"period": c.micros("periodic every", pd.Every),
		"mode":   "absolute",
	}
	p.add("timer", timer)
	if pd.SkipMissed {
		c.note("group %q: periodic skip_missed (cyclictest's catch-up past missed periods) is not expressible: rt-app's absolute timer runs a missed period at once", c.group)
	}
	if !flat(pd.Do) {
		c.note("group %q: loops inside a periodic step are not expressible: their steps run once per period", c.group)
	}
	c.flatEvents(p, pd.Do)
	return p
}

// flatEvents adds steps' events to p, descending into nested steps once.
func (c *conv) flatEvents(p *phase, steps []scenario.Step) {
	for i := range steps {
		st := &steps[i]
		switch {
		case simple(st):
			c.event(p, st)
		case st.Periodic != nil:
			c.flatEvents(p, st.Periodic.Do)
		default:
			c.flatEvents(p, st.Do)
		}
	}
}

// groupCount is the instance count of the group being converted.
func (c *conv) groupCount() int { return c.count }

// event adds the rt-app event(s) of one simple step to p.
func (c *conv) event(p *phase, st *scenario.Step) {
	switch {
	case st.Compute != nil:
		p.add("run", c.micros("compute", *st.Compute))
		if st.Jitter != 0 {
			c.note("group %q: compute jitter ±%g%% dropped: rt-app runs a fixed amount of work", c.group, st.Jitter*100)
		}
	case st.Sleep != nil:
		p.add("sleep", c.micros("sleep", *st.Sleep))
	case st.Barrier != "":
		p.add("barrier", c.barrierName(st.Barrier))
		c.spin(st, "barrier "+strconv.Quote(st.Barrier))
	case st.Send != "":
		for k := 0; k < max(st.Wake, 1); k++ {
			p.add("sem_post", st.Send)
		}
		if st.Sync {
			c.note("group %q: send %q with WF_SYNC is not expressible: rt-app's sem_post is a plain futex wake-up", c.group, st.Send)
		}
		if st.Capacity > 0 {
			c.note("group %q: channel %q capacity %d not expressible: rt-app's sem_post never blocks the sender", c.group, st.Send, st.Capacity)
		}
		if st.Poll {
			c.note("group %q: send %q to poll() waiters is not expressible: rt-app's sem_post wakes the oldest waiter, and no wait-queue lock holds the woken", c.group, st.Send)
		}
	case st.Recv != "":
		p.add("sem_wait", st.Recv)
		c.spin(st, "recv "+strconv.Quote(st.Recv))
	}
}

// spin notes a spin-before-block that rt-app cannot express.
func (c *conv) spin(st *scenario.Step, what string) {
	if st.Spin > 0 {
		c.note("group %q: %s spins %s before blocking: dropped, rt-app blocks at once", c.group, what, st.Spin)
	}
}

// barrierName gives each program position of a barrier its own rt-app
// name, since rt-app counts a barrier's users once per reference.
func (c *conv) barrierName(name string) string {
	key := c.group + "_" + name
	k := c.barrierUses[key]
	c.barrierUses[key] = k + 1
	if k == 0 {
		return key
	}
	return key + "_" + strconv.Itoa(k+1)
}
