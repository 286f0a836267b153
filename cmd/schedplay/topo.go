package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"schedplay/engine/scenario"
	"schedplay/engine/topo"
	"schedplay/presets"
)

// topoOptions are the flags of `schedplay topo`.
type topoOptions struct {
	policy string
	json   bool
	cpus   string
	groups int
}

// cmdTopo prints the sched-domain hierarchy of a machine under a policy, per
// CPU, in the style of the kernel's sched_domain debug output.
func cmdTopo(e *env, args []string) int {
	fs := newFlagSet(e, "topo", "MACHINE [--policy P] [--cpus LIST] [--groups N] [--json]\n\n"+
		"MACHINE is a machine preset name or a JSON file holding a machine object,\n"+
		"{\"machine\": {...}} or a whole scenario (as `schedplay import` writes);\n"+
		"P is a policy preset name or a JSON file.")
	var o topoOptions
	fs.StringVar(&o.policy, "policy", "mainline", "policy preset name or JSON file")
	fs.BoolVar(&o.json, "json", false, "print CPUs, domains, groups and shortcuts as JSON")
	fs.StringVar(&o.cpus, "cpus", "all", "only these CPUs (cpulist, e.g. 0,176 or 0-3)")
	fs.IntVar(&o.groups, "groups", 12, "print at most this many groups per domain (0 = all)")
	pos, err := parseInterspersed(e, fs, args)
	if err != nil {
		return flagExit(err)
	}
	if !wantArgs(e, fs, pos, "MACHINE") {
		return exitUsage
	}
	if o.groups < 0 {
		fmt.Fprintln(e.stderr, "schedplay topo: --groups must be ≥ 0")
		return exitUsage
	}
	m, mname, err := topoLoadMachine(e.presets, pos[0])
	if err != nil {
		fmt.Fprintf(e.stderr, "schedplay topo: %v\n", err)
		return exitInvalid
	}
	p, pname, err := topoLoadPolicy(e.presets, o.policy)
	if err != nil {
		fmt.Fprintf(e.stderr, "schedplay topo: %v\n", err)
		return exitInvalid
	}
	t, err := topo.Build(m, p.DomainPolicy)
	if err != nil {
		fmt.Fprintf(e.stderr, "schedplay topo: %v\n", err)
		return exitInvalid
	}
	cpus, err := topo.ParseCPUList(o.cpus, t.NumCPUs())
	if err != nil {
		fmt.Fprintf(e.stderr, "schedplay topo: --cpus: %v\n", err)
		return exitInvalid
	}
	if o.json {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(topo.NewView(t, mname, pname, cpus)); err != nil {
			return exitFailed
		}
		return exitOK
	}
	printTopoHeader(e.stdout, t, mname, pname, p.DomainPolicy)
	for _, c := range cpus.CPUs() {
		printSchedDomainDebug(e.stdout, t, c, o.groups)
	}
	return exitOK
}

// topoSource returns the JSON of a preset of kind k named arg, or else of
// the file arg. isFile reports which one it was.
func topoSource(ps *presets.Set, k presets.Kind, arg string) (data []byte, isFile bool, err error) {
	if p, ok := ps.Get(k, arg); ok {
		return p.Body, false, nil
	}
	data, err = readFileLimited(arg, scenario.MaxDocumentSize)
	if err == nil {
		return data, true, nil
	}
	if !strings.HasSuffix(arg, ".json") && !strings.ContainsAny(arg, `/\`) {
		return nil, false, fmt.Errorf("%s: unknown preset %q (known: %s)", k, arg, strings.Join(ps.Names(k), ", "))
	}
	return nil, true, fmt.Errorf("%s: %v", k, err)
}

// topoLoadMachine resolves MACHINE: a preset name, or a JSON file holding a
// bare machine object or {"machine": {...}} (a preset file also works).
func topoLoadMachine(ps *presets.Set, arg string) (topo.Machine, string, error) {
	var m topo.Machine
	data, isFile, err := topoSource(ps, presets.Machine, arg)
	if err != nil {
		return m, "", err
	}
	if isFile && topoIsScenario(data) {
		// A whole scenario (as `schedplay import` writes): its machine,
		// presets expanded and defaults filled.
		sc, err := scenario.Decode(data)
		if err != nil {
			return m, "", fmt.Errorf("%s: %v", arg, err)
		}
		r, err := scenario.Resolve(sc, ps)
		if err != nil {
			return m, "", fmt.Errorf("%s: %v", arg, err)
		}
		return r.Machine, arg, nil
	}
	if isFile {
		if data, err = topoUnwrap(data, "machine"); err != nil {
			return m, "", fmt.Errorf("%s: %v", arg, err)
		}
	}
	if err := topoDecodeStrict(data, &m); err != nil {
		return m, "", fmt.Errorf("%s: machine: %v", arg, err)
	}
	return m, arg, nil
}

// topoIsScenario reports a JSON object with the scenario's "schedplay"
// version key.
func topoIsScenario(data []byte) bool {
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return false
	}
	_, ok := top["schedplay"]
	return ok
}

// topoLoadPolicy resolves --policy: a preset name or a JSON file (a bare
// policy object or {"policy": {...}}), decoded strictly as scenario.Policy.
func topoLoadPolicy(ps *presets.Set, arg string) (scenario.Policy, string, error) {
	var p scenario.Policy
	data, isFile, err := topoSource(ps, presets.Policy, arg)
	if err != nil {
		return p, "", err
	}
	if isFile {
		if data, err = topoUnwrap(data, "policy"); err != nil {
			return p, "", fmt.Errorf("%s: %v", arg, err)
		}
	}
	if err := topoDecodeStrict(data, &p); err != nil {
		return p, "", fmt.Errorf("%s: policy: %v", arg, err)
	}
	return p, arg, nil
}

// topoUnwrap returns the object under key when data is {"key": {...}, …}
// (a preset file's "description" may sit beside it), else data itself.
func topoUnwrap(data []byte, key string) ([]byte, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, topoJSONError(data, err)
	}
	if _, err := scenario.ParseJSON(data); err != nil {
		return nil, err // duplicate keys, bad UTF-8, too deep
	}
	inner, ok := top[key]
	if !ok {
		return data, nil
	}
	for k := range top {
		if k != key && k != "description" {
			return nil, fmt.Errorf("unknown field %q beside %q", k, key)
		}
	}
	return inner, nil
}

// topoDecodeStrict decodes one JSON object into out, rejecting unknown
// fields and trailing data.
func topoDecodeStrict(data []byte, out any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(out); err != nil {
		return topoJSONError(data, err)
	}
	if dec.More() {
		return errors.New("trailing data after the JSON object")
	}
	return nil
}

// topoJSONError rewrites encoding/json errors to name the field or position.
func topoJSONError(data []byte, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		line := 1 + bytes.Count(data[:min(int(se.Offset), len(data))], []byte("\n"))
		return fmt.Errorf("malformed JSON at line %d (byte %d): %v", line, se.Offset, se)
	case errors.As(err, &te) && te.Field != "":
		return fmt.Errorf("%s: %s is not allowed here; want %s", te.Field, te.Value, te.Type)
	case errors.Is(err, io.EOF):
		return errors.New("empty input; want a JSON object")
	}
	return errors.New(strings.TrimPrefix(err.Error(), "json: "))
}
