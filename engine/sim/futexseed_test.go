package sim_test

import (
	"math"
	"testing"

	"schedplay/engine/scenario"
	"schedplay/engine/sim"
	"schedplay/presets"
)

// seedVariant runs a variant of a seed scenario preset with its own
// overrides, as `schedplay run NAME --variant V` applies them, then extra
// ones ("path=value").
func seedVariant(t *testing.T, name, variant string, extra ...string) (*scenario.Resolved, *sim.Result) {
	t.Helper()
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	p, _ := ps.Get(presets.Scenario, name)
	for _, v := range p.Variants {
		if v.Name == variant {
			var sets []string
			for _, o := range v.Set {
				sets = append(sets, o.Path+"="+string(o.Value))
			}
			return seedRun(t, name, "", append(sets, extra...)...)
		}
	}
	t.Fatalf("%s has no variant %q", name, variant)
	return nil, nil
}

// timedCost walks a timed section's body and returns the compute it runs
// (ns, at speed 1), the futex_wake() calls its sends make and the
// try_to_wake_up()s they issue.
func timedCost(steps []scenario.Step) (compute float64, calls, wakes int) {
	for _, st := range steps {
		n := 1
		if st.Repeat > 0 {
			n = st.Repeat
		}
		c, k, w := timedCost(st.Do)
		if st.Compute != nil {
			c += float64(*st.Compute)
		}
		if st.Send != "" {
			k++
			w += max(st.Wake, 1)
		}
		compute += float64(n) * c
		calls += n * k
		wakes += n * w
	}
	return compute, calls, wakes
}

// timedBody finds the body of the timed section named name.
func timedBody(steps []scenario.Step, name string) []scenario.Step {
	for _, st := range steps {
		if st.Timed == name {
			return st.Do
		}
		if b := timedBody(st.Do, name); b != nil {
			return b
		}
	}
	return nil
}

// TestSeedVeraFutex: the vera-futex variants report perf bench futex's
// own figures, the timed wake loop (not elapsed/ops, which the 1 ms
// pauses between rounds dominate): wake one is 8 sequential futex_wake(1)
// per round and wake all one futex_wake(8); each call costs the waker the
// machine's syscall and futex_wake paths (and the bucket's cache line when
// another CPU touched it last), then per woken waiter a try_to_wake_up()
// (latency.wakeup) and, for a waiter on another CPU, an IPI's sending part
// (latency.ipi_send) and the lines ttwu pulls from there (4, at most
// remote each); so wake one takes longer than wake all, and
// wake-parallel's 4 wakers, each timing one futex_wake(2), take less. The
// costs vary per event (machine.latency.variation); over the 50 or more
// executions the mean stays within 10 % of the nominal band.
func TestSeedVeraFutex(t *testing.T) {
	const waiters, wakers = 8, 4
	for _, c := range []struct {
		variant, section string
		wakes, runs      int // wake-ups per timed execution; executions per repetition
	}{
		{"wake one", "wake loop", waiters, 10},
		{"wake all", "wake loop", waiters, 10},
		{"parallel wake (4 wakers)", "per-waker wake", waiters / wakers, 10 * wakers},
	} {
		r, res := seedVariant(t, "vera-futex", c.variant)
		rr := r.WithDefaults()
		l, ipc := rr.Machine.Latency, rr.Machine.IPC
		if len(res.Summary.Timed) != 1 || res.Summary.Timed[0].Name != c.section {
			t.Fatalf("%s: timed sections %+v; want %q", c.variant, res.Summary.Timed, c.section)
		}
		compute, calls, wakes := timedCost(timedBody(rr.Workload.Groups[0].Program, c.section))
		if wakes != c.wakes || compute != 0 {
			t.Fatalf("%s: the timed section issues %d wake-ups and computes %.0f ns; want %d and none (the calls' cost is the machine's)", c.variant, wakes, compute, c.wakes)
		}
		s := res.Summary.Timed[0]
		if s.Count.Min != float64(c.runs) || s.Time.N != len(res.Reps) {
			t.Errorf("%s: %+v; want %d executions in every repetition", c.variant, s, c.runs)
		}
		lo := float64(calls)*float64(l.Syscall+ipc.FutexWake) + float64(wakes)*float64(l.Wakeup)
		hi := lo + float64(wakes)*float64(l.IPISend+4*l.Cacheline.Remote) + 2*float64(calls)*float64(l.Cacheline.Remote)
		if s.Time.Mean < 0.9*lo || s.Time.Mean > 1.1*hi {
			t.Errorf("%s: %s %.0f ns; want %d calls × (syscall + futex_wake) + %d × wakeup = %.0f ns, plus at most an IPI send and four remote lines per wake-up and two remote lines per call (%.0f ns), ± 10 %%",
				c.variant, c.section, s.Time.Mean, calls, wakes, lo, hi)
		}
	}
	_, one := seedVariant(t, "vera-futex", "wake one")
	_, all := seedVariant(t, "vera-futex", "wake all")
	_, par := seedVariant(t, "vera-futex", "parallel wake (4 wakers)")
	o, a, p := one.Summary.Timed[0].Time.Mean, all.Summary.Timed[0].Time.Mean, par.Summary.Timed[0].Time.Mean
	if o <= a {
		t.Errorf("wake one's loop %.0f ns; want it above wake all's %.0f ns (8 calls against 1)", o, a)
	}
	if p >= a {
		t.Errorf("average waker time %.0f ns with 4 parallel wakers; want it below wake all's %.0f ns", p, a)
	}
}

// TestSeedFutexHash: perf bench futex hash keeps a thread pinned to every
// CPU calling futex() back to back, so a call costs the thread the
// machine's syscall and futex paths as kernel work at its PE's rate: with
// both PEs of every Vera core busy that rate is the 2T share
// (smt.yield[1]/2 of the core), and with one thread on each core's PE0 it
// is the whole core, about 1.9 times faster. The op time is one thread's
// (perf's figure is a thread's operations/sec), so ops/s × op time is a
// second per thread.
func TestSeedFutexHash(t *testing.T) {
	r, full := seedVariant(t, "vera-futex", "hash")
	rr := r.WithDefaults()
	n := rr.Workload.Groups[0].Count
	call := float64(rr.Machine.Latency.Syscall + rr.Machine.IPC.FutexWake)
	share := rr.Machine.SMT.Yield[1] / 2
	sm := full.Summary
	if got := sm.Throughput.Mean * sm.OpTime.Mean; math.Abs(got-1e9*float64(n)) > 1e-6*1e9*float64(n) {
		t.Errorf("%.0f ops/s × %.1f ns/op = %.0f; want %d threads × 1 s", sm.Throughput.Mean, sm.OpTime.Mean, got, n)
	}
	// core speeds run 0.95–1.0; the costs vary per event around their means
	if lo, hi := 0.97*call/share, 1.08*call/(0.95*share); sm.OpTime.Mean < lo || sm.OpTime.Mean > hi {
		t.Errorf("every PE busy: %.1f ns per call; want (syscall + futex_wake) %.0f ns at the 2T share %.3f, %.0f–%.0f ns", sm.OpTime.Mean, call, share, lo, hi)
	}
	_, st := seedVariant(t, "vera-futex", "hash", "workload.groups[0].count=176", `workload.groups[0].cpus="0-175"`)
	ratio := sm.OpTime.Mean / st.Summary.OpTime.Mean
	if want := 1 / share; ratio < 0.9*want || ratio > 1.05*want {
		t.Errorf("a call takes %.2f× as long with both PEs busy as on PE0s alone; want about 1/%.3f = %.2f×", ratio, share, want)
	}
	for _, pol := range []string{"mainline", "v6-on"} {
		_, p := seedVariant(t, "vera-futex", "hash", "policy.preset="+pol)
		if got := p.Summary.OpTime.Mean; got != sm.OpTime.Mean && math.Abs(got-sm.OpTime.Mean) > 0.002*sm.OpTime.Mean {
			t.Errorf("%s: %.2f ns per call against the seed policy's %.2f: pinned threads leave placement nothing to choose", pol, got, sm.OpTime.Mean)
		}
	}
}
