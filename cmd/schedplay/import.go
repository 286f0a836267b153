package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"schedplay/engine/importer"
	"schedplay/engine/importer/domains"
	"schedplay/engine/importer/input"
	"schedplay/engine/importer/tree"
	"schedplay/presets"
)

// importOptions are the flags of `schedplay import`.
type importOptions struct {
	strict          bool
	machine, policy string
	check           string
	out             string
}

// cmdImport turns a machine description, an rt-app use case or a trace
// into a scenario: the document on stdout (or --out), the notes on
// stderr.
func cmdImport(e *env, args []string) int {
	fs := newFlagSet(e, "import", "PATH [--machine M] [--policy P] [--check DOMAINS] [--strict] [--out FILE]\n\n"+
		"PATH is a sysfs snapshot (a directory or a .tar.gz/.tar.bz2 of one, as `schedplay collect` makes),\n"+
		"lscpu output (-p, -e, --json, or the summary), hwloc XML, a dump of the kernel's sched domains,\n"+
		"rt-app JSON, ftrace text (trace-cmd report, a systrace page), perf script output of perf sched record\n"+
		"or a Chrome JSON trace; - reads standard input.\n"+
		"The scenario goes to standard output; every default taken is announced on standard error.\n"+
		"M and P are preset names or JSON files (a section, {\"machine\": …}, or a whole scenario).")
	var o importOptions
	fs.BoolVar(&o.strict, "strict", false, "refuse a malformed trace line instead of skipping it")
	fs.StringVar(&o.machine, "machine", "", "the machine a workload import runs on (default: derived from the input)")
	fs.StringVar(&o.policy, "policy", "", "the policy of the scenario and of the domains check (default: the kernel's)")
	fs.StringVar(&o.check, "check", "", "a dump of the kernel's sched domains to compare with the machine imported")
	fs.StringVar(&o.out, "out", "", "write the scenario to this file instead of standard output")
	pos, err := parseInterspersed(e, fs, args)
	if err != nil {
		return flagExit(err)
	}
	if !wantArgs(e, fs, pos, "PATH") {
		return exitUsage
	}
	opt := importer.Options{Presets: e.presets, Strict: o.strict}
	if opt.Machine, err = sectionArg(e.presets, presets.Machine, "machine", o.machine); err != nil {
		fmt.Fprintf(e.stderr, "schedplay import: --machine: %v\n", err)
		return exitInvalid
	}
	if opt.Policy, err = sectionArg(e.presets, presets.Policy, "policy", o.policy); err != nil {
		fmt.Fprintf(e.stderr, "schedplay import: --policy: %v\n", err)
		return exitInvalid
	}
	if o.check != "" {
		data, err := readLimited(o.check)
		if err == nil {
			opt.Domains, err = domains.Read(data, o.check)
		}
		if err != nil {
			fmt.Fprintf(e.stderr, "schedplay import: --check: %v\n", err)
			return exitInvalid
		}
	}
	res, err := runImport(e, pos[0], opt)
	if err != nil {
		fmt.Fprintf(e.stderr, "schedplay import: %v\n", err)
		var ie *input.Error
		if errors.As(err, &ie) {
			return exitInvalid
		}
		return exitFailed
	}
	return writeImport(e, res, o.out)
}

// runImport reads PATH: a directory, standard input or a file.
func runImport(e *env, path string, opt importer.Options) (*importer.Result, error) {
	if path == "-" {
		return importer.Import("stdin", e.stdin, opt)
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return importer.ImportTree(path, tree.Dir(path), opt)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return importer.Import(path, f, opt)
}

// writeImport prints the notes and the domains check on stderr and the
// scenario (indented) on stdout or into out.
func writeImport(e *env, res *importer.Result, out string) int {
	fmt.Fprintf(e.stderr, "schedplay import: %s\n", res.Summary)
	for _, n := range res.Notes {
		fmt.Fprintf(e.stderr, "schedplay import: note: %s\n", n)
	}
	if res.Check != nil {
		fmt.Fprint(e.stderr, res.Check.Text())
	}
	var doc bytes.Buffer
	if err := json.Indent(&doc, res.Scenario, "", "  "); err != nil {
		fmt.Fprintf(e.stderr, "schedplay import: %v\n", err)
		return exitFailed
	}
	doc.WriteByte('\n')
	if out == "" {
		_, err := e.stdout.Write(doc.Bytes())
		return exitCode(err)
	}
	if err := os.WriteFile(out, doc.Bytes(), 0o644); err != nil {
		fmt.Fprintf(e.stderr, "schedplay import: %v\n", err)
		return exitFailed
	}
	return exitOK
}

func exitCode(err error) int {
	if err != nil {
		return exitFailed
	}
	return exitOK
}

// sectionArg turns --machine / --policy into a section object: a preset
// name becomes {"preset": NAME}; a file holds the section, {"KEY": …} or
// a whole scenario (its section is taken).
func sectionArg(ps *presets.Set, k presets.Kind, key, arg string) (json.RawMessage, error) {
	if arg == "" {
		return nil, nil
	}
	if _, ok := ps.Get(k, arg); ok {
		return json.Marshal(map[string]string{"preset": arg})
	}
	data, err := readLimited(arg)
	if err != nil {
		if !strings.ContainsAny(arg, `/\.`) {
			return nil, fmt.Errorf("unknown %s preset %q (known: %s)", k, arg, strings.Join(ps.Names(k), ", "))
		}
		return nil, err
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, fmt.Errorf("%s: %v", arg, err)
	}
	if inner, ok := top[key]; ok {
		return inner, nil
	}
	return data, nil
}

// readLimited reads a small input file (a section, a domains dump).
func readLimited(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return input.ReadAll(path, io.Reader(f), input.MaxFileBytes)
}
