package importer

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"path"
	"strings"
	"unicode/utf8"

	"schedplay/engine/importer/domains"
	"schedplay/engine/importer/hw"
	"schedplay/engine/importer/hwloc"
	"schedplay/engine/importer/input"
	"schedplay/engine/importer/lscpu"
	"schedplay/engine/importer/sysfs"
	"schedplay/engine/importer/trace"
	"schedplay/engine/importer/tree"
	"schedplay/engine/scenario"
	"schedplay/engine/topo"
	"schedplay/presets"
)

// Format names what an input was recognised as.
type Format string

// The formats Import reads.
const (
	FormatSysfs   Format = "sysfs snapshot"
	FormatHwloc   Format = "hwloc XML"
	FormatDomains Format = "sched domains dump"
	FormatRTApp   Format = "rt-app JSON"
	FormatFtrace  Format = "ftrace text"
	FormatChrome  Format = "Chrome JSON trace"
)

// Options steer an import.
type Options struct {
	// Presets resolve and validate the scenario written (required).
	Presets *presets.Set
	// Strict refuses a malformed trace line instead of skipping it.
	Strict bool
	// Machine is the machine section a workload import runs on (a JSON
	// object, e.g. {"preset": "vera"}); empty derives one from the input.
	Machine json.RawMessage
	// Policy is the policy section of the check of a domains dump and of
	// the scenario written; empty is the kernel default ("mainline").
	Policy json.RawMessage
	// Domains, when set, is the kernel's sched domains to compare the
	// imported machine with (it replaces a dump found in a snapshot).
	Domains *domains.Dump
}

// Result is a finished import.
type Result struct {
	Format Format
	// Scenario is the scenario document (canonical JSON); it validates.
	Scenario []byte
	// Notes announce the defaults taken and what was left out.
	Notes []string
	// Summary is one line saying what was imported.
	Summary string
	// Check compares the kernel's sched domains with schedplay's when
	// the input holds them (a domains dump, or a snapshot with one).
	Check *domains.Diff
	// Replay and Trace are a trace import's workload summary and the
	// trace's own per-task totals (nil for other formats).
	Replay *trace.Replay
	Trace  *trace.Trace
}

// sniffBytes is how much of an input detection looks at.
const sniffBytes = 4096

// Import reads one file (its name is used in messages and for the
// scenario's name) and returns the scenario it describes.
func Import(name string, r io.Reader, opt Options) (*Result, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	head, _ := br.Peek(sniffBytes)
	if len(head) == 0 {
		return nil, input.Errorf(name, 0, "empty input")
	}
	if c, _ := tree.Sniff(head); c == tree.GzipTar {
		// A gzip file is a tarball of a snapshot, or a compressed text.
		z, err := gzip.NewReader(br)
		if err != nil {
			return nil, input.Errorf(name, 0, "not a readable gzip file: %v", err)
		}
		zr := bufio.NewReaderSize(z, 64<<10)
		inner, _ := zr.Peek(sniffBytes)
		if k, _ := tree.Sniff(inner); k != tree.PlainTar {
			return Import(strings.TrimSuffix(name, ".gz"), zr, opt)
		}
		return importArchive(name, zr, opt)
	}
	if c, other := tree.Sniff(head); c != tree.NotArchive {
		return importArchive(name, br, opt)
	} else if other != "" {
		return nil, input.Errorf(name, 0, "an %s-compressed file: schedplay reads gzip and bzip2; recompress it with gzip", other)
	}
	switch {
	case hwloc.Detect(head):
		data, err := input.ReadAll(name, br, input.MaxFileBytes)
		if err != nil {
			return nil, err
		}
		t, err := hwloc.Read(data, name)
		if err != nil {
			return nil, err
		}
		return machineResult(name, FormatHwloc, t, nil, opt)
	case domains.Detect(head):
		data, err := input.ReadAll(name, br, input.MaxFileBytes)
		if err != nil {
			return nil, err
		}
		return importDomains(name, data, opt)
	}
	if f := lscpu.Detect(head); f != "" {
		data, err := input.ReadAll(name, br, input.MaxFileBytes)
		if err != nil {
			return nil, err
		}
		t, err := lscpu.Read(f, data, name)
		if err != nil {
			return nil, err
		}
		return machineResult(name, Format(f), t, nil, opt)
	}
	if w, ok := workloadFormat(head); ok {
		return importWorkload(name, w, br, opt)
	}
	if isCPUInfo(head) {
		return nil, input.Errorf(name, 0, "this is /proc/cpuinfo, which does not say which CPUs share a cache or a node: on the machine, import the output of `lscpu -p` or `lscpu --json`, or a snapshot from `schedplay collect`")
	}
	return nil, input.Errorf(name, 0, "not a format schedplay imports (%s)", Formats())
}

// isCPUInfo recognises /proc/cpuinfo by its first key: "processor" on
// x86, arm64, POWER and RISC-V ("Processor" on old 32-bit Arm kernels).
func isCPUInfo(head []byte) bool {
	s := strings.TrimLeft(string(head), " \t\r\n")
	k, _, ok := strings.Cut(s, ":")
	k = strings.TrimSpace(k)
	return ok && (k == "processor" || k == "Processor")
}

// Formats lists what Import reads, for messages.
func Formats() string {
	return "a sysfs snapshot directory or tarball, lscpu -p/-e/--json output, hwloc XML, a sched domains dump, rt-app JSON, ftrace text or perf script output, a systrace page, a Chrome JSON trace"
}

// importArchive reads a tarball of a sysfs snapshot.
func importArchive(name string, r io.Reader, opt Options) (*Result, error) {
	m, err := tree.ReadArchive(name, r, sysfs.Keep)
	if err != nil {
		return nil, err
	}
	return ImportTree(name, m, opt)
}

// ImportTree reads a sysfs snapshot held in t (a directory on disk, or an
// archive's files).
func ImportTree(name string, t tree.Tree, opt Options) (*Result, error) {
	root, ok := sysfs.Root(t)
	if !ok {
		return nil, input.Errorf(name, 0, "no sys/devices/system/cpu in it: not a sysfs snapshot (make one with `schedplay collect`)")
	}
	top, err := sysfs.Read(t, root, name)
	if err != nil {
		return nil, err
	}
	dump, err := domains.ReadTree(t, root, name)
	if err != nil {
		return nil, err
	}
	return machineResult(name, FormatSysfs, top, dump, opt)
}

// importDomains reads a domains dump: the machine comes from its spans,
// and the dump is compared with what schedplay builds.
func importDomains(name string, data []byte, opt Options) (*Result, error) {
	dump, err := domains.Read(data, name)
	if err != nil {
		return nil, err
	}
	t, err := dump.Topology()
	if err != nil {
		return nil, input.Errorf(name, 0, "%v", err)
	}
	if opt.Domains == nil {
		opt.Domains = dump
	}
	return machineResult(name, FormatDomains, t, dump, opt)
}

// machineResult maps a topology to a machine and writes the scenario.
func machineResult(name string, f Format, t *hw.Topology, dump *domains.Dump, opt Options) (*Result, error) {
	mp, err := hw.Map(t)
	if err != nil {
		return nil, input.Errorf(name, 0, "%v", err)
	}
	mj, err := machineJSON(mp.Machine)
	if err != nil {
		return nil, err
	}
	title := "imported " + path.Base(name)
	if t.Model != "" {
		title = fmt.Sprintf("imported %s (%s)", t.Model, path.Base(name))
	}
	doc := map[string]any{
		"schedplay": scenario.Version,
		"name":      cutName(title),
		"machine":   mj,
		"workload":  map[string]any{"preset": "idle"},
	}
	if len(opt.Policy) > 0 {
		doc["policy"] = opt.Policy
	}
	res := &Result{Format: f, Notes: mp.Notes, Summary: fmt.Sprintf("%s: %s", f, mp.Summary)}
	if opt.Domains != nil {
		dump = opt.Domains
	}
	r, err := finish(name, doc, opt, res)
	if err != nil {
		return nil, err
	}
	if dump != nil && dump.HasLevels() {
		tp, err := topo.Build(r.Machine, r.Policy.DomainPolicy)
		if err != nil {
			return nil, input.Errorf(name, 0, "%v", err)
		}
		res.Check = domains.Compare(dump, tp, mp.IDs)
	}
	return res, nil
}

// finish encodes doc, checks that it resolves, and stores it in res.
func finish(name string, doc map[string]any, opt Options, res *Result) (*scenario.Resolved, error) {
	raw, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	sc, err := scenario.Decode(raw)
	if err != nil {
		return nil, input.Errorf(name, 0, "the scenario written does not decode: %v", err)
	}
	r, err := scenario.Resolve(sc, opt.Presets)
	if err != nil {
		return nil, input.Errorf(name, 0, "the scenario written is not valid: %v", err)
	}
	res.Scenario = sc.Canonical()
	return r, nil
}

// machineJSON is m as a machine section, without the fields the importer
// never sets (the latency model, a zero SMT qualification time), so the
// scenario's defaults apply to them.
func machineJSON(m topo.Machine) (map[string]any, error) {
	raw, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	var out map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&out); err != nil {
		return nil, err
	}
	delete(out, "latency")
	if smt, ok := out["smt"].(map[string]any); ok {
		if smt["qual"] == "0s" {
			delete(smt, "qual")
		}
	}
	return out, nil
}

// cutName keeps a scenario name within scenario.MaxNameLength bytes.
func cutName(s string) string {
	if len(s) <= scenario.MaxNameLength {
		return s
	}
	s = s[:scenario.MaxNameLength-len("…")]
	for !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s + "…"
}
