// Package exportmenu is the "Export" component of the result panels: it
// turns a scenario and its simulation result into downloadable files —
// the Perfetto trace (the same one `schedplay run --trace` writes), the
// results as CSV and JSON, the timeline as PNG and SVG, the scenario as
// JSON, and the workload as rt-app JSON with the notes on what does not
// map. Building the files is pure (Build, tested natively); menu_js.go
// wires buttons to Blob downloads.
package exportmenu

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"schedplay/engine/export"
	"schedplay/engine/export/rtapp"
	"schedplay/engine/perfetto"
	"schedplay/engine/scenario"
	"schedplay/engine/sim"
	"schedplay/engine/topo"
	"schedplay/presets"
)

// Kind is one export.
type Kind string

// The exports, in menu order.
const (
	Perfetto    Kind = "perfetto"
	ResultsCSV  Kind = "results-csv"
	CPUCSV      Kind = "cpu-csv"
	ResultsJSON Kind = "results-json"
	TimelinePNG Kind = "timeline-png"
	TimelineSVG Kind = "timeline-svg"
	Scenario    Kind = "scenario"
	RTApp       Kind = "rt-app"
)

// Kinds lists every export in menu order.
var Kinds = []Kind{Perfetto, ResultsCSV, CPUCSV, ResultsJSON, TimelinePNG, TimelineSVG, Scenario, RTApp}

// Label is a kind's button text.
func (k Kind) Label() string {
	switch k {
	case Perfetto:
		return "Perfetto trace"
	case ResultsCSV:
		return "Results CSV"
	case CPUCSV:
		return "Per-CPU CSV"
	case ResultsJSON:
		return "Results JSON"
	case TimelinePNG:
		return "Timeline PNG"
	case TimelineSVG:
		return "Timeline SVG"
	case Scenario:
		return "Scenario JSON"
	case RTApp:
		return "rt-app JSON"
	}
	return string(k)
}

// NeedsTimeline reports whether a kind needs the result's timeline.
func (k Kind) NeedsTimeline() bool {
	return k == Perfetto || k == TimelinePNG || k == TimelineSVG
}

// Source is what the exports are made from.
type Source struct {
	// Scenario is the scenario document (JSON) the result belongs to.
	Scenario []byte
	// Result is its simulation result; the trace and the timeline images
	// need its Timeline (repetition 0).
	Result *sim.Result
	// Suffix, when set, is added to file names ("-mainline" for one side
	// of a comparison).
	Suffix string
}

// File is one export, ready to download.
type File struct {
	Name, MIME string
	Data       []byte
	// Notes say what the export could not carry (rt-app: what does not map).
	Notes []string
}

// ErrNoResult is returned for result exports before any result exists.
var ErrNoResult = errors.New("run the scenario first: there is no result to export")

// ErrNoTimeline is returned for timeline exports of a result without one.
var ErrNoTimeline = errors.New("this result has no timeline (repetition 0's record); run it again with the timeline")

// Build makes one export of src. ps resolves the scenario's presets.
func Build(k Kind, src Source, ps *presets.Set) (File, error) {
	sc, err := scenario.Decode(src.Scenario)
	if err != nil {
		return File{}, fmt.Errorf("the scenario cannot be read: %w", err)
	}
	base := FileBase(nameOf(sc, src.Result)) + src.Suffix
	res := src.Result
	if k != Scenario && k != RTApp && res == nil {
		return File{}, ErrNoResult
	}
	if k.NeedsTimeline() && (res.Timeline == nil || len(res.Timeline.Runs) == 0) {
		return File{}, ErrNoTimeline
	}
	var buf bytes.Buffer
	f := File{}
	switch k {
	case Scenario:
		b, err := scenario.Encode(sc)
		if err != nil {
			return File{}, err
		}
		return File{Name: base + ".scenario.json", MIME: "application/json", Data: b}, nil
	case ResultsJSON:
		err = export.JSON(&buf, res)
		f = File{Name: base + ".results.json", MIME: "application/json"}
	case ResultsCSV:
		err = export.ResultsCSV(&buf, res)
		f = File{Name: base + ".results.csv", MIME: "text/csv"}
	case CPUCSV, Perfetto, TimelinePNG, TimelineSVG, RTApp:
		r, t, rerr := resolve(sc, ps)
		if rerr != nil {
			return File{}, rerr
		}
		f, err = buildResolved(k, &buf, base, r, t, res)
	default:
		return File{}, fmt.Errorf("unknown export %q", k)
	}
	if err != nil {
		return File{}, err
	}
	if f.Data == nil {
		f.Data = buf.Bytes()
	}
	return f, nil
}

// buildResolved makes the exports that need the resolved scenario or its
// topology.
func buildResolved(k Kind, buf *bytes.Buffer, base string, r *scenario.Resolved, t *topo.Topology, res *sim.Result) (File, error) {
	switch k {
	case CPUCSV:
		return File{Name: base + ".cpus.csv", MIME: "text/csv"}, export.CPUCSV(buf, res, export.CPUCores(t))
	case Perfetto:
		return File{Name: base + ".perfetto.json", MIME: "application/json"}, perfetto.Write(buf, res, TraceOptions(r, t))
	case TimelinePNG:
		return File{Name: base + ".timeline.png", MIME: "image/png"},
			export.TimelinePNG(buf, res.Timeline, export.LanesFromTopology(t), export.TimelineOptions{Title: r.Name})
	case TimelineSVG:
		return File{Name: base + ".timeline.svg", MIME: "image/svg+xml"},
			export.TimelineSVG(buf, res.Timeline, export.LanesFromTopology(t), export.TimelineOptions{Title: r.Name})
	case RTApp:
		b, notes, err := rtapp.JSON(r)
		return File{Name: base + ".rt-app.json", MIME: "application/json", Data: b, Notes: notes}, err
	}
	return File{}, fmt.Errorf("unknown export %q", k)
}

// TraceOptions are the Perfetto options `schedplay run --trace` uses: the
// groups' process flags and each core's CPUs for the track names.
func TraceOptions(r *scenario.Resolved, t *topo.Topology) perfetto.Options {
	var opt perfetto.Options
	for _, g := range r.Workload.Groups {
		opt.Processes = append(opt.Processes, g.Process)
	}
	for _, cpus := range t.CoreCPUs {
		var cs []int
		for _, c := range cpus {
			cs = append(cs, int(c))
		}
		opt.CoreCPUs = append(opt.CoreCPUs, cs)
	}
	return opt
}

func resolve(sc *scenario.Scenario, ps *presets.Set) (*scenario.Resolved, *topo.Topology, error) {
	r, err := scenario.Resolve(sc, ps)
	if err != nil {
		return nil, nil, fmt.Errorf("the scenario does not resolve: %w", err)
	}
	t, err := topo.Build(r.Machine, r.Policy.DomainPolicy)
	if err != nil {
		return nil, nil, fmt.Errorf("the machine's topology: %w", err)
	}
	return r, t, nil
}

func nameOf(sc *scenario.Scenario, res *sim.Result) string {
	if sc.Name != "" {
		return sc.Name
	}
	if res != nil && res.Scenario != "" {
		return res.Scenario
	}
	if sc.Preset != "" {
		return sc.Preset
	}
	return "scenario"
}

// FileBase turns a scenario name into a safe file name stem: lower case
// letters, digits, '.', '_' and '-', other runs of characters as one '-',
// at most 60 bytes, "schedplay" when nothing is left.
func FileBase(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		ok := r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-'
		if !ok || r == '-' {
			if !dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = true
			continue
		}
		b.WriteRune(r)
		dash = false
	}
	s := strings.Trim(b.String(), "-.")
	if len(s) > 60 {
		s = strings.Trim(s[:60], "-.")
	}
	if s == "" {
		return "schedplay"
	}
	return s
}
