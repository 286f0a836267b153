package sim

import "testing"

func TestSmokeVeraNVPL(t *testing.T) {
	r := resolve(t, "vera", "mainline", "sgemm-nvpl", `{"duration":"1s","seed":1,"reps":1}`)
	res := mustRun(t, r, Options{})
	rm := res.Reps[0]
	t.Logf("thr=%.1f %s trans=%d alt=%d migr=%+v ctx=%d wake=%d", rm.Throughput, res.Unit, rm.ModeTransitions, rm.PEAlternations, rm.Migrations, rm.ContextSwitches, rm.Wakeups)
}
