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
