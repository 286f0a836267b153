package embedview

import (
	"fmt"
	"math"
	"net/url"
	"strings"

	"schedplay/engine/compare"
	"schedplay/engine/embed"
	"schedplay/engine/scenario"
	"schedplay/engine/sim"
)

// Params are the embed address's parameters (docs/embed.md).
type Params struct {
	// Share is the #s= payload, Preset ?preset=NAME (used when no Share).
	Share, Preset string
	// Parent is ?parent=ORIGIN: accept messages from it only.
	Parent string
	// NoRun is ?run=0: wait for schedplay:run.
	NoRun bool
}

// Wanted reports whether the address asks for the embed view.
func Wanted(search string) bool {
	q, err := url.ParseQuery(strings.TrimPrefix(search, "?"))
	return err == nil && q.Get("embed") == "1"
}

// ParseParams reads the embed parameters from location.search and hash.
func ParseParams(search, hash string) Params {
	q, _ := url.ParseQuery(strings.TrimPrefix(search, "?"))
	p := Params{Preset: q.Get("preset"), Parent: q.Get("parent"), NoRun: q.Get("run") == "0"}
	for _, part := range strings.Split(strings.TrimPrefix(hash, "#"), "&") {
		if v, ok := strings.CutPrefix(part, "s="); ok {
			p.Share = v
		}
	}
	return p
}

// Snippet is what the playground's "Embed" button copies for a scenario
// document: an <iframe> of base (the playground's address) with ?embed=1
// and the scenario's share fragment (embed.Snippet; src and title
// escaped).
func Snippet(base string, doc []byte) (string, error) {
	sc, err := scenario.Decode(doc)
	if err != nil {
		return "", err
	}
	share, err := scenario.EncodeShare(sc)
	if err != nil {
		return "", err
	}
	name := sc.Name
	if name == "" {
		name = sc.Preset
	}
	return embed.Snippet(base, "s="+share, name)
}

// Figure is one key figure of the compact view.
type Figure struct {
	ID, Label, Value string
}

// Figures are the key figures docs/embed.md lists: throughput in the
// result's unit as mean ± stddev (the wake-up latency p99 first instead
// for a latency workload), mode transitions ("n/a (no SMT)" on a machine
// of one-thread cores, which have no modes to change), migrations, the
// wake-up latency p99 and each timed section's mean.
func Figures(r *sim.Result, smt bool) []Figure {
	s := r.Summary
	head := Figure{"fig-throughput", "Throughput", stat(s.Throughput, 1) + " " + r.Unit}
	latency := s.LatencyP99.N > 0 && s.LatencyMax.Max > 0
	latencyHead := latency && r.IsLatency()
	if latencyHead {
		// cyclictest: the wake-up latency is the result, as on the page.
		head = Figure{"fig-latency", "Wake-up latency p99", stat(s.LatencyP99, 1e-3) + " µs"}
	}
	// An ops workload that times its own sections (perf bench futex) is
	// measured by the first of them: its ops/s over the run would count the
	// pauses between rounds.
	t, timedHead := r.TimedHeadline()
	timedHead = timedHead && t.Time.N > 0
	if timedHead {
		head = Figure{"fig-throughput", "Timed " + t.Name, stat(t.Time, 1e-3) + " µs"}
	}
	transitions := stat(s.ModeTransitions, 1)
	if !smt {
		transitions = "n/a (no SMT)"
	}
	figs := []Figure{
		head,
		{"fig-transitions", "Mode transitions", transitions},
		{"fig-migrations", "Migrations", stat(s.Migrations, 1)},
	}
	if latency && !latencyHead {
		figs = append(figs, Figure{"fig-latency", "Wake-up latency p99", stat(s.LatencyP99, 1e-3) + " µs"})
	}
	for i, t := range s.Timed {
		if i == 0 && timedHead {
			continue
		}
		if t.Time.N > 0 {
			figs = append(figs, Figure{fmt.Sprintf("fig-timed-%d", i), "Timed " + t.Name, stat(t.Time, 1e-3) + " µs"})
		}
	}
	if n := len(r.Reps); n > 0 {
		figs = append(figs, Figure{"fig-reps", "Repetitions", fmt.Sprint(n)})
	}
	return figs
}

// stat prints mean ± stddev (scaled), as compare.MeanSD does.
func stat(st sim.Stat, scale float64) string {
	if st.N <= 1 || st.Stddev == 0 || math.IsNaN(st.Stddev) {
		return trim(st.Mean * scale)
	}
	return compare.MeanSD(st.Mean*scale, st.Stddev*scale)
}

func trim(v float64) string {
	a := math.Abs(v)
	switch {
	case a >= 1000 || a == math.Trunc(a):
		return fmt.Sprintf("%.0f", v)
	case a >= 10:
		return fmt.Sprintf("%.1f", v)
	case a >= 1:
		return fmt.Sprintf("%.2f", v)
	}
	return fmt.Sprintf("%.3g", v)
}

// isReply reports the embed's own reply types: a frame that is not framed
// (window.parent === window) would otherwise answer its own messages.
func isReply(t string) bool {
	switch t {
	case embed.TypeReady, embed.TypeAck, embed.TypeProgress, embed.TypeResult, embed.TypeError:
		return true
	}
	return false
}
