package main

import (
	"fmt"
	"os"

	"schedplay/engine/importer/collect"
)

// cmdCollect prints (or writes) the POSIX shell script that snapshots a
// machine for `schedplay import`.
func cmdCollect(e *env, args []string) int {
	fs := newFlagSet(e, "collect", "[--out FILE]\n\n"+
		"Prints a POSIX shell script with no dependencies. Run it on the machine to import\n"+
		"(as root to include the kernel's sched domains): it writes one tarball of exactly\n"+
		"the files schedplay import reads. Then: schedplay import schedplay-HOST.tar.gz")
	out := fs.String("out", "", "write the script to this file (executable) instead of standard output")
	pos, err := parseInterspersed(e, fs, args)
	if err != nil {
		return flagExit(err)
	}
	if !wantArgs(e, fs, pos) {
		return exitUsage
	}
	if *out == "" {
		_, err := fmt.Fprint(e.stdout, collect.Script())
		return exitCode(err)
	}
	if err := os.WriteFile(*out, []byte(collect.Script()), 0o755); err != nil {
		fmt.Fprintf(e.stderr, "schedplay collect: %v\n", err)
		return exitFailed
	}
	fmt.Fprintf(e.stderr, "schedplay collect: wrote %s; run it on the machine: sh %s\n", *out, *out)
	return exitOK
}
