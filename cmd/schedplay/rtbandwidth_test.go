package main

import (
	"testing"

	"schedplay/engine/sim"
)

// TestRTBandwidthRow: run's "RT vs fair" row gives the fair server's runs
// and the RT throttling per repetition, and is left out when neither
// happened.
func TestRTBandwidthRow(t *testing.T) {
	if got := rtBandwidth(&sim.Result{Reps: []sim.RepMetrics{{}, {}}}); got != "" {
		t.Errorf("without either: %q; want no row", got)
	}
	got := rtBandwidth(&sim.Result{Reps: []sim.RepMetrics{{FairServerNs: 100e6}, {FairServerNs: 50e6, RTThrottledNs: 96e6}}})
	if want := "fair server ran fair tasks 75 ms, RT throttled 48 ms (CPU time) per repetition"; got != want {
		t.Errorf("row %q; want %q", got, want)
	}
}
