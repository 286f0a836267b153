// Package domains reads the sched domains a running kernel built (the
// debugfs files /sys/kernel/debug/sched/domains/cpu*/domain*/{name,flags},
// or the older /proc/sys/kernel/sched_domain tree; their spans from
// /proc/schedstat or from the sched_verbose boot log), derives the
// machine they imply, and compares them, CPU by CPU and level by level,
// with the domains schedplay builds: "your kernel built these; schedplay
// builds these".
package domains

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"schedplay/engine/importer/input"
	"schedplay/engine/importer/tree"
	"schedplay/engine/topo"
)

// Level is one sched_domain of one CPU as the kernel reports it.
type Level struct {
	Name       string
	Flags      topo.SDFlags
	FlagsKnown bool
	Span       []int // Linux CPU numbers; nil when unknown
}

// Dump is every CPU's chain, bottom-up (domain0 first).
type Dump struct {
	Levels map[int][]Level
	Notes  []string
}

// HasLevels reports whether the dump names any domain.
func (d *Dump) HasLevels() bool {
	for _, ls := range d.Levels {
		if len(ls) > 0 {
			return true
		}
	}
	return false
}

// level returns cpu's domain k, growing the chain as needed.
func (d *Dump) level(cpu, k int) (*Level, error) {
	if cpu < 0 || cpu > input.MaxCPUID || k < 0 || k > 32 {
		return nil, fmt.Errorf("cpu%d/domain%d is out of range", cpu, k)
	}
	ls := d.Levels[cpu]
	for len(ls) <= k {
		ls = append(ls, Level{})
	}
	d.Levels[cpu] = ls
	return &ls[k], nil
}

var (
	pathRE    = regexp.MustCompile(`cpu(\d+)/domain(\d+)/(name|flags)$`)
	verboseRE = regexp.MustCompile(`domain-(\d+): span=(\S+) level=(\S+)`)
	attachRE  = regexp.MustCompile(`CPU(\d+) attaching sched-domain`)
	cpuLineRE = regexp.MustCompile(`^cpu(\d+) `)
	domLineRE = regexp.MustCompile(`^domain(\d+) `)
)

// Detect reports whether head looks like a domains dump.
func Detect(head []byte) bool {
	s := string(head)
	return pathRE.MatchString(firstMatchLine(s)) || strings.Contains(s, "attaching sched-domain") ||
		strings.HasPrefix(s, "version ") && strings.Contains(s, "\ndomain0 ")
}

func firstMatchLine(s string) string {
	for _, l := range strings.SplitN(s, "\n", 8) {
		p, _, _ := strings.Cut(strings.Trim(l, "=<> "), ":")
		if pathRE.MatchString(strings.TrimSpace(p)) {
			return strings.TrimSpace(p)
		}
	}
	return ""
}

// Read parses a text dump: `grep . …/cpu*/domain*/{name,flags}` lines
// ("PATH:VALUE"), `head` output ("==> PATH <==" then the value),
// /proc/schedstat, and sched_verbose boot-log lines, in any mix.
func Read(data []byte, file string) (*Dump, error) {
	d := &Dump{Levels: map[int][]Level{}}
	l := input.NewLines(file, bytes.NewReader(data))
	pending := "" // a "==> PATH <==" waiting for its value
	cpu := -1     // the cpu of the schedstat or sched_verbose block being read
	for l.Next() {
		line := strings.TrimSpace(string(l.Text()))
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "==>") && strings.HasSuffix(line, "<==") {
			pending = strings.TrimSpace(strings.Trim(line, "=<>"))
			continue
		}
		if pending != "" {
			if err := d.setFile(pending, line); err != nil {
				return nil, l.Errorf("%v", err)
			}
			pending = ""
			continue
		}
		if p, v, ok := strings.Cut(line, ":"); ok && pathRE.MatchString(strings.TrimSpace(p)) {
			if err := d.setFile(strings.TrimSpace(p), strings.TrimSpace(v)); err != nil {
				return nil, l.Errorf("%v", err)
			}
			continue
		}
		if m := attachRE.FindStringSubmatch(line); m != nil {
			cpu, _ = strconv.Atoi(m[1])
			continue
		}
		if m := verboseRE.FindStringSubmatch(line); m != nil && cpu >= 0 {
			k, _ := strconv.Atoi(m[1])
			if err := d.setVerbose(cpu, k, m[2], m[3]); err != nil {
				return nil, l.Errorf("%v", err)
			}
			continue
		}
		if m := cpuLineRE.FindStringSubmatch(line); m != nil {
			cpu, _ = strconv.Atoi(m[1])
			continue
		}
		if m := domLineRE.FindStringSubmatch(line); m != nil && cpu >= 0 {
			if err := d.setSchedstat(cpu, line); err != nil {
				return nil, l.Errorf("%v", err)
			}
		}
	}
	if err := l.Err(); err != nil {
		return nil, err
	}
	if !d.HasLevels() {
		return nil, input.Errorf(file, 0, "no sched domain in it")
	}
	return d, nil
}

// setFile stores the value of a name or flags file.
func (d *Dump) setFile(path, v string) error {
	m := pathRE.FindStringSubmatch(path)
	cpu, _ := strconv.Atoi(m[1])
	k, _ := strconv.Atoi(m[2])
	lv, err := d.level(cpu, k)
	if err != nil {
		return err
	}
	if m[3] == "name" {
		lv.Name = strings.TrimSpace(v)
		return nil
	}
	f, known, err := parseFlags(v)
	if err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	lv.Flags, lv.FlagsKnown = f, known
	if !known && !slices.Contains(d.Notes, numericNote) {
		d.Notes = append(d.Notes, numericNote)
	}
	return nil
}

const numericNote = "the flags are numbers (a kernel before 5.10, whose bit values differ): flags left out of the comparison"

// setVerbose stores a sched_verbose "domain-K: span=S level=NAME" line.
func (d *Dump) setVerbose(cpu, k int, span, name string) error {
	lv, err := d.level(cpu, k)
	if err != nil {
		return err
	}
	s, err := input.CPUList(span)
	if err != nil {
		return fmt.Errorf("span %q: %v", span, err)
	}
	lv.Name, lv.Span = name, s
	return nil
}

// setSchedstat stores a /proc/schedstat "domainK [NAME] MASK …" line's span
// (the name appears from schedstat version 17).
func (d *Dump) setSchedstat(cpu int, line string) error {
	f := strings.Fields(line)
	k, _ := strconv.Atoi(strings.TrimPrefix(f[0], "domain"))
	if len(f) < 2 {
		return fmt.Errorf("a domain line without a CPU mask")
	}
	maskAt := 1
	if _, err := input.CPUMask(f[1]); err != nil && len(f) > 2 {
		maskAt = 2
	}
	span, err := input.CPUMask(f[maskAt])
	if err != nil {
		return fmt.Errorf("domain%d mask: %v", k, err)
	}
	lv, err := d.level(cpu, k)
	if err != nil {
		return err
	}
	lv.Span = span
	if maskAt == 2 && lv.Name == "" {
		lv.Name = f[1]
	}
	return nil
}

// flagBits maps a flag's kernel name to its bit.
var flagBits = func() map[string]topo.SDFlags {
	m := map[string]topo.SDFlags{}
	for i := 0; i < 32; i++ {
		f := topo.SDFlags(1) << i
		if n := f.String(); n != "" {
			m[n] = f
		}
	}
	return m
}()

// parseFlags reads a flags file: names separated by spaces (or "|");
// known is false for a number (kernels before 5.10).
func parseFlags(v string) (f topo.SDFlags, known bool, err error) {
	v = strings.TrimSpace(v)
	if _, e := strconv.ParseUint(v, 0, 64); e == nil {
		return 0, false, nil
	}
	for _, n := range strings.FieldsFunc(v, func(r rune) bool { return r == ' ' || r == '|' || r == ',' || r == '\t' }) {
		if !strings.HasPrefix(n, "SD_") {
			n = "SD_" + n
		}
		bit, ok := flagBits[n]
		if !ok {
			continue // a flag schedplay does not model (SD_LOAD_BALANCE before 5.10 …)
		}
		f |= bit
	}
	return f, true, nil
}

// ReadTree reads the dump parts of a snapshot below root: the debugfs
// (or older sysctl) name and flags files and /proc/schedstat. It returns
// nil when the snapshot has none.
func ReadTree(t tree.Tree, root, file string) (*Dump, error) {
	d := &Dump{Levels: map[int][]Level{}}
	for _, base := range []string{"sys/kernel/debug/sched/domains", "proc/sys/kernel/sched_domain"} {
		cpus, err := t.ReadDir(root + base)
		if err != nil {
			continue
		}
		for _, c := range cpus {
			doms, _ := t.ReadDir(root + base + "/" + c)
			for _, dm := range doms {
				for _, f := range []string{"name", "flags"} {
					p := base + "/" + c + "/" + dm + "/" + f
					b, err := t.ReadFile(root + p)
					if err != nil || !pathRE.MatchString(p) {
						continue
					}
					if err := d.setFile(p, strings.TrimSpace(string(b))); err != nil {
						return nil, input.Errorf(file, 0, "%v", err)
					}
				}
			}
		}
		break
	}
	if b, err := t.ReadFile(root + "proc/schedstat"); err == nil && d.HasLevels() {
		sd, err := Read(b, file+": proc/schedstat")
		if err == nil {
			for cpu, ls := range sd.Levels {
				for k, lv := range ls {
					if dst, err := d.level(cpu, k); err == nil && lv.Span != nil {
						dst.Span = lv.Span
					}
				}
			}
		}
	}
	if !d.HasLevels() {
		return nil, nil
	}
	return d, nil
}
