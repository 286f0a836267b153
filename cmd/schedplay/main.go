// Command schedplay is the command-line face of the schedplay simulator:
// list presets, print sched-domain hierarchies, run and compare scenarios,
// validate and share them, and serve the browser playground.
//
// Exit codes: 0 success; 1 the run failed (engine or I/O error); 2 usage
// error (unknown verb or flag); 3 the scenario or machine is invalid (the
// message names the field).
package main

import (
	"fmt"
	"io"
	"os"

	"schedplay/presets"
)

// Exit codes scripts can rely on.
const (
	exitOK      = 0
	exitFailed  = 1
	exitUsage   = 2
	exitInvalid = 3
)

// env is what a verb may touch: its streams and the loaded presets.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	presets        *presets.Set
}

// verb is one subcommand.
type verb struct {
	name    string
	summary string
	run     func(e *env, args []string) int
}

func verbs() []verb {
	return []verb{
		{"presets", "list every preset by kind with a one-line description", cmdPresets},
		{"topo", "print the sched-domain hierarchy of a machine under a policy", cmdTopo},
		{"run", "simulate a scenario and print its metrics", cmdRun},
		{"compare", "run two policies over the same seeds and print the mailing-list table", cmdCompare},
		{"fidelity", "run every published figure the project knows and print published vs model", cmdFidelity},
		{"sweep", "run a grid of points × policies × repetitions on every core or on remote backends", cmdSweep},
		{"validate", "check a scenario and print every error with its field path", cmdValidate},
		{"share", "print the share link of a scenario", cmdShare},
		{"import", "turn a machine description, an rt-app use case or a trace into a scenario", cmdImport},
		{"collect", "print the shell script that snapshots a machine for import", cmdCollect},
		{"serve", "serve the playground and the API", cmdServe},
	}
}

func main() {
	// On a terminal, control characters in the output (a scenario's
	// names are anyone's text) are printed escaped (terminal.go).
	os.Exit(mainWith(os.Args[1:], os.Stdin, onTerminal(os.Stdout), onTerminal(os.Stderr)))
}

func mainWith(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	if args[0] == "-h" || args[0] == "--help" || args[0] == "-help" || args[0] == "help" && len(args) == 1 {
		usage(stdout) // asked for: the list goes to stdout
		return exitOK
	}
	ps, err := presets.Load()
	if err != nil {
		fmt.Fprintf(stderr, "schedplay: %v\n", err)
		return exitFailed
	}
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr, presets: ps}
	if args[0] == "help" {
		return cmdHelp(e, args[1:])
	}
	if v, ok := lookupVerb(args[0]); ok {
		return v.run(e, args[1:])
	}
	fmt.Fprintf(stderr, "schedplay: unknown verb %q\n\n", args[0])
	usage(stderr)
	return exitUsage
}

func lookupVerb(name string) (verb, bool) {
	for _, v := range verbs() {
		if v.name == name {
			return v, true
		}
	}
	return verb{}, false
}

// cmdHelp is `schedplay help VERB`: the verb's usage and flags, on stdout
// (it was asked for), exit 0.
func cmdHelp(e *env, args []string) int {
	if len(args) > 1 {
		fmt.Fprintf(e.stderr, "schedplay help: unexpected argument %q; write schedplay help VERB\n", args[1])
		return exitUsage
	}
	if args[0] == "help" {
		usage(e.stdout)
		return exitOK
	}
	v, ok := lookupVerb(args[0])
	if !ok {
		fmt.Fprintf(e.stderr, "schedplay help: unknown verb %q\n\n", args[0])
		usage(e.stderr)
		return exitUsage
	}
	return v.run(e, []string{"-h"}) // help asked for goes to stdout
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: schedplay VERB [arguments]\n\nverbs:")
	vs := verbs()
	for _, v := range vs {
		fmt.Fprintf(w, "  %-9s %s\n", v.name, v.summary)
	}
	fmt.Fprintln(w, "\nRun 'schedplay help VERB' (or 'schedplay VERB -h') for a verb's flags.")
}
