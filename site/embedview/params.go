package embedview

import (
	"fmt"
	"net/url"
	"strings"

	"schedplay/engine/embed"
	"schedplay/engine/scenario"
	"schedplay/engine/sim"
	"schedplay/site"
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

// Figures are the key figures docs/embed.md lists, formatted as the
// playground formats them (site.KeyFigures' rules): the headline (the
// wake-up latency p99 for a latency workload, the first timed section for
// one that times its own, GFLOP/s as TFLOP/s from 1000, else throughput
// in the result's unit), mode transitions ("n/a (no SMT)" on a machine of
// one-thread cores, which have no modes to change), migrations, the
// wake-up latency p99 (when there were wake-ups), the fair server's and
// the RT throttle's time (when either acted) and each timed section.
func Figures(r *sim.Result, smt bool) []Figure {
	s := r.Summary
	h := site.Headline(r)
	head := Figure{"fig-throughput", h.Label, h.Value}
	latencyHead := r.IsLatency()
	if latencyHead {
		head.ID = "fig-latency"
	}
	transitions := site.FormatStat(s.ModeTransitions, "")
	if !smt {
		transitions = "n/a (no SMT)"
	}
	figs := []Figure{
		head,
		{"fig-transitions", "mode transitions", transitions},
		{"fig-migrations", "migrations", site.FormatStat(s.Migrations, "")},
	}
	if site.HasWakeups(r) && !latencyHead {
		p := site.LatencyP99(r)
		figs = append(figs, Figure{"fig-latency", p.Label, p.Value})
	}
	if f, ok := site.RTBandwidthFigure(r); ok { // only beside RT tasks that starved fair ones
		figs = append(figs, Figure{"fig-rt-bandwidth", f.Label, f.Value})
	}
	_, timedHead := r.TimedHeadline()
	for i, t := range s.Timed {
		if i == 0 && timedHead || t.Time.N == 0 {
			continue
		}
		figs = append(figs, Figure{fmt.Sprintf("fig-timed-%d", i), t.Name, site.FormatStat(t.Time, "ns")})
	}
	if n := len(r.Reps); n > 0 {
		figs = append(figs, Figure{"fig-reps", "repetitions", fmt.Sprint(n)})
	}
	return figs
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
