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
		{"validate", "check a scenario and print every error with its field path", cmdValidate},
		{"share", "print the share link of a scenario", cmdShare},
		{"serve", "serve the playground and the API", cmdServe},
	}
}

func main() {
	os.Exit(mainWith(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func mainWith(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stderr)
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	ps, err := presets.Load()
	if err != nil {
		fmt.Fprintf(stderr, "schedplay: %v\n", err)
		return exitFailed
	}
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr, presets: ps}
	for _, v := range verbs() {
		if v.name == args[0] {
			return v.run(e, args[1:])
		}
	}
	fmt.Fprintf(stderr, "schedplay: unknown verb %q\n\n", args[0])
	usage(stderr)
	return exitUsage
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: schedplay VERB [arguments]\n\nverbs:")
	vs := verbs()
	for _, v := range vs {
		fmt.Fprintf(w, "  %-9s %s\n", v.name, v.summary)
	}
	fmt.Fprintln(w, "\nRun 'schedplay VERB -h' for a verb's flags.")
}
