package importer

import (
	"bufio"
	"encoding/json"
	"fmt"
	"path"
	"regexp"

	"schedplay/engine/importer/input"
	"schedplay/engine/importer/rtapp"
	"schedplay/engine/units"
)

var (
	rtappHead = regexp.MustCompile(`"tasks"\s*:`)
)

// workloadFormat recognises rt-app JSON and traces by their head.
func workloadFormat(head []byte) (Format, bool) {
	switch {
	case isChromeTrace(head):
		return FormatChrome, true
	case isFtrace(head):
		return FormatFtrace, true
	case rtappHead.Match(head):
		return FormatRTApp, true
	}
	return "", false
}

// importWorkload reads a workload format from r.
func importWorkload(name string, f Format, r *bufio.Reader, opt Options) (*Result, error) {
	switch f {
	case FormatRTApp:
		data, err := input.ReadAll(name, r, input.MaxFileBytes)
		if err != nil {
			return nil, err
		}
		return importRTApp(name, data, opt)
	}
	return importTrace(name, f, r, opt)
}

// defaultRunCPUs is the smallest flat machine a workload without
// --machine gets.
const defaultRunCPUs = 4

// flatMachine is the machine a workload runs on without --machine: one
// node of n single-thread cores of capacity 1024.
func flatMachine(n int) map[string]any {
	return map[string]any{"nodes": 1, "cores_per_node": n, "threads_per_core": 1}
}

// importRTApp reads an rt-app use case.
func importRTApp(name string, data []byte, opt Options) (*Result, error) {
	uc, err := rtapp.Read(data, name)
	if err != nil {
		return nil, err
	}
	notes := uc.Notes
	var machine any = opt.Machine
	if len(opt.Machine) == 0 {
		n := max(uc.MaxCPU+1, defaultRunCPUs)
		machine = flatMachine(n)
		notes = append(notes, fmt.Sprintf("no --machine: a flat machine of %d CPUs (1 node, no SMT, capacity 1024); pass --machine to run it on yours", n))
	}
	dur := uc.Duration
	if dur == 0 {
		dur = 10 * units.Second
		notes = append(notes, "global.duration is -1 (until the threads end): run.duration 10s caps the run")
	}
	wl, err := json.Marshal(uc.Workload)
	if err != nil {
		return nil, err
	}
	doc := map[string]any{
		"schedplay": 1,
		"name":      cutName("rt-app " + path.Base(name)),
		"machine":   machine,
		"workload":  json.RawMessage(wl),
		"run":       map[string]any{"duration": dur.String(), "until": "done"},
	}
	if len(opt.Policy) > 0 {
		doc["policy"] = opt.Policy
	}
	res := &Result{Format: FormatRTApp, Notes: notes,
		Summary: fmt.Sprintf("%s: %d group(s) of tasks", FormatRTApp, len(uc.Workload.Groups))}
	if _, err := finish(name, doc, opt, res); err != nil {
		return nil, err
	}
	return res, nil
}
