package sim

import (
	"testing"
)

// TestHybridECoreAlone: on intel-hybrid the E-cores have one hardware
// thread, so a task on an E-core runs at the E-core's speed (0.6) with no
// SMT partner, even when the next CPU is busy too: CPUs 16 and 17 are two
// E-cores, not siblings. The P-cores keep their HT siblings (yield 1.2).
func TestHybridECoreAlone(t *testing.T) {
	ms := int64(1_000_000)
	for _, tc := range []struct {
		name        string
		cpus        []string
		want        int64 // completion of 6 ms of work at the rate the core model gives
		transitions int64
	}{
		{"lone task on E-core CPU 20", []string{"20"}, 10 * ms, 0},           // 6 / 0.6
		{"tasks on E-core CPUs 16 and 17", []string{"16", "17"}, 10 * ms, 0}, // two cores: 6 / 0.6 each
		{"lone task on P-core CPU 0", []string{"0"}, 6 * ms, 0},              // 6 / 1.0
		{"tasks on P-core siblings 0 and 1", []string{"0", "1"}, 10 * ms, 2}, // 6 / (1.2 / 2)
	} {
		t.Run(tc.name, func(t *testing.T) {
			groups := ""
			for i, c := range tc.cpus {
				if i > 0 {
					groups += ","
				}
				groups += `{"name":"g` + itoa(i) + `","count":1,"cpus":"` + c + `","program":[{"compute":"6ms"}]}`
			}
			r := resolveJSON(t, `{"schedplay":1,"machine":{"preset":"intel-hybrid"},"policy":{"preset":"none"},
				"workload":{"groups":[`+groups+`]},"run":{"duration":"100ms","until":"done","seed":1,"reps":1}}`)
			res := mustRun(t, r, Options{})
			m := res.Reps[0]
			// a few microseconds of wake-up latency on top of the work
			if m.Completion < tc.want || m.Completion > tc.want+20_000 {
				t.Errorf("completion %.3f ms; want %.3f ms", float64(m.Completion)/1e6, float64(tc.want)/1e6)
			}
			if m.ModeTransitions != tc.transitions {
				t.Errorf("%d mode transitions; want %d", m.ModeTransitions, tc.transitions)
			}
		})
	}
}

// TestHybridFillOrder: on a hybrid part under ITMT, CPU-bound threads take
// one CPU of every P-core first, then the E-cores, and only then the second
// threads of P-cores, the order Ricardo Neri's "sched/fair: Fix load
// balancing of SMT siblings with ASYM_PACKING" covers state for Alder Lake
// ("picking first the Core CPUs, then the Atoms and at last the SMT
// siblings", v4 2021-08-10) and Tim Chen's "Enable Cluster Scheduling for
// x86 Hybrid CPUs" cover repeats (v1 2023-05-04: "1) SMT CPU on an idle
// P-core, 2) idle E-core, 3) unused SMT CPU with a busy sibling"). Without
// asym packing (policy none) 8 threads leave P-cores idle and run on
// E-cores. Counted from busy time: a CPU busy more than half the run holds
// a thread.
func TestHybridFillOrder(t *testing.T) {
	for _, tc := range []struct {
		policy                   string
		threads                  int
		pCores, pDoubled, eCores int
		wantExact                bool
	}{
		{"itmt", 8, 8, 0, 0, true},
		{"itmt", 12, 8, 0, 4, true},
		{"itmt", 18, 8, 2, 8, true},
		{"none", 8, 0, 0, 0, false}, // only: some thread on an E-core
	} {
		t.Run(tc.policy+"/"+itoa(tc.threads), func(t *testing.T) {
			r := resolveJSON(t, `{"schedplay":1,"machine":{"preset":"intel-hybrid"},"policy":{"preset":"`+tc.policy+`"},
				"workload":{"metric":"requests","groups":[{"name":"w","count":`+itoa(tc.threads)+`,
				"program":[{"pool":"r","total":`+itoa(tc.threads*400)+`,"do":[{"compute":"1ms","jitter":0.02}]}]}]},
				"run":{"duration":"2s","until":"done","seed":1,"reps":1}}`)
			holds := holdsThread(mustRun(t, r, Options{}).Reps[0].BusyNs)
			pCores, pDoubled, eCores := 0, 0, 0
			for core := 0; core < 8; core++ { // P-core k is CPUs 2k, 2k+1
				n := 0
				for _, cpu := range []int{2 * core, 2*core + 1} {
					if holds(cpu) {
						n++
					}
				}
				if n > 0 {
					pCores++
				}
				if n == 2 {
					pDoubled++
				}
			}
			for cpu := 16; cpu < 24; cpu++ {
				if holds(cpu) {
					eCores++
				}
			}
			if !tc.wantExact {
				if eCores == 0 {
					t.Errorf("P-cores %d (doubled %d), E-cores %d: want some thread on an E-core without asym packing", pCores, pDoubled, eCores)
				}
				return
			}
			if pCores != tc.pCores || pDoubled != tc.pDoubled || eCores != tc.eCores {
				t.Errorf("P-cores %d (doubled %d), E-cores %d; want %d (%d), %d", pCores, pDoubled, eCores, tc.pCores, tc.pDoubled, tc.eCores)
			}
		})
	}
}

// TestHybridClustersShareTheECores: Tim Chen's "Enable Cluster Scheduling
// for x86 Hybrid CPUs" (v1 cover, lkml 2023-05-04, merged for 6.5) on an
// Alder Lake with 6 P-cores and 8 E-cores in two 4-core clusters, 10
// threads: "6 threads run on the P-cores, 2 threads on one Atom cluster
// and 2 threads on the other Atom cluster. Whereas the vanilla kernel
// [6.3-rc5, no CLS level on hybrid] will have 6 threads on the P-cores, 4
// threads on one Atom cluster." With the CLS level the two E-modules are
// groups of the MC balance; both have spare CPUs, and the CLS child's
// SD_PREFER_SIBLING makes calculate_imbalance() ask for
// sibling_imbalance(), which evens the tasks per core between them: 2 + 2
// in every seed. Without it the four E-core threads are placed by the fill
// alone, and some seed leaves three or four in one module.
func TestHybridClustersShareTheECores(t *testing.T) {
	machine := func(cls bool) string {
		cl := func(n int) string {
			if !cls {
				return ""
			}
			return `,"cluster_cores":` + itoa(n)
		}
		levels := `["MC","PKG"]`
		if cls {
			levels = `["CLS","MC","PKG"]`
		}
		return `{"preset":"intel-hybrid","cores_per_node":14,
			"core_classes":[{"name":"p-core","cores":6,"capacity":1024,"speed":1.0,"threads":2` + cl(1) + `},
				{"name":"e-core","cores":8,"capacity":1024,"speed":0.6,"threads":1` + cl(4) + `}],
			"priorities":[72,72,72,72,70,70,70,70,70,70,70,70,41,41,41,41,41,41,41,41],
			"arch":{"asym_packing":` + levels + `}}`
	}
	// split counts the threads held on P-cores (one per core: CPUs 2k and
	// 2k+1 of core k count once) and on the E-modules (CPUs 12-15, 16-19).
	split := func(cls bool, seed int) (p, e1, e2 int) {
		r := resolveJSON(t, `{"schedplay":1,"machine":`+machine(cls)+`,"policy":{"preset":"itmt"},
			"workload":{"metric":"requests","groups":[{"name":"w","count":10,
			"program":[{"pool":"r","total":4000,"do":[{"compute":"1ms","jitter":0.02}]}]}]},
			"run":{"duration":"2s","until":"done","seed":`+itoa(seed)+`,"reps":1}}`)
		holds := holdsThread(mustRun(t, r, Options{}).Reps[0].BusyNs)
		for core := 0; core < 6; core++ {
			if holds(2*core) != holds(2*core+1) { // one of the two, not both
				p++
			}
		}
		for cpu := 12; cpu < 20; cpu++ {
			switch {
			case !holds(cpu):
			case cpu < 16:
				e1++
			default:
				e2++
			}
		}
		return p, e1, e2
	}
	uneven := 0
	for seed := 1; seed <= 3; seed++ {
		if p, e1, e2 := split(true, seed); p != 6 || e1 != 2 || e2 != 2 {
			t.Errorf("CLS level, seed %d: %d threads on P-cores, %d + %d on the E-modules; want 6, 2 + 2", seed, p, e1, e2)
		}
		if p, e1, e2 := split(false, seed); p != 6 || e1+e2 != 4 {
			t.Errorf("no CLS level, seed %d: %d threads on P-cores, %d + %d on E-cores; want 6 and 4", seed, p, e1, e2)
		} else if e1 != 2 {
			uneven++
		}
	}
	if uneven == 0 {
		t.Error("without the CLS level every seed split the E-core threads 2 + 2; the fill alone does not even them out")
	}
}

// holdsThread says whether a CPU held a thread through a run: busy more
// than half as long as the busiest CPU.
func holdsThread(busy []int64) func(cpu int) bool {
	var most int64
	for _, b := range busy {
		most = max(most, b)
	}
	return func(cpu int) bool { return busy[cpu] > most/2 }
}
