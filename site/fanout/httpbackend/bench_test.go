package httpbackend

import (
	"context"
	"fmt"
	"net/http/httptest"
	"runtime"
	"testing"
	"time"

	"schedplay/presets"
	"schedplay/site/api"
	"schedplay/site/fanout"
)

// benchPoints are one repetition of a Vera point (352 CPUs, 88 SGEMM
// threads) and of a hikey960 point (8 CPUs, sysbench).
var benchPoints = []struct{ name, body string }{
	{"vera", `{"scenario": "vera-sgemm-nvpl", "reps": 1, "seed": %d}`},
	{"hikey", `{"scenario": "hikey960-sysbench", "reps": 1, "seed": %d}`},
}

func benchHandler(b *testing.B) *Local {
	ps, err := presets.Load()
	if err != nil {
		b.Fatal(err)
	}
	return &Local{Handler: api.New(ps)}
}

func seedBody(format string) func(i int) []byte {
	return func(i int) []byte { return []byte(fmt.Sprintf(format, 1+i%8)) }
}

// BenchmarkPoint is one point's run, alone, in process: the single-point
// rate BenchmarkSweepLocal is measured against.
func BenchmarkPoint(b *testing.B) {
	for _, p := range benchPoints {
		b.Run(p.name, func(b *testing.B) {
			l, body := benchHandler(b), seedBody(p.body)
			for i := 0; b.Loop(); i++ {
				if r, _ := l.Simulate(context.Background(), body(i)); r.Status != 200 {
					b.Fatalf("status %d: %s", r.Status, r.Body)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "points/s")
		})
	}
}

// BenchmarkSweepLocal runs points on every core through Run, as
// `schedplay sweep` does, and reports its rate and its efficiency: the
// rate over cores × the single-point rate (measured first, serially, on
// 2 × cores points; the issue asks for ≥ 0.9). On a shared machine the
// process may get less than its cores (the kernel's autogroup shares the
// CPU between sessions), so it also reports cpu/point: the process's CPU
// time per point in parallel over the same serially (1.0: running in
// parallel costs no CPU of its own), and cpu-used: the cores it got.
func BenchmarkSweepLocal(b *testing.B) {
	TuneForSweep() // as `schedplay sweep` does, for both measurements
	cores := runtime.GOMAXPROCS(0)
	for _, p := range benchPoints {
		b.Run(p.name, func(b *testing.B) {
			l, body := benchHandler(b), seedBody(p.body)
			n := 2 * cores
			t0, c0 := time.Now(), cpuTime()
			for i := range n {
				l.Simulate(context.Background(), body(i))
			}
			wall, cpu := time.Since(t0), cpuTime()-c0
			single := float64(n) / wall.Seconds()
			b.ResetTimer()
			units := max(b.N, 4*cores)
			c1 := cpuTime()
			_, err := fanout.Run(context.Background(), []fanout.Target{{Backend: l, Slots: cores}}, units, body, fanout.Options{}, func(int, fanout.Reply) error { return nil })
			if err != nil {
				b.Fatal(err)
			}
			pcpu := cpuTime() - c1
			rate := float64(units) / b.Elapsed().Seconds()
			b.ReportMetric(rate, "points/s")
			b.ReportMetric(rate/(float64(cores)*single), "efficiency")
			if cpu > 0 {
				b.ReportMetric((float64(pcpu)/float64(units))/(float64(cpu)/float64(n)), "cpu/point")
				b.ReportMetric(float64(pcpu)/float64(b.Elapsed()), "cpu-used")
			}
		})
	}
}

// BenchmarkRemoteOverhead runs one point at a time through HTTP on
// loopback (the handler `schedplay serve` runs) and reports the time per
// point over the in-process run of the same points (the issue asks ≤ 20 ms).
func BenchmarkRemoteOverhead(b *testing.B) {
	for _, p := range benchPoints {
		b.Run(p.name, func(b *testing.B) {
			l, body := benchHandler(b), seedBody(p.body)
			srv := httptest.NewServer(l.Handler)
			defer srv.Close()
			r := NewRemote(srv.URL, time.Minute)
			var local, remote time.Duration
			for i := 0; b.Loop(); i++ {
				t0 := time.Now()
				l.Simulate(context.Background(), body(i))
				t1 := time.Now()
				if rep, err := r.Simulate(context.Background(), body(i)); err != nil || rep.Status != 200 {
					b.Fatalf("%v %d", err, rep.Status)
				}
				local, remote = local+t1.Sub(t0), remote+time.Since(t1)
			}
			b.ReportMetric(float64(remote-local)/float64(b.N)/1e6, "overhead-ms/point")
			b.ReportMetric(float64(local)/float64(b.N)/1e6, "sim-ms/point")
		})
	}
}
