package sim

import "testing"

// TestIsLatency: metric "latency" is a latency result even under a
// load that has a throughput (vera-cyclictest-loaded); a workload that
// computes nothing but records wake-ups is one too; sysbench is not.
func TestIsLatency(t *testing.T) {
	lat := Stat{Mean: 5800, N: 5}
	for _, tc := range []struct {
		res  Result
		want bool
	}{
		{Result{Metric: "latency", Summary: Summary{Throughput: Stat{Mean: 85}, LatencyP99: lat}}, true},
		{Result{Metric: "latency"}, true},
		{Result{Summary: Summary{LatencyP99: lat}}, true},
		{Result{Metric: "requests", Summary: Summary{Throughput: Stat{Mean: 6.2}, LatencyP99: lat}}, false},
		{Result{Metric: "ops", Summary: Summary{Throughput: Stat{Mean: 8e6}, LatencyP99: lat}}, false},
	} {
		if got := tc.res.IsLatency(); got != tc.want {
			t.Errorf("IsLatency(metric %q, throughput %g, p99 %g) = %v", tc.res.Metric, tc.res.Summary.Throughput.Mean, tc.res.Summary.LatencyP99.Mean, got)
		}
	}
}
