package sim

import (
	"fmt"
	"testing"
)

// forkDecisions runs one repetition of a scenario on the machine preset
// with the given group and returns its fork decisions.
func forkDecisions(t *testing.T, machine, group string, seed int) []Decision {
	t.Helper()
	doc := fmt.Sprintf(`{"schedplay":1,"machine":{"preset":%q},"policy":{"preset":"none"},
		"workload":{"groups":[%s]},"run":{"duration":"50ms","seed":%d,"reps":1}}`, machine, group, seed)
	res := mustRun(t, resolveJSON(t, doc), Options{Timeline: true})
	var out []Decision
	for _, d := range res.Timeline.Decisions {
		if d.Kind == "fork" {
			out = append(out, d)
		}
	}
	return out
}

// TestForkFromBusyParent: the parent runs on its CPU while it forks, so
// sched_balance_find_dst_group() sees the local group busy (nr_running 1,
// no idle CPU) and sends the child to the first idle group after it — on
// an idle machine with no blocked load, the next CPU. Were the parent's
// CPU idle, the local group would tie and keep the child there.
func TestForkFromBusyParent(t *testing.T) {
	one := forkDecisions(t, "hikey960-dynamiq", `{"name":"w","count":1,"parent_cpu":5,"program":[{"compute":"5ms"}]}`, 1)
	if len(one) != 1 || one[0].From != 5 || one[0].To != 6 {
		t.Fatalf("fork decisions %+v; want one from CPU 5 to CPU 6", one)
	}
	// Eight children on eight CPUs: seven go to the idle CPUs, the last
	// finds every group busy and stays local, on the parent's CPU, which
	// it gets when the parent leaves.
	eight := forkDecisions(t, "hikey960-dynamiq", `{"name":"w","count":8,"parent_cpu":5,"program":[{"compute":"5ms"}]}`, 1)
	seen := map[int]int{}
	for _, d := range eight {
		seen[d.To]++
		if d.From != 5 {
			t.Errorf("fork from CPU %d; want the parent's CPU 5", d.From)
		}
	}
	if len(eight) != 8 || len(seen) != 8 || eight[7].To != 5 {
		t.Errorf("fork targets %+v; want one task per CPU, the last on the parent's CPU 5", eight)
	}
}

// TestForkFromOutsideTheChildsCPUs: on hikey960 (two clusters, a DIE
// level above them) a parent on CPU 0 forks two children allowed only the
// big cluster, CPUs 4-7. sched_balance_find_dst_cpu() keeps the parent's
// CPU as its cpu: at DIE the parent's group (0-3) does not intersect the
// child's mask, so there is no local group and the idlest allowed group is
// taken, then its idlest CPU, and the second child finds the first's CPU
// busy. The engine took the first allowed CPU as its cpu instead, so the
// big cluster was the local group, no group looked better, the descent
// went on into the parent's own MC, and both children stacked on CPU 4.
func TestForkFromOutsideTheChildsCPUs(t *testing.T) {
	two := forkDecisions(t, "hikey960", `{"name":"w","count":2,"cpus":"4-7","parent_cpu":0,"program":[{"compute":"5ms"}]}`, 1)
	if len(two) != 2 || two[0].To == two[1].To || two[0].To < 4 || two[1].To < 4 {
		t.Fatalf("fork decisions %+v; want two different CPUs of 4-7", two)
	}
}

// TestParentCPUDrawnPerRepetition: without parent_cpu the parent's CPU is
// drawn per repetition among the group's allowed CPUs, deterministically
// from the seed.
func TestParentCPUDrawnPerRepetition(t *testing.T) {
	g := `{"name":"w","count":1,"cpus":"1,3-5","program":[{"compute":"1ms"}]}`
	from := map[int]bool{}
	for seed := 1; seed <= 12; seed++ {
		d := forkDecisions(t, "hikey960-dynamiq", g, seed)
		if len(d) != 1 {
			t.Fatalf("seed %d: %d fork decisions", seed, len(d))
		}
		switch d[0].From {
		case 1, 3, 4, 5:
		default:
			t.Errorf("seed %d: parent on CPU %d, outside the group's cpus 1,3-5", seed, d[0].From)
		}
		from[d[0].From] = true
		if again := forkDecisions(t, "hikey960-dynamiq", g, seed); again[0].From != d[0].From || again[0].To != d[0].To {
			t.Errorf("seed %d: fork %+v then %+v; want the same", seed, d[0], again[0])
		}
	}
	if len(from) < 3 {
		t.Errorf("parent CPUs over 12 seeds: %v; want it to vary", from)
	}
}

// TestParentCPUsPool: parent_cpus narrows the draw to its CPUs, which need
// not be the children's: the parent of a group allowed every CPU of
// hikey960-dynamiq, drawn among the A73s (4-7), forks its lone child from
// one of them every time, where the group's own cpus also give A53s.
func TestParentCPUsPool(t *testing.T) {
	pooled := `{"name":"w","count":1,"parent_cpus":"4-7","program":[{"compute":"1ms"}]}`
	open := `{"name":"w","count":1,"program":[{"compute":"1ms"}]}`
	from, little := map[int]bool{}, false
	for seed := 1; seed <= 16; seed++ {
		d := forkDecisions(t, "hikey960-dynamiq", pooled, seed)
		if len(d) != 1 || d[0].From < 4 {
			t.Fatalf("seed %d: fork decisions %+v; want one, from a CPU of 4-7", seed, d)
		}
		from[d[0].From] = true
		if o := forkDecisions(t, "hikey960-dynamiq", open, seed); o[0].From < 4 {
			little = true
		}
	}
	if len(from) < 3 {
		t.Errorf("parent CPUs over 16 seeds: %v; want the draw to vary within 4-7", from)
	}
	if !little {
		t.Errorf("without parent_cpus no seed of 1-16 drew an A53 parent; the test no longer shows the pool's effect")
	}
}

// TestExecMovesParentToPE0: the benchmark's main thread is exec'ed on the
// CPU the shell left it on, and sched_exec()'s slow path goes through the
// v6 exit, so under a v6 policy the parent forks from its core's PE0 even
// when it was drawn on the PE1; under mainline (no exit) it stays where it
// was drawn, and a parent_cpu pins it.
func TestExecMovesParentToPE0(t *testing.T) {
	from := func(policy, group string, seed int) int {
		doc := fmt.Sprintf(`{"schedplay":1,"machine":{"preset":"vera-node"},"policy":{"preset":%q},
			"workload":{"groups":[%s]},"run":{"duration":"20ms","seed":%d,"reps":1}}`, policy, group, seed)
		res := mustRun(t, resolveJSON(t, doc), Options{Timeline: true})
		for _, d := range res.Timeline.Decisions {
			if d.Kind == "fork" {
				return d.From
			}
		}
		t.Fatalf("%s seed %d: no fork decision", policy, seed)
		return -1
	}
	open := `{"name":"w","count":1,"program":[{"compute":"5ms"}]}`
	drewPE1 := false
	for seed := 1; seed <= 16; seed++ {
		if c := from("v6-on", open, seed); c >= 88 {
			t.Errorf("v6-on seed %d: the parent forked from cpu %d, a PE1; want its core's idle PE0", seed, c)
		}
		if from("mainline", open, seed) >= 88 {
			drewPE1 = true
		}
	}
	if !drewPE1 {
		t.Errorf("under mainline no seed of 1-16 left the parent on a PE1; the test no longer shows the exit's effect")
	}
	if c := from("v6-on", `{"name":"w","count":1,"parent_cpu":100,"program":[{"compute":"5ms"}]}`, 1); c != 100 {
		t.Errorf("v6-on, parent_cpu 100: forked from cpu %d; want 100 (a parent_cpu pins the parent)", c)
	}
}
