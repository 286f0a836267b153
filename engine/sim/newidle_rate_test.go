package sim

import "testing"

// TestUpdateNewidleStatsRate: update_newidle_stats() under NI_RATE
// (9fe89f022c05) adds the time since the last update, in units of 2^22 ns,
// to the successes when the 1024th call recomputes newidle_ratio, so 512
// calls spread over 4.3 s or more (under 128 Hz) give the full 1024
// whatever their success; 6.12 has the successes alone.
func TestUpdateNewidleStatsRate(t *testing.T) {
	for _, c := range []struct {
		generation string
		now        int64
		want       int
	}{
		{"tip-2026-09", 1_000_000_000, 100 + 238}, // 1 s = 238 << 22 ns
		{"tip-2026-09", 5_000_000_000, 1024},      // under 128 Hz: capped
		{"6.12", 5_000_000_000, 100},
	} {
		s := hikeyGenSim(t, c.generation)
		s.now = c.now
		st := &sdState{newidleCall: 1023, newidleSuccess: 100}
		s.updateNewidleStats(st, 0)
		if st.newidleRatio != c.want || st.newidleCall != 512 || st.newidleSuccess != 50 {
			t.Errorf("%s, 512 calls in %d ns with 100 successes: ratio %d, call %d, success %d; want %d, 512, 50",
				c.generation, c.now, st.newidleRatio, st.newidleCall, st.newidleSuccess, c.want)
		}
		if c.generation != "6.12" && st.newidleStamp != c.now {
			t.Errorf("%s: newidle_stamp %d after the update; want now (%d)", c.generation, st.newidleStamp, c.now)
		}
	}
	// Weighted successes can pass 1024 (a success at ratio r counts
	// (1024 + (1+r)/2)/(1+r)): 6.12 keeps them uncapped, NI_RATE caps.
	for gen, want := range map[string]int{"6.12": 1500, "tip-2026-09": 1024} {
		s := hikeyGenSim(t, gen)
		st := &sdState{newidleCall: 1023, newidleSuccess: 1500}
		s.updateNewidleStats(st, 0)
		if st.newidleRatio != want {
			t.Errorf("%s, 1500 weighted successes: newidle_ratio %d; want %d", gen, st.newidleRatio, want)
		}
	}
}

// TestNIRateStartsAtFullRatio: under NI_RATE a run starts on a machine
// that was idle before it, whose newidle passes stopped at the
// rd->overloaded gate, so its last ratio update saw 512 calls over more
// than 4.29 s: newidle_ratio 1024, and the first update of the run keeps
// it there however fast the run's own calls come. 6.12 starts at
// sd_init()'s 512 (the dice then skip half the passes).
func TestNIRateStartsAtFullRatio(t *testing.T) {
	tip := hikeyGenSim(t, "tip-2026-09")
	old := hikeyGenSim(t, "6.12")
	for cpu := range tip.cpus {
		for i := range tip.cpus[cpu].sd {
			if st := tip.cpus[cpu].sd[i]; st.newidleRatio != 1024 || st.newidleStamp != niRateIdleStamp {
				t.Fatalf("tip, cpu %d domain %d: newidle_ratio %d, stamp %d; want 1024, %d", cpu, i, st.newidleRatio, st.newidleStamp, niRateIdleStamp)
			}
			if st := old.cpus[cpu].sd[i]; st.newidleRatio != 512 {
				t.Fatalf("6.12, cpu %d domain %d: newidle_ratio %d; want sd_init()'s 512", cpu, i, st.newidleRatio)
			}
		}
	}
	st := &tip.cpus[0].sd[0]
	tip.now = 1_000_000 // 512 failed calls in the run's first millisecond
	for range 512 {
		tip.updateNewidleStats(st, 0)
	}
	if st.newidleRatio != 1024 {
		t.Errorf("tip: the run's first update gave newidle_ratio %d; want 1024 (the idle time before the run counts)", st.newidleRatio)
	}
	for range 512 {
		tip.updateNewidleStats(st, 0)
	}
	if st.newidleRatio != 128 { // sd_init()'s 256 successes, halved once
		t.Errorf("tip: 512 more failed calls in the same millisecond gave newidle_ratio %d; want the successes alone, 128", st.newidleRatio)
	}
}
