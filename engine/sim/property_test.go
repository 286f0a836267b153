package sim

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"schedplay/engine/scenario"
	"schedplay/engine/topo"
	"schedplay/engine/units"
)

// randomScenario builds a small random machine, policy and workload.
func randomScenario(rng *rand.Rand) *scenario.Resolved {
	d := func(ns int64) *units.Duration { v := units.Duration(ns); return &v }
	m := topo.Machine{Nodes: 1 + rng.IntN(2), ThreadsPerCore: []int{1, 2, 2, 4}[rng.IntN(4)]}
	m.CoresPerNode = 1 + rng.IntN(8)
	if rng.IntN(2) == 0 {
		m.Numbering = topo.SiblingMajor
	} else {
		m.Numbering = topo.CoreMajor
	}
	total := m.Nodes * m.CoresPerNode
	if rng.IntN(2) == 0 && total >= 2 {
		little := total / 2
		m.CoreClasses = []topo.CoreClass{
			{Name: "little", Cores: little, Capacity: 462, Speed: 0.55},
			{Name: "big", Cores: total - little, Capacity: 1024, Speed: 1},
		}
		if m.ThreadsPerCore > 1 && rng.IntN(2) == 0 {
			m.CoreClasses[0].Threads = 1 // hybrid: single-thread little cores
		}
	}
	m.SMT.Model = []topo.SMTKind{topo.SMTSpatial, topo.SMTCompetitive, topo.SMTFolding}[rng.IntN(3)]
	if m.SMT.Model == topo.SMTFolding && m.ThreadsPerCore == 1 {
		m.SMT.Model = topo.SMTCompetitive
	}
	m.SMT.Hold = units.Duration(rng.Int64N(3_000_000))
	m.SMT.Switch = units.Duration(rng.Int64N(3000))
	if rng.IntN(3) == 0 {
		m.Housekeeping = &topo.Housekeeping{Period: units.Duration(1_000_000 + rng.Int64N(4_000_000)), Run: units.Duration(5_000 + rng.Int64N(30_000))}
	}
	if rng.IntN(2) == 0 {
		m.Boost = [][2]float64{{0, 1.1}, {1, 1}}
	}
	var p scenario.Policy
	switch rng.IntN(4) {
	case 1:
		p.SMTAsymPacking = topo.SMTAsymOn
		p.IdleSelectAsym = true
	case 2:
		lv := []topo.Level{topo.LevelSMT, topo.LevelMC}
		p.AsymPacking = &lv
		p.Priority = topo.PriorityCapacityPE0
		f := false
		p.AsymCPUCapacity = &f
		p.IdleSelectAsym = true
	case 3:
		p.HZ = 1000
	}
	if rng.IntN(4) == 0 { // 6.1's CFS instead of EEVDF
		f := false
		p.Features.EEVDF = &f
	}
	ncpu := m.NumCPUs()
	var w scenario.Workload
	ng := 1 + rng.IntN(3)
	for g := 0; g < ng; g++ {
		grp := scenario.Group{Name: fmt.Sprintf("g%d", g), Count: 1 + rng.IntN(6), Nice: rng.IntN(5) - 2, Process: rng.IntN(2) == 0}
		if rng.IntN(3) == 0 {
			lo := rng.IntN(ncpu)
			hi := lo + rng.IntN(ncpu-lo)
			grp.CPUs = fmt.Sprintf("%d-%d", lo, hi)
		}
		var body []scenario.Step
		for k := 0; k < 1+rng.IntN(4); k++ {
			switch rng.IntN(6) {
			case 0, 1:
				body = append(body, scenario.Step{Compute: d(10_000 + rng.Int64N(5_000_000)), Jitter: 0.1 * rng.Float64()})
			case 2:
				body = append(body, scenario.Step{Sleep: d(10_000 + rng.Int64N(3_000_000))})
			case 3:
				body = append(body, scenario.Step{Barrier: "b", Spin: units.Duration(rng.Int64N(100_000))})
			case 4:
				body = append(body, scenario.Step{Send: fmt.Sprintf("c%d", rng.IntN(2)), Sync: rng.IntN(2) == 0, Wake: 1 + rng.IntN(2)})
			case 5:
				body = append(body, scenario.Step{Recv: fmt.Sprintf("c%d", rng.IntN(2)), Spin: units.Duration(rng.Int64N(50_000))})
			}
		}
		switch rng.IntN(3) {
		case 0:
			grp.Program = []scenario.Step{{Repeat: 1 + rng.IntN(20), Do: body}}
		case 1:
			grp.Program = []scenario.Step{{Pool: "p", Total: 10 + rng.IntN(50), Do: body}}
		default:
			grp.Program = []scenario.Step{{Periodic: &scenario.Periodic{Every: units.Duration(500_000 + rng.Int64N(2_000_000)), Count: rng.IntN(30), Do: []scenario.Step{{Compute: d(2000 + rng.Int64N(200_000))}}}}}
		}
		w.Groups = append(w.Groups, grp)
	}
	r := &scenario.Resolved{Machine: m, Policy: p, Workload: w,
		Run: scenario.Run{Duration: units.Duration(20_000_000 + rng.Int64N(150_000_000)), Seed: rng.Uint64() % 1000, Reps: 1}}
	if rng.IntN(2) == 0 {
		r.Run.Until = scenario.UntilDuration
	}
	if rng.IntN(3) == 0 {
		r.Run.Warmup = units.Duration(rng.Int64N(int64(r.Run.Duration) / 2))
	}
	d2 := r.WithDefaults()
	return &d2
}

// checkInvariants runs one scenario and checks the engine's invariants.
func checkInvariants(t *testing.T, i int, r *scenario.Resolved) bool {
	tp, err := topo.Build(r.Machine, r.Policy.DomainPolicy)
	if err != nil {
		return false
	}
	s, err := newSim(r, tp, Options{Timeline: true}, r.Run.Seed, true)
	if err != nil {
		t.Fatalf("scenario %d: %v", i, err)
	}
	stop, err := s.loop(context.Background(), 0, 1)
	if err != nil {
		t.Fatalf("scenario %d: %v", i, err)
	}
	rm := s.repMetrics(stop)
	tl := &s.tr.tl
	fail := func(format string, args ...any) {
		b, _ := json.Marshal(r)
		t.Fatalf("scenario %d: %s\n%s", i, fmt.Sprintf(format, args...), b)
	}
	// every task is in exactly one place
	where := make([]int, len(s.tasks))
	for ci := range s.cpus {
		c := &s.cpus[ci]
		if c.curr != nil {
			where[c.curr.id]++
			if c.curr.state != taskRunning || c.curr.cpu != ci {
				fail("curr of cpu %d is task %d in state %d on cpu %d", ci, c.curr.id, c.curr.state, c.curr.cpu)
			}
		}
		n := len(c.rq)
		var w int64
		ue, delayed := 0, 0
		for _, q := range c.rq {
			w += q.weight
			if q.delayed { // util_est left the rq at the sleep
				delayed++
				continue
			}
			ue += q.utilEst
		}
		if delayed != c.nrDelayed {
			fail("cpu %d h_nr_delayed %d but %d delayed tasks queued", ci, c.nrDelayed, delayed)
		}
		if c.curr != nil {
			n++
			w += c.curr.weight
			ue += c.curr.utilEst
		}
		if w != c.loadWeight {
			fail("cpu %d load.weight %d but tasks weigh %d", ci, c.loadWeight, w)
		}
		if s.utilEst && ue != c.utilEstSum {
			fail("cpu %d util_est %d but tasks sum to %d", ci, c.utilEstSum, ue)
		}
		if n != c.nrRunning {
			fail("cpu %d nr_running %d but %d tasks", ci, c.nrRunning, n)
		}
		for _, p := range c.rq {
			where[p.id]++
			if (p.state != taskRunnable && !(p.state == taskBlocked && p.delayed)) || p.cpu != ci {
				fail("queued task %d on cpu %d in state %d, delayed %v (cpu %d)", p.id, ci, p.state, p.delayed, p.cpu)
			}
		}
	}
	for _, p := range s.tasks {
		switch {
		case p.state == taskRunning || p.state == taskRunnable || p.delayed:
			if where[p.id] != 1 {
				fail("task %d (state %d) found on %d runqueues", p.id, p.state, where[p.id])
			}
		default:
			if where[p.id] != 0 {
				fail("task %d (state %d) also on a runqueue", p.id, p.state)
			}
		}
		if p.state == taskDone && math.Abs(p.done-p.requested) > 1e-6*math.Max(1, p.requested)+1 {
			fail("task %d done %.1f of %.1f requested", p.id, p.done, p.requested)
		}
		if p.done > p.requested+1 {
			fail("task %d did more work (%.1f) than requested (%.1f)", p.id, p.done, p.requested)
		}
	}
	// intervals: per CPU ordered and disjoint; tasks never on two CPUs at once; affinity
	sum := make([]int64, len(s.tasks))
	type span struct{ s, e int64 }
	per := make([][]span, len(s.tasks))
	for ci, runs := range tl.Runs {
		var last int64 = -1
		for _, iv := range runs {
			if iv.Start < last || iv.End < iv.Start {
				fail("cpu %d intervals overlap or go backwards at %d", ci, iv.Start)
			}
			last = iv.End
			if !s.tasks[iv.Task].allowed.Has(topo.CPU(ci)) {
				fail("task %d ran on cpu %d outside its affinity", iv.Task, ci)
			}
			sum[iv.Task] += iv.End - iv.Start
			per[iv.Task] = append(per[iv.Task], span{iv.Start, iv.End})
		}
	}
	for id, p := range s.tasks {
		if !tl.Truncated && sum[id] != p.runtime {
			fail("task %d runtime %d but intervals sum to %d", id, p.runtime, sum[id])
		}
		sp := per[id]
		for a := 0; a < len(sp); a++ {
			for b := a + 1; b < len(sp); b++ {
				if sp[a].s < sp[b].e && sp[b].s < sp[a].e {
					fail("task %d runs twice at once: [%d,%d] and [%d,%d]", id, sp[a].s, sp[a].e, sp[b].s, sp[b].e)
				}
			}
		}
	}
	window := max(stop-s.warmup, 0)
	for ci, b := range rm.BusyNs {
		if b > window || b < 0 {
			fail("cpu %d busy %d > window %d", ci, b, window)
		}
	}
	return true
}

func TestPropertyRandomScenarios(t *testing.T) {
	n := 1500
	if testing.Short() {
		n = 200
	}
	rng := rand.New(rand.NewPCG(7, 11))
	ran := 0
	for i := 0; i < n; i++ {
		if checkInvariants(t, i, randomScenario(rng)) {
			ran++
		}
	}
	if ran < n/2 {
		t.Fatalf("only %d of %d random scenarios built a topology", ran, n)
	}
	t.Logf("%d random scenarios checked", ran)
}

func TestPropertySameSeedSameJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for i := 0; i < 100; i++ {
		r := randomScenario(rng)
		if _, err := topo.Build(r.Machine, r.Policy.DomainPolicy); err != nil {
			continue
		}
		r.Run.Reps = 2
		a := toJSON(t, mustRun(t, r, Options{Timeline: true}))
		b := toJSON(t, mustRun(t, r, Options{Timeline: true}))
		if a != b {
			t.Fatalf("scenario %d: two runs of the same seed differ", i)
		}
	}
}
