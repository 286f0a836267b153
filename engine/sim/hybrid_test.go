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
