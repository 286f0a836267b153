package importer

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"path"
	"regexp"

	"schedplay/engine/importer/input"
	"schedplay/engine/importer/trace"
	"schedplay/engine/scenario"
	"schedplay/engine/topo"
)

var (
	ftraceLine  = regexp.MustCompile(`\[\d{3,}\][^:\n]*\d+\.\d+: [a-z0-9_]+:`)
	chromeTrace = regexp.MustCompile(`^\s*\{\s*"(traceEvents|systemTraceEvents|displayTimeUnit|metadata)"`)
	htmlTrace   = regexp.MustCompile(`(?i)^\s*(<!doctype html|<html)`)
)

func isChromeTrace(head []byte) bool { return chromeTrace.Match(head) }

func isFtrace(head []byte) bool { return ftraceLine.Match(head) || htmlTrace.Match(head) }

// importTrace reads a scheduling trace and writes its replay.
func importTrace(name string, f Format, r *bufio.Reader, opt Options) (*Result, error) {
	var notes []string
	var speeds []float64
	cpus := 0
	lat := scenario.MachineWithDefaults(topo.Machine{Nodes: 1, CoresPerNode: 1}).Latency
	if len(opt.Machine) > 0 {
		m, err := machineOf(name, opt)
		if err != nil {
			return nil, err
		}
		lat = m.Latency
		tp, err := topo.Build(m, topo.DomainPolicy{})
		if err != nil {
			return nil, input.Errorf(name, 0, "--machine: %v", err)
		}
		for _, c := range tp.CPUs {
			speeds = append(speeds, c.Speed)
		}
		cpus = tp.NumCPUs()
		notes = append(notes, "bursts are scaled by the speeds of --machine's CPUs: the trace is taken to come from that machine")
	}
	var src io.Reader = r
	switch {
	case f == FormatChrome:
		s, err := trace.ChromeText(r)
		if err != nil {
			return nil, input.Errorf(name, 0, "%v", err)
		}
		src = s
	default:
		if head, _ := r.Peek(512); htmlTrace.Match(head) {
			s, err := trace.HTMLText(r)
			if err != nil {
				return nil, input.Errorf(name, 0, "%v", err)
			}
			src = s
		}
	}
	tr, err := trace.Read(src, trace.Options{File: name, Strict: opt.Strict, Speed: speeds})
	if err != nil {
		return nil, err
	}
	var machine any = opt.Machine
	if cpus == 0 {
		cpus = max(tr.CPUs(), 1)
		machine = flatMachine(cpus)
		notes = append(notes, fmt.Sprintf("no --machine: a flat machine of %d CPUs (the trace's; 1 node, no SMT, capacity 1024), and bursts taken at speed 1; pass --machine for the traced machine", cpus))
	} else if tr.CPUs() > cpus {
		return nil, input.Errorf(name, 0, "the trace has CPUs up to %d; --machine has %d", tr.CPUs()-1, cpus)
	}
	rp := tr.Replay(cpus, trace.Overheads{Switch: lat.ContextSwitch, Wakeup: lat.Wakeup})
	if len(rp.Workload.Groups) == 0 {
		// Only the idle task, or a task switched out but never seen
		// running or woken within the trace.
		return nil, input.Errorf(name, 0, "the trace's %d scheduling events show no task running or being woken: nothing to replay (record sched:sched_switch and sched:sched_waking for longer, or while the workload runs)", tr.Events())
	}
	notes = append(notes, rp.Notes...)
	wl, err := json.Marshal(rp.Workload)
	if err != nil {
		return nil, err
	}
	doc := map[string]any{
		"schedplay": scenario.Version,
		"name":      cutName("replay of " + path.Base(name)),
		"machine":   machine,
		"workload":  json.RawMessage(wl),
		"run":       map[string]any{"duration": rp.Duration.String(), "until": "duration"},
	}
	if len(opt.Policy) > 0 {
		doc["policy"] = opt.Policy
	}
	res := &Result{Format: f, Notes: notes, Replay: rp, Trace: tr,
		Summary: fmt.Sprintf("%s: %d scheduling events, %d tasks → %d groups over %s", f, tr.Events(), len(tr.Stats()), len(rp.Workload.Groups), rp.Duration)}
	if _, err := finish(name, doc, opt, res); err != nil {
		return nil, err
	}
	return res, nil
}

// machineOf resolves the --machine section into a machine.
func machineOf(name string, opt Options) (topo.Machine, error) {
	doc := fmt.Sprintf(`{"schedplay":1,"machine":%s,"workload":{"preset":"idle"}}`, opt.Machine)
	sc, err := scenario.Decode([]byte(doc))
	if err != nil {
		return topo.Machine{}, input.Errorf(name, 0, "--machine: %v", err)
	}
	r, err := scenario.Resolve(sc, opt.Presets)
	if err != nil {
		return topo.Machine{}, input.Errorf(name, 0, "--machine: %v", err)
	}
	return r.Machine, nil
}
