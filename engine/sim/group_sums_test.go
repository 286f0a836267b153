package sim

import (
	"context"
	"reflect"
	"runtime"
	"testing"
	"unsafe"

	"schedplay/engine/topo"
	"schedplay/presets"
)

// TestGroupSumsMatchWalk runs repetition 0 of every seed scenario under
// each policy it compares, with its decisions traced, and checks every
// group statistic read from the group sums against a walk of the group's
// span (update_sg_lb_stats() as the kernel writes it): a change of a
// CPU's statistics that is not marked would show as a difference. The
// traced and the untraced run must give the same metrics.
func TestGroupSumsMatchWalk(t *testing.T) {
	if testing.Short() || runtime.GOOS == "js" {
		t.Skip("every seed scenario (native only: slow under node)")
	}
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range ps.Names(presets.Scenario) {
		p, _ := ps.Get(presets.Scenario, name)
		policies := p.Compare
		if len(policies) == 0 {
			policies = []string{""}
		}
		for _, pol := range policies {
			t.Run(name+"/"+pol, func(t *testing.T) {
				r := resolveJSON(t, seedRep0Under(t, name, pol).doc)
				traced := mustRun(t, r, Options{Timeline: true, verifySums: true})
				// Untraced, select_idle_capacity() scans the idle mask
				// (idle_mask.go), which verify checks at every read.
				plain := mustRun(t, r, Options{verifySums: true})
				// The traced walks are a second implementation of those
				// kernel functions, which the page always uses: the
				// decisions, and so the metrics, must be the same.
				if a, b := toJSON(t, plain.Reps), toJSON(t, traced.Reps); a != b {
					t.Errorf("the repetition's metrics differ with a timeline:\n%.600s\n%.600s", a, b)
				}
			})
		}
	}
}

// TestDomainSpanSums checks the span sums noSrcGroup() reads: on every
// seed machine, a domain given a group-sums ID has that ID's span as its
// own and groups that split it (disjoint, covering it); on Vera the SMT
// and MC domains have one (the nohz idle balance's passes over a core
// take the shortcut) and the root domain none, and the SMT domain alone
// is a cpuPair.
func TestDomainSpanSums(t *testing.T) {
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range ps.Names(presets.Scenario) {
		r := resolveJSON(t, seedRep0(t, name).doc)
		rr := r.WithDefaults()
		tp, err := topo.Build(rr.Machine, rr.Policy.DomainPolicy)
		if err != nil {
			t.Fatal(err)
		}
		withID := 0
		for cpu, chain := range tp.Domains {
			for _, sd := range chain {
				id := domainSpanSums(sd)
				if sd.Parent == nil && id >= 0 {
					t.Fatalf("%s: cpu %d's root domain has span sums %d", name, cpu, id)
				}
				if id < 0 {
					continue
				}
				withID++
				if !tp.GroupSpans[id].Equal(sd.Span) {
					t.Fatalf("%s: cpu %d %s: span sums %d are of %s, not %s", name, cpu, sd.Level, id, tp.GroupSpans[id], sd.Span)
				}
				seen := topo.NewCPUSet(tp.NumCPUs())
				for _, g := range sd.Groups {
					for c := g.Span.First(); c.Valid(); c = g.Span.Next(c) {
						if seen.Has(c) || !sd.Span.Has(c) {
							t.Fatalf("%s: cpu %d %s: group %s overlaps another or leaves the span", name, cpu, sd.Level, g.Span)
						}
						seen.Set(c)
					}
				}
				if !seen.Equal(sd.Span) {
					t.Fatalf("%s: cpu %d %s: the groups cover %s of %s", name, cpu, sd.Level, seen, sd.Span)
				}
			}
		}
		if name == "vera-sgemm-nvpl" {
			for _, sd := range tp.Domains[0] {
				if got := domainSpanSums(sd) >= 0; got != (sd.Parent != nil) {
					t.Errorf("%s: cpu 0 %s: span sums %v, want %v", name, sd.Level, got, sd.Parent != nil)
				}
				if got, want := cpuPair(sd), sd.Level == "SMT"; got != want {
					t.Errorf("%s: cpu 0 %s: cpuPair %v, want %v", name, sd.Level, got, want)
				}
			}
		}
		if withID == 0 && len(tp.Domains[0]) > 1 {
			t.Errorf("%s: no domain has span sums", name)
		}
	}
}

// noSrcGroup()'s second case, on one SMT2 core: while the idle thread's
// sibling runs one task, sched_balance_find_src_group() returns NULL for
// the idle thread's SMT pass (busiest->sum_h_nr_running == 1) and the
// shortcut answers; with two tasks there it returns the sibling's group,
// and the shortcut must not answer.
func TestNoSrcGroupSMTPair(t *testing.T) {
	s := simOf(t, `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":2,"threads_per_core":2},
		"workload":{"groups":[{"name":"w","count":2,"program":[{"compute":"1s"}]}]},"run":{"duration":"10s","seed":1}}`)
	sd := s.t.Domains[0][0]
	if !s.cpus[0].sd[0].cpuPair {
		t.Fatalf("cpu 0's %s domain is not a cpuPair", sd.Level)
	}
	sib := int(sd.Groups[1].Span.First())
	s.now = 1_000_000
	for k, want := range []bool{true, false} {
		place(s, k, sib)
		if k == 0 {
			s.schedule(&s.cpus[sib])
		}
		short := s.noSrcGroup(sd, 0, 0, cpuIdle)
		env := &lbEnv{}
		env.reset(sd, 0, 0, cpuIdle, migPeriodic, topo.CPUSet{}, migrateLoad)
		g := s.schedBalanceFindSrcGroup(env)
		if short != want || (g == nil) != want {
			t.Errorf("%d task(s) on cpu %d: noSrcGroup %v (want %v), sched_balance_find_src_group %v", k+1, sib, short, want, g != nil)
		}
	}
}

// TestSameLbStatsEveryField changes each field of a cpuLbStats in turn
// and checks that sameLbStats sees it, as == does; a field added to the
// struct fails here until it has a case (and sameLbStats compares it).
func TestSameLbStatsEveryField(t *testing.T) {
	a := cpuLbStats{load: 1, util: 2, runnable: 3, nr: 4, hnr: 5, idle: true, misfit: 7}
	if !sameLbStats(&a, &a) {
		t.Fatal("sameLbStats(a, a) is false")
	}
	change := []func(*cpuLbStats){
		func(b *cpuLbStats) { b.load++ }, func(b *cpuLbStats) { b.util++ },
		func(b *cpuLbStats) { b.runnable++ }, func(b *cpuLbStats) { b.nr++ },
		func(b *cpuLbStats) { b.hnr++ }, func(b *cpuLbStats) { b.idle = !b.idle },
		func(b *cpuLbStats) { b.overloaded = !b.overloaded }, func(b *cpuLbStats) { b.misfit++ },
		func(b *cpuLbStats) { b.capacity++ },
	}
	if n := reflect.TypeOf(a).NumField(); n != len(change) {
		t.Fatalf("cpuLbStats has %d fields, the test changes %d", n, len(change))
	}
	for i, f := range change {
		b := a
		f(&b)
		if a == b || sameLbStats(&a, &b) {
			t.Errorf("field %d changed: == %v, sameLbStats %v", i, a == b, sameLbStats(&a, &b))
		}
	}
}

// TestKeptSgLbStatsLayout checks what keptSgLbStats' layout promises: an
// entry is two cache lines, and the fields a newidle pass reads of most
// groups (the key, the totals, sum_h_nr_running and smtBalanceTie's) are
// in the first. It also checks that no keptKey of a seed machine's
// domains carries keptOverloaded or keptVerify.
func TestKeptSgLbStatsLayout(t *testing.T) {
	var k keptSgLbStats
	if n := unsafe.Sizeof(k); n != 128 {
		t.Errorf("keptSgLbStats is %d bytes, want 128", n)
	}
	hot := map[string]uintptr{
		"key":           unsafe.Offsetof(k.key) + unsafe.Sizeof(k.key),
		"avgLoad":       unsafe.Offsetof(k.sgs) + unsafe.Offsetof(k.sgs.avgLoad) + unsafe.Sizeof(k.sgs.avgLoad),
		"groupLoad":     unsafe.Offsetof(k.sgs) + unsafe.Offsetof(k.sgs.groupLoad) + unsafe.Sizeof(k.sgs.groupLoad),
		"groupCapacity": unsafe.Offsetof(k.sgs) + unsafe.Offsetof(k.sgs.groupCapacity) + unsafe.Sizeof(k.sgs.groupCapacity),
		"groupUtil":     unsafe.Offsetof(k.sgs) + unsafe.Offsetof(k.sgs.groupUtil) + unsafe.Sizeof(k.sgs.groupUtil),
		"sumHNrRunning": unsafe.Offsetof(k.sgs) + unsafe.Offsetof(k.sgs.sumHNrRunning) + unsafe.Sizeof(k.sgs.sumHNrRunning),
		"idleCPUs":      unsafe.Offsetof(k.sgs) + unsafe.Offsetof(k.sgs.idleCPUs) + unsafe.Sizeof(k.sgs.idleCPUs),
		"groupType":     unsafe.Offsetof(k.sgs) + unsafe.Offsetof(k.sgs.groupType) + unsafe.Sizeof(k.sgs.groupType),
	}
	for name, end := range hot {
		if end > 64 {
			t.Errorf("keptSgLbStats: %s ends at byte %d, past the first cache line", name, end)
		}
	}
	for _, name := range []string{"vera", "hikey960"} {
		s := simOf(t, `{"schedplay":1,"machine":{"preset":"`+name+`"},"policy":{"preset":"mainline"},"workload":{"groups":[{"name":"w","count":1,"program":[{"compute":"1ms"}]}]},"run":{"duration":"10ms","seed":1,"reps":1}}`)
		for cpu := range s.cpus {
			for _, sd := range s.t.Domains[cpu] {
				for _, idle := range []cpuIdleType{cpuNotIdle, cpuNewlyIdle} {
					env := lbEnv{sd: sd, idle: idle}
					if k := s.keptKey(&env); k&(keptOverloaded|keptVerify) != 0 || k&keptSome == 0 {
						t.Fatalf("%s: keptKey %#x of CPU %d's %v domain", name, k, cpu, sd.Level)
					}
				}
			}
		}
	}
}

// TestSMTBusiestFinal runs a fully loaded Vera in the verify mode, where
// update_sd_lb_stats()'s group loop goes on past the busiest group it
// would stop at (smtBusiestFinal) and panics if a later group replaces
// that group or the span sums give other totals than the loop; the
// passes must reach the stop, or the check checks nothing.
func TestSMTBusiestFinal(t *testing.T) {
	doc := `{"schedplay":1,"machine":{"preset":"vera"},"policy":{"preset":"mainline"},"workload":{"groups":[{"name":"hog","count":352,"program":[{"repeat":100000,"do":[{"compute":"10ms","jitter":0.05},{"sleep":"200us"}]}]}]},"run":{"duration":"300ms","until":"duration","seed":1,"reps":1}}`
	r := resolveJSON(t, doc)
	rr := r.WithDefaults()
	tp, err := topo.Build(rr.Machine, rr.Policy.DomainPolicy)
	if err != nil {
		t.Fatal(err)
	}
	s, err := newSim(&rr, tp, Options{verifySums: true}, rr.Run.Seed, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.loop(context.Background(), 0, 1); err != nil {
		t.Fatal(err)
	}
	if s.gs.finalStops == 0 {
		t.Fatal("no balance pass reached a final smt_balance busiest group")
	}
	t.Logf("%d passes stopped at a final busiest group", s.gs.finalStops)
}
