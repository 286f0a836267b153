package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"schedplay/engine/scenario"
	"schedplay/presets"
)

// Shared argument handling of the scenario verbs (run, compare, validate,
// share): SCENARIO is a preset name, a JSON file, "-" for stdin, or a share
// link; --set path=value overrides follow it.

// setFlags collects repeated --set path=value arguments.
type setFlags []scenario.Override

func (s *setFlags) String() string { return "" }

func (s *setFlags) Set(v string) error {
	o, err := scenario.ParseSet(v)
	if err != nil {
		return err
	}
	*s = append(*s, o)
	return nil
}

// multiFlag collects a repeated string flag.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

// parseInterspersed parses flags that may come before or after the
// positional arguments ("run vera-sgemm-nvpl --reps 3") and returns the
// positionals. Help asked for with -h goes to e.stdout; the usage after a
// flag error goes to e.stderr with the error.
func parseInterspersed(e *env, fs *flag.FlagSet, args []string) ([]string, error) {
	usage := fs.Usage
	fs.Usage = func() {} // printed below, once the stream is known
	defer func() { fs.Usage = usage }()
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fs.SetOutput(e.stdout)
				defer fs.SetOutput(e.stderr)
			}
			usage()
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "-" || !strings.HasPrefix(args[0], "-") {
			pos = append(pos, args[0])
			args = args[1:]
			continue
		}
		pos = append(pos, args...) // after "--"
		return pos, nil
	}
}

// newFlagSet returns a flag set that prints its usage to its output,
// e.stderr unless parseInterspersed prints help asked for.
func newFlagSet(e *env, name, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: schedplay %s %s\n\nflags:\n", name, usage)
		fs.PrintDefaults()
	}
	return fs
}

// flagExit maps a flag parsing error to an exit code (-h is success).
func flagExit(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	return exitUsage
}

// loadScenario reads SCENARIO.
func loadScenario(e *env, arg string) (*scenario.Scenario, error) {
	switch {
	case arg == "-":
		data, err := io.ReadAll(io.LimitReader(e.stdin, scenario.MaxDocumentSize+1))
		if err != nil {
			return nil, fmt.Errorf("reading stdin: %w", err)
		}
		if t := strings.TrimSpace(string(data)); t != "" && t[0] != '{' && !strings.ContainsAny(t, "\n{") {
			return scenario.FromReference(t, e.presets) // a link or preset name piped in
		}
		return scenario.Decode(data)
	case strings.Contains(arg, "://") || strings.HasPrefix(arg, "#") || strings.HasPrefix(arg, "s=") || strings.HasPrefix(arg, "?preset="):
		return scenario.FromReference(arg, e.presets)
	}
	if st, err := os.Stat(arg); err == nil && !st.IsDir() {
		data, err := readFileLimited(arg, scenario.MaxDocumentSize)
		if errors.Is(err, errTooLarge) {
			return nil, scenario.ErrorList{{Msg: err.Error()}}
		}
		if err != nil {
			return nil, err
		}
		s, err := scenario.Decode(data)
		if err != nil {
			return nil, prefixFile(arg, err)
		}
		return s, nil
	}
	if strings.HasSuffix(arg, ".json") {
		return nil, fmt.Errorf("%s: no such file", arg)
	}
	return scenario.FromReference(arg, e.presets)
}

func prefixFile(name string, err error) error {
	l := scenario.Errors(err)
	for _, x := range l {
		if x.Path == "" {
			x.Msg = name + ": " + x.Msg
		}
	}
	return l
}

// resolveArg loads SCENARIO, applies overrides and resolves it. The exit
// code is exitInvalid for scenario errors (printed with their paths) and
// exitFailed for I/O errors.
func resolveArg(e *env, verb, arg, variant string, sets []scenario.Override) (*scenario.Scenario, *scenario.Resolved, int) {
	doc, err := loadScenario(e, arg)
	var vs []scenario.Override
	if err == nil {
		vs, err = variantOverrides(e, doc, variant)
	}
	if err == nil {
		doc, err = scenario.Apply(doc, e.presets, append(vs, sets...))
	}
	var r *scenario.Resolved
	if err == nil {
		r, err = scenario.Resolve(doc, e.presets)
	}
	if err != nil {
		return nil, nil, reportError(e, verb, err)
	}
	return doc, r, exitOK
}

// reportError prints err; scenario errors one per line with their paths.
func reportError(e *env, verb string, err error) int {
	var l scenario.ErrorList
	var one *scenario.Error
	if !errors.As(err, &l) && !errors.As(err, &one) {
		fmt.Fprintf(e.stderr, "schedplay %s: %v\n", verb, err)
		return exitFailed
	}
	for _, x := range scenario.Errors(err) {
		fmt.Fprintf(e.stderr, "schedplay %s: %s\n", verb, x.Error())
	}
	return exitInvalid
}

// runOverrides adds --reps and --seed, when given, to the --set list.
func runOverrides(sets setFlags, reps repsFlag, seed seedFlag) []scenario.Override {
	out := append([]scenario.Override(nil), sets...)
	if reps.n != 0 {
		out = append(out, scenario.Override{Path: "run.reps", Value: []byte(strconv.Itoa(reps.n))})
	}
	if seed.set {
		out = append(out, scenario.Override{Path: "run.seed", Value: []byte(strconv.FormatUint(seed.v, 10))})
	}
	return out
}

// presetOf returns the seed scenario preset a document starts from.
func presetOf(e *env, doc *scenario.Scenario) (presets.Preset, bool) {
	if doc == nil || doc.Preset == "" {
		return presets.Preset{}, false
	}
	return e.presets.Get(presets.Scenario, doc.Preset)
}

// variantOverrides returns the overrides of the named variant of the seed
// scenario doc starts from.
func variantOverrides(e *env, doc *scenario.Scenario, name string) ([]scenario.Override, error) {
	if name == "" {
		return nil, nil
	}
	p, ok := presetOf(e, doc)
	if !ok {
		return nil, scenario.ErrorList{{Path: "variant", Msg: "--variant needs a seed scenario preset (e.g. vera-thread-scaling)"}}
	}
	var names []string
	for _, v := range p.Variants {
		if v.Name == name {
			return v.Set, nil
		}
		names = append(names, fmt.Sprintf("%q", v.Name))
	}
	if len(names) == 0 {
		return nil, scenario.ErrorList{{Path: "variant", Msg: fmt.Sprintf("scenario %s has no variants", p.Name)}}
	}
	return nil, scenario.ErrorList{{Path: "variant", Msg: fmt.Sprintf("scenario %s has no variant %q; it has %s", p.Name, name, strings.Join(names, ", "))}}
}
