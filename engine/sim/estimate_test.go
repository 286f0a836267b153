package sim

import (
	"context"
	"testing"

	"schedplay/engine/scenario"
	"schedplay/presets"
)

// TestEventEstimateCoversIPC: the cost model's event estimate
// (scenario.EstimateEvents, what every budget refuses by) is within a
// factor of two of the events a repetition really takes (dispatched events
// and program steps, what Options.MaxEvents counts), for workloads whose
// sends and recvs are on ipc channels: each such step runs as two (socket,
// futex) or five (pipe) compiled steps and one or two kernel-work ends.
// Counting them as one step each, the estimate was a third of the pipe
// messaging's real events and a half of the socket one's, so a request
// the budget admitted could run three times its budget.
func TestEventEstimateCoversIPC(t *testing.T) {
	if testing.Short() {
		t.Skip("runs three seed workloads")
	}
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, workload string }{
		{"messaging over sockets", "sched-messaging"},
		{"messaging over pipes", "sched-messaging-pipe"},
		{"pipe ping-pong", "sched-pipe"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := scenario.Decode([]byte(`{"schedplay": 1, "machine": {"preset": "vera-node"}, "policy": {"preset": "mainline"}, "workload": {"preset": "` +
				tc.workload + `"}, "run": {"duration": "2s", "until": "done", "reps": 1}}`))
			if err != nil {
				t.Fatal(err)
			}
			r, err := scenario.Resolve(doc, ps)
			if err != nil {
				t.Fatal(err)
			}
			rr := r.WithDefaults()
			tp, err := rr.Topology(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			s, err := newSim(&rr, tp, Options{}, rr.Run.Seed, false)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.loop(context.Background(), 0, 1); err != nil {
				t.Fatal(err)
			}
			est := scenario.EstimateEvents(&rr, rr.Machine.NumCPUs())
			ratio := est / float64(s.events)
			t.Logf("estimate %.0f, events %d (%.2f×)", est, s.events, ratio)
			if ratio < 0.8 || ratio > 2 {
				t.Errorf("the estimate is %.2f× the events the run took (%.0f against %d), want 0.8–2×", ratio, est, s.events)
			}
		})
	}
}
