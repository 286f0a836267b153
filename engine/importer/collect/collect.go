// Package collect writes the shell script `schedplay collect` prints: run
// on any Linux machine (POSIX sh, cat, mkdir, tar with gzip; nothing to
// install), it makes one tarball of exactly the files `schedplay import`
// reads (sysfs.Files), so importing a machine is one command there and
// one paste here.
package collect

import (
	"fmt"
	"strings"

	"schedplay/engine/importer/sysfs"
)

// Script returns the collect script. SCHEDPLAY_ROOT, when set in its
// environment, is prefixed to every path (the tests run it on a dump).
func Script() string {
	var b strings.Builder
	b.WriteString(`#!/bin/sh
# schedplay collect: snapshot this machine's CPU topology for
# ` + "`schedplay import`" + ` (and the kernel's sched domains, when run as root).
# It reads only the files listed below and writes one tarball:
#   sh collect.sh [OUT.tar.gz]
# Needs nothing but a POSIX shell, cat, mkdir, rm and tar with gzip.
set -u
root=${SCHEDPLAY_ROOT:-}
host=$(uname -n 2>/dev/null || echo machine)
out=${1:-schedplay-$host.tar.gz}
tmp=${TMPDIR:-/tmp}/schedplay-collect.$$
rm -rf "$tmp" && mkdir -p "$tmp/snapshot" || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
n=0
# copy FILE...: each readable file, under its path below /.
copy() {
	for f in "$@"; do
		[ -f "$f" ] && [ -r "$f" ] || continue
		rel=${f#"$root"}
		mkdir -p "$tmp/snapshot${rel%/*}" &&
			cat "$f" > "$tmp/snapshot$rel" 2>/dev/null && n=$((n + 1))
	done
}
`)
	for _, f := range sysfs.Files {
		if strings.HasPrefix(f, "sys/kernel/debug/") {
			continue
		}
		fmt.Fprintf(&b, "copy \"$root\"/%s\n", f)
	}
	b.WriteString(`d="$root"/sys/kernel/debug/sched/domains
if [ -d "$d" ]; then
`)
	for _, f := range sysfs.Files {
		if strings.HasPrefix(f, "sys/kernel/debug/") {
			fmt.Fprintf(&b, "\tcopy \"$root\"/%s\n", f)
		}
	}
	b.WriteString(`elif [ -e "$root"/sys/kernel/debug/sched/verbose ]; then
	echo "schedplay collect: no $d: the kernel lists its sched domains there only while sched_verbose is on; to include them (optional), as root: echo Y > /sys/kernel/debug/sched/verbose, run this again, then echo N > /sys/kernel/debug/sched/verbose" >&2
else
	echo "schedplay collect: no $d: run as root with debugfs mounted (mount -t debugfs none /sys/kernel/debug) to include the kernel's sched domains (optional)" >&2
fi
if [ "$n" -eq 0 ]; then
	echo "schedplay collect: no CPU topology files found under $root/sys" >&2
	exit 1
fi
tar -C "$tmp" -czf "$out" snapshot || exit 1
echo "schedplay collect: wrote $out ($n files); import it with: schedplay import $out" >&2
`)
	return b.String()
}
