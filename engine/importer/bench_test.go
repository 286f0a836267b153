package importer_test

import (
	"io"
	"runtime"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"schedplay/engine/importer"
	"schedplay/presets"
)

// ftraceGen streams size bytes of ftrace text: 256 tasks on 8 CPUs, each
// switched in, waking its neighbour, and switched out to sleep, as a
// busy machine's sched_switch/sched_waking trace reads.
type ftraceGen struct {
	left int64
	buf  []byte
	off  int
	i    int64
	ts   int64
}

func (g *ftraceGen) Read(p []byte) (int, error) {
	if g.left <= 0 {
		return 0, io.EOF
	}
	if g.off == len(g.buf) {
		g.fill()
	}
	n := copy(p, g.buf[g.off:])
	if int64(n) > g.left {
		n = int(g.left)
	}
	g.off += n
	g.left -= int64(n)
	return n, nil
}

// fill writes the next 64 activations into buf.
func (g *ftraceGen) fill() {
	b := g.buf[:0]
	for k := 0; k < 64; k++ {
		pid := 1 + g.i%256
		cpu := g.i % 8
		next := 1 + (g.i+1)%256
		head := func(comm string, p int64) {
			b = append(b, "  "...)
			b = append(b, comm...)
			b = append(b, '-')
			b = strconv.AppendInt(b, p, 10)
			b = append(b, "     ("...)
			b = strconv.AppendInt(b, p, 10)
			b = append(b, ") ["...)
			b = append(b, byte('0'), byte('0'), byte('0'+cpu))
			b = append(b, "] d..2 "...)
			b = strconv.AppendInt(b, g.ts/1e9, 10)
			b = append(b, '.')
			frac := strconv.AppendInt(nil, g.ts%1e9+1e9, 10)
			b = append(b, frac[1:]...)
			b = append(b, ": "...)
		}
		name := "worker" + strconv.FormatInt(pid, 10)
		head("<idle>", 0)
		b = append(b, "sched_switch: prev_comm=swapper prev_pid=0 prev_prio=120 prev_state=R ==> next_comm="...)
		b = append(b, name...)
		b = append(b, " next_pid="...)
		b = strconv.AppendInt(b, pid, 10)
		b = append(b, " next_prio=120\n"...)
		g.ts += 20_000
		head(name, pid)
		b = append(b, "sched_waking: comm=worker"...)
		b = strconv.AppendInt(b, next, 10)
		b = append(b, " pid="...)
		b = strconv.AppendInt(b, next, 10)
		b = append(b, " prio=120 target_cpu=001\n"...)
		head(name, pid)
		b = append(b, "sched_switch: prev_comm="...)
		b = append(b, name...)
		b = append(b, " prev_pid="...)
		b = strconv.AppendInt(b, pid, 10)
		b = append(b, " prev_prio=120 prev_state=S ==> next_comm=swapper next_pid=0 next_prio=120\n"...)
		g.ts += 1_000
		g.i++
	}
	g.buf, g.off = b, 0
}

// BenchmarkImportTrace100MB imports a 100 MB ftrace text (about 1.2
// million events) as a stream, reporting the time per import and the
// peak heap in use during it (docs/import.md: ≤ 10 s, ≤ 200 MB).
func BenchmarkImportTrace100MB(b *testing.B) {
	ps, err := presets.Load()
	if err != nil {
		b.Fatal(err)
	}
	const size = 100 << 20
	var peak atomic.Uint64
	stop := make(chan struct{})
	go func() {
		var ms runtime.MemStats
		for {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
				runtime.ReadMemStats(&ms)
				if ms.HeapInuse > peak.Load() {
					peak.Store(ms.HeapInuse)
				}
			}
		}
	}()
	b.SetBytes(size)
	b.ResetTimer()
	var events int64
	for i := 0; i < b.N; i++ {
		res, err := importer.Import("big.txt", &ftraceGen{left: size, buf: make([]byte, 0, 64<<10)}, importer.Options{Presets: ps})
		if err != nil {
			b.Fatal(err)
		}
		events = res.Trace.Events()
	}
	b.StopTimer()
	close(stop)
	b.ReportMetric(float64(peak.Load())/(1<<20), "peak-heap-MB")
	b.ReportMetric(float64(events), "events")
}
