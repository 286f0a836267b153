package sim

import (
	"testing"
)

// One CPU-bound task on hikey960-dynamiq, forked while short boot tasks
// (random lengths) occupy some CPUs: with SD_ASYM_PACKING at MC and
// capacity priorities it ends up on a big core every repetition; with no
// asym awareness it stays where the fork put it, a little core in some
// repetitions.
func TestDynamiqAsymPackingPullsToBig(t *testing.T) {
	onBig := func(policy string) (always, some bool) {
		always = true
		for seed := 1; seed <= 8; seed++ {
			doc := `{"schedplay":1,"machine":{"preset":"hikey960-dynamiq"},"policy":{"preset":"` + policy + `"},
				"workload":{"groups":[
					{"name":"boot","count":8,"program":[{"compute":"1ms","jitter":0.9}]},
					{"name":"hog","count":1,"start":"1ms","program":[{"compute":"400ms"}]}]},
				"run":{"duration":"400ms","until":"duration","seed":` + itoa(seed) + `}}`
			res := mustRun(t, resolveJSON(t, doc), Options{Timeline: true})
			big := false
			for cpu := 4; cpu < 8; cpu++ {
				for _, iv := range res.Timeline.Runs[cpu] {
					if iv.Task == 8 && iv.End >= 390_000_000 {
						big = true
					}
				}
			}
			always = always && big
			some = some || !big
		}
		return always, some
	}
	if always, _ := onBig("dynamiq-asym-packing"); !always {
		t.Errorf("dynamiq-asym-packing: the hog was not on a big core at the end of every repetition")
	}
	if _, someLittle := onBig("none"); !someLittle {
		t.Errorf("none: the hog ended on a big core in every repetition; want a little core in some")
	}
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// A cold task forked onto a little core (bigs busy) becomes misfit only when
// its utilization crosses 80% of 462: from post_init_entity_util_avg's 231
// that takes ≈8.9 PELT periods scaled by 1024/462 (≈20.7 ms, modern) or
// ≈42.5 periods (≈44.6 ms, legacy2018). The big cores are idle from 5 ms on.
func TestMisfitWaitsForThePELTRamp(t *testing.T) {
	for _, c := range []struct {
		pelt   string
		lo, hi int64 // ms after the fork
	}{
		{"modern", 20, 36},
		{"legacy2018", 43, 62},
	} {
		doc := `{"schedplay":1,"machine":{"preset":"hikey960"},"policy":{"preset":"misfit","features":{"PELT":"` + c.pelt + `"}},
			"workload":{"groups":[
				{"name":"bigs","count":4,"cpus":"4-7","program":[{"compute":"5ms"}]},
				{"name":"cold","count":1,"start":"1ms","program":[{"compute":"200ms"}]}]},
			"run":{"duration":"150ms","until":"duration","seed":1}}`
		res := mustRun(t, resolveJSON(t, doc), Options{Timeline: true})
		first := int64(-1)
		for cpu := 4; cpu < 8; cpu++ {
			for _, iv := range res.Timeline.Runs[cpu] {
				if iv.Task == 4 && (first < 0 || iv.Start < first) {
					first = iv.Start
				}
			}
		}
		startedLittle := false
		for cpu := 0; cpu < 4; cpu++ {
			for _, iv := range res.Timeline.Runs[cpu] {
				if iv.Task == 4 && iv.Start < 2_000_000 {
					startedLittle = true
				}
			}
		}
		if !startedLittle {
			t.Fatalf("%s: the cold task did not start on a little core", c.pelt)
		}
		d := (first - 1_000_000) / 1_000_000
		if first < 0 || d < c.lo || d > c.hi {
			t.Errorf("%s: misfit migration %d ms after fork (first big interval at %d); want within [%d, %d] ms", c.pelt, d, first, c.lo, c.hi)
		}
		if res.Reps[0].Migrations.Misfit == 0 {
			t.Errorf("%s: no migration counted as misfit: %+v", c.pelt, res.Reps[0].Migrations)
		}
	}
}

// Under v6-on, a waking SGEMM thread lands on a PE1 only when that core's PE0
// is busy (or already claimed); under mainline it sometimes lands on PE1
// with PE0 idle.
func TestV6WakeupsPreferPE0(t *testing.T) {
	pe1WithIdlePE0 := func(policy string) (bad, wakes int) {
		r := resolveVera(t, policy, "sgemm-nvpl", `{"duration":"1s","seed":3}`)
		res := mustRun(t, r, Options{Timeline: true})
		tl := res.Timeline
		busyNear := func(cpu int, at int64) bool {
			for _, iv := range tl.Runs[cpu] {
				if iv.Start <= at+20_000 && at < iv.End {
					return true
				}
			}
			return false
		}
		for _, d := range tl.Decisions {
			if d.Kind != "wakeup" {
				continue
			}
			wakes++
			if d.To >= 176 && d.To < 264 && !busyNear(d.To-176, d.At) {
				bad++
			}
		}
		return bad, wakes
	}
	if bad, n := pe1WithIdlePE0("v6-on"); bad != 0 || n == 0 {
		t.Errorf("v6-on: %d of %d wake-ups landed on PE1 while PE0 was idle; want 0", bad, n)
	}
	if bad, _ := pe1WithIdlePE0("mainline"); bad == 0 {
		t.Errorf("mainline: no wake-up landed on PE1 with PE0 idle; the test cannot tell v6 apart")
	}
}

// v6-off on arm64 (no arch SMT asym packing) leaves select_idle_smt_cpu() a
// no-op: the same results as mainline.
func TestV6OffEqualsMainline(t *testing.T) {
	a := mustRun(t, resolveVera(t, "mainline", "sgemm-nvpl", `{"duration":"300ms","seed":2,"reps":2}`), Options{})
	b := mustRun(t, resolveVera(t, "v6-off", "sgemm-nvpl", `{"duration":"300ms","seed":2,"reps":2}`), Options{})
	if toJSON(t, a.Reps) != toJSON(t, b.Reps) {
		t.Errorf("v6-off differs from mainline on vera")
	}
}

// combined-asym-packing never turns on SD_ASYM_CPUCAPACITY, so misfit and
// select_idle_capacity stay off even with Vera's capacity differences.
func TestCombinedAsymPackingHasNoAsymCapacity(t *testing.T) {
	s := wakeSim(t, `{"preset":"combined-asym-packing"}`)
	if s.asymCapActive {
		t.Errorf("combined-asym-packing: sched_asym_cpucapacity is on")
	}
	for cpu := range s.cpus {
		if s.t.SDAsymCPUCapacity[cpu] != nil {
			t.Fatalf("combined-asym-packing: cpu %d has sd_asym_cpucapacity", cpu)
		}
	}
}

// The Olympus calibration direction (domain.md), on the test machine with
// the hold calibrated in docs/model.md: with PE0 preference the NVPL-like
// SGEMM is faster, its spread across repetitions several-fold smaller, and
// its mode transitions far fewer.
func TestOlympusV6CalibrationDirection(t *testing.T) {
	if testing.Short() {
		t.Skip("2 × 4 repetitions of 1.5 s of Vera")
	}
	run := func(policy string) Summary {
		return mustRun(t, resolveVera(t, policy, "sgemm-nvpl", `{"duration":"1500ms","seed":1,"reps":4}`), Options{}).Summary
	}
	base, v6 := run("mainline"), run("v6-on")
	if v6.Throughput.Mean <= base.Throughput.Mean {
		t.Errorf("v6-on %.0f ≤ mainline %.0f GFLOP/s", v6.Throughput.Mean, base.Throughput.Mean)
	}
	if v6.Throughput.Stddev*2 > base.Throughput.Stddev {
		t.Errorf("v6-on spread %.1f not well below mainline's %.1f", v6.Throughput.Stddev, base.Throughput.Stddev)
	}
	if v6.ModeTransitions.Mean > 0.2*base.ModeTransitions.Mean {
		t.Errorf("v6-on transitions %.0f; want ≥80%% fewer than mainline's %.0f", v6.ModeTransitions.Mean, base.ModeTransitions.Mean)
	}
}
