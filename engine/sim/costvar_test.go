package sim

import (
	"math"
	"testing"
)

// The factor has mean 1 and the machine's coefficient of variation, so a
// cost's mean is its nominal value and its spread the one documented; a
// variation of 0 charges nominal costs and draws nothing.
func TestCostVariationMeanAndSpread(t *testing.T) {
	const n, cost = 200000, 1000
	v := newCostVariation(0.7, 1)
	var sum, sq float64
	for range n {
		x := float64(v.vary(cost))
		sum += x
		sq += x * x
	}
	mean := sum / n
	cv := math.Sqrt(sq/n-mean*mean) / mean
	if math.Abs(mean/cost-1) > 0.01 || math.Abs(cv-0.7) > 0.05 {
		t.Errorf("mean %.1f (want %d ± 1%%), coefficient of variation %.3f (want 0.7 ± 0.05)", mean, cost, cv)
	}
	z := newCostVariation(0, 1)
	if z.rng != nil || z.vary(cost) != cost {
		t.Errorf("variation 0: %+v charged %d; want no stream and %d", z, z.vary(cost), cost)
	}
}

// Two calls on one IPC object at the same instant queue on its lock: the
// second spins while the first holds it; a call after the lock is free
// does not wait.
func TestObjectLockQueuesCallers(t *testing.T) {
	s := &sim{now: 1000}
	ch := &ipcChan{}
	if w := s.objectLockWait(ch, 100); w != 0 {
		t.Errorf("first call waited %d ns; want 0", w)
	}
	if w := s.objectLockWait(ch, 100); w != 100 {
		t.Errorf("second call at the same instant waited %d ns; want 100 (the first's hold)", w)
	}
	s.now = 1500
	if w := s.objectLockWait(ch, 100); w != 0 {
		t.Errorf("call after the lock was free waited %d ns; want 0", w)
	}
	if w := s.objectLockWait(ch, 0); w != 0 {
		t.Errorf("a call that takes no lock waited %d ns", w)
	}
}

// wake_affine_idle() with WF_SYNC: a waker alone on its CPU pulls the
// wakee there (the waker is about to sleep), even across LLCs; without
// WF_SYNC, or with another task queued on the waker's CPU, there is no
// affine choice when prev is busy.
func TestWakeAffineIdleSyncPullsToLoneWaker(t *testing.T) {
	s := simOf(t, `{"schedplay":1,"machine":{"preset":"vera"},"policy":{"preset":"mainline"},"workload":{"preset":"idle"}}`)
	this, prev := 0, 100 // CPU 100 is a core of the other node (another LLC)
	busy := func(cpu, n int) {
		c := &s.cpus[cpu]
		c.curr, c.nrRunning = &task{}, n
	}
	busy(this, 1)
	busy(prev, 1)
	if got := s.wakeAffineIdle(this, prev, true); got != this {
		t.Errorf("sync, waker alone: %d; want this %d", got, this)
	}
	if got := s.wakeAffineIdle(this, prev, false); got != noCPU {
		t.Errorf("no sync, prev busy: %d; want no affine choice", got)
	}
	busy(this, 2)
	if got := s.wakeAffineIdle(this, prev, true); got != noCPU {
		t.Errorf("sync, waker not alone: %d; want no affine choice", got)
	}
}
