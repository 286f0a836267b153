package site

import (
	"testing"

	"schedplay/engine/sim"
)

// TestFormatMeanSD: mean ± stddev on the page follows compare.MeanSD's
// rule (stddev to two significant digits, mean to the same decimal place)
// with the mean and the stddev at one scale and unit. The expectations are
// the review's cases: hikey960-sysbench 6.1963 ± 0.0013 work/s (was
// "6.2 ± 0"), sched-messaging 8.17M ± 8618 ops/s (was a scaled mean beside
// an unscaled stddev), 161 µs ± 56 ns per op (was two units).
func TestFormatMeanSD(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{FormatThroughput(6.19634, 0.00131, 10, "work/s"), "6.1963 ± 0.0013 work/s"},
		{FormatThroughput(8171234, 8618, 5, "ops/s"), "8.1712M ± 0.0086M ops/s"},
		{FormatThroughput(10290.3, 5.04, 5, "GFLOP/s"), "10.2903 ± 0.0050 TFLOP/s"},
		{FormatThroughput(10290.3, 5.04, 1, "GFLOP/s"), "10.3 TFLOP/s"},
		{FormatThroughput(0.9, 0, 10, "work/s"), "0.9 ± 0 work/s"},
		{FormatMeanSD(2287.2, 69.5, 5), "2287 ± 70"},
		{FormatMeanSD(19.4, 17.7, 5), "19 ± 18"},
		{FormatMeanSD(3653, 38, 5), "3653 ± 38"},
		{FormatMeanSD(1, 0, 10), "1 ± 0"},
		{FormatMeanSD(52340, 1210, 5), "52.3k ± 1.2k"},
		{FormatMeanSD(52340, 0, 5), "52.34k ± 0"},
		{FormatMeanSD(637, 21, 1), "637"},
		{FormatNsMeanSD(161234, 56, 5), "161.234 ± 0.056 µs"},
		{FormatNsMeanSD(5800, 1640, 5), "5.8 ± 1.6 µs"},
		{FormatNsMeanSD(111e6, 0, 10), "111 ± 0 ms"},
		{FormatNsMeanSD(1e6, 0, 5), "1 ± 0 ms"},
		{FormatNsMeanSD(750, 12.5, 3), "750 ± 12 ns"},
		{FormatNsMeanSD(2.5e9, 3e7, 3), "2.500 ± 0.030 s"},
		{FormatNsMeanSD(4000, 300, 1), "4 µs"},
		{FormatNsStat(sim.Stat{Mean: 5800, Stddev: 1640, N: 5}), "5.8 ± 1.6 µs"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

// Issue 16, bug 6: one formatter. A figure that does not exist is "—"
// (no wake-ups: no latency p99), a signed value that rounds to zero has
// no sign ("0.0 pt", never "-0.0 pt"), and axis ticks have no exponent.
func TestFormatNoFigureSignedAndTicks(t *testing.T) {
	quiet := &sim.Result{Unit: "work/s", Reps: make([]sim.RepMetrics, 3)}
	quiet.Summary.Throughput = sim.Stat{Mean: 6.2, N: 3}
	quiet.Summary.LatencyP99 = sim.Stat{N: 3} // zeros: no samples
	if v := LatencyP99(quiet).Value; v != NoFigure {
		t.Errorf("latency p99 without wake-ups = %q, want %q", v, NoFigure)
	}
	for _, f := range KeyFigures(quiet, true, "") {
		if f.Kind == "latency" {
			t.Errorf("a run without wake-ups shows %q %q", f.Label, f.Value)
		}
	}
	if v := FormatStat(sim.Stat{}, "ns"); v != NoFigure {
		t.Errorf("an empty statistic = %q", v)
	}
	woken := &sim.Result{Reps: []sim.RepMetrics{{Latency: sim.Latency{Count: 10}}}}
	woken.Summary.LatencyP99 = sim.Stat{Mean: 4000, N: 1}
	if v := LatencyP99(woken).Value; v != "4 µs" {
		t.Errorf("latency p99 = %q", v)
	}
	for _, tc := range []struct{ got, want string }{
		{FormatSigned(-0.0004, 1), "0.0"},
		{FormatSigned(-0.04, 1), "0.0"},
		{FormatSigned(0.06, 1), "+0.1"},
		{FormatSigned(-2.25, 2), "-2.25"},
		{FormatTick(10000), "10k"},
		{FormatTick(12500), "12.5k"},
		{FormatTick(2.5e6), "2.5M"},
		{FormatTick(0.0001), "0.0001"},
		{FormatTick(1234), "1234"},
		{FormatTick(-0.5), "-0.5"},
		{FormatTick(0), "0"},
		{FormatStat(sim.Stat{Mean: 10289.5, Stddev: 5, N: 5}, "GFLOP/s"), "10.2895 ± 0.0050 TFLOP/s"},
		{FormatStat(sim.Stat{Mean: 9660, Stddev: 12, N: 5}, "GFLOP/s"), "9.660 ± 0.012 TFLOP/s"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

// TestRTBandwidthFigure: the fair server's and the RT throttle's time is a
// key figure only when one of them happened, as a mean per repetition.
func TestRTBandwidthFigure(t *testing.T) {
	res := &sim.Result{Reps: []sim.RepMetrics{{}, {}}}
	if _, ok := RTBandwidthFigure(res); ok {
		t.Error("a figure for a run without fair server runs or RT throttling")
	}
	res.Reps[0].FairServerNs, res.Reps[1].FairServerNs = 100e6, 50e6
	res.Reps[1].RTThrottledNs = 2e6
	f, ok := RTBandwidthFigure(res)
	if !ok || f.Value != "75 ms / 1 ms" {
		t.Errorf("figure %+v, %v; want 75 ms / 1 ms", f, ok)
	}
	found := false
	for _, k := range KeyFigures(res, false, "") {
		found = found || k.Kind == "rt-bandwidth"
	}
	if !found {
		t.Error("KeyFigures leaves it out")
	}
}
