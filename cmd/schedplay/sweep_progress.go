package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"schedplay/site/fanout"
)

// progress shows a sweep's progress: a bar redrawn in place with its
// rate and ETA on a terminal, a plain line every 10 s (and at the end)
// when stderr is a file or a pipe.
type progress struct {
	w         io.Writer
	tty       bool
	total     int
	start     time.Time
	startDone int
	last      time.Time
}

func newProgress(w io.Writer, total, done int) *progress {
	now := time.Now()
	return &progress{w: w, tty: isTerminal(w), total: total, start: now, last: now, startDone: done}
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// update reports done of total runs.
func (p *progress) update(done int, st fanout.Stats) {
	now := time.Now()
	every := 10 * time.Second
	if p.tty {
		every = 200 * time.Millisecond
	}
	if now.Sub(p.last) < every {
		return
	}
	p.last = now
	p.print(done, st, false)
}

// finish prints the last state and ends the bar's line.
func (p *progress) finish(done int, st fanout.Stats) {
	p.print(done, st, true)
	if p.tty {
		fmt.Fprintln(p.w)
	}
}

func (p *progress) print(done int, st fanout.Stats, final bool) {
	el := time.Since(p.start)
	ran := done - p.startDone
	rate := float64(ran) / el.Seconds()
	eta := "?"
	if ran > 0 && done < p.total {
		eta = (time.Duration(float64(p.total-done)/rate*float64(time.Second)) + time.Second/2).Truncate(time.Second).String()
	} else if done >= p.total {
		eta = "0s"
	}
	pct := 100 * float64(done) / float64(max(p.total, 1))
	text := fmt.Sprintf("%d/%d runs (%.1f%%), %.2f runs/s, ETA %s%s", done, p.total, pct, rate, eta, backendsText(st))
	if final {
		text = fmt.Sprintf("%d/%d runs (%.1f%%) in %s, %.2f runs/s%s", done, p.total, pct, el.Round(time.Millisecond), rate, backendsText(st))
	}
	if !p.tty {
		fmt.Fprintf(p.w, "schedplay sweep: %s\n", text)
		return
	}
	const width = 30
	fill := int(float64(width) * float64(done) / float64(max(p.total, 1)))
	fmt.Fprintf(p.w, "\r\033[K[%s%s] %s", strings.Repeat("#", fill), strings.Repeat(".", width-fill), text)
}

// backendsText lists the backends' shares when there are several, and
// the ones set aside.
func backendsText(st fanout.Stats) string {
	if len(st.Backends) < 2 && st.Retries == 0 {
		return ""
	}
	var parts []string
	for _, b := range st.Backends {
		s := fmt.Sprintf("%s %d", b.Name, b.Done)
		if b.Down {
			s += " (down)"
		}
		parts = append(parts, s)
	}
	if st.Retries > 0 {
		parts = append(parts, fmt.Sprintf("%d retries", st.Retries))
	}
	return "; " + strings.Join(parts, ", ")
}
