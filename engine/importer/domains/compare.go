package domains

import (
	"fmt"
	"slices"
	"strings"

	"schedplay/engine/importer/input"
	"schedplay/engine/topo"
)

// maxGroups bounds the CPU groups a Diff prints.
const maxGroups = 24

// Diff is the comparison of the kernel's domains with schedplay's.
type Diff struct {
	// CPUs compared, and how many match on every level (name, span, flags).
	CPUs, Matching int
	// Groups are CPUs whose comparison reads the same (spans taken
	// relative to the CPU), each with its rows, at most maxGroups.
	Groups []Group
	// More counts the groups left out.
	More  int
	Notes []string
	// Flags is false when the dump has no flags (a boot log): spans and
	// names only are compared.
	Flags bool
}

// Group is a set of CPUs and the rows of their comparison.
type Group struct {
	CPUs string // cpulist (Linux numbers)
	Rows []Row
}

// Row is one level: the kernel's and schedplay's name, span and flags
// (spans of the group's first CPU); Same is true when all three match.
type Row struct {
	Kernel, Ours *Side
	Same         bool
	// Plus and Minus are the flags schedplay sets that the kernel does
	// not, and the reverse.
	Plus, Minus []string
	SpanDiffers bool
}

// Side is one domain as printed.
type Side struct {
	Name  string
	Span  string
	Flags []string
}

// aliases maps the kernel's older or arch-specific level names onto
// schedplay's (DIE was renamed PKG in 6.7; x86 puts a NODE level where a
// package holds several nodes; s390 has BOOK and DRAWER above MC).
var aliases = map[string]string{"DIE": "PKG", "NODE": "PKG"}

// Compare compares d with tp, whose CPU i is Linux CPU ids[i].
func Compare(d *Dump, tp *topo.Topology, ids []int) *Diff {
	diff := &Diff{Notes: d.Notes}
	byKey := map[string]int{}
	var keys []string
	var members [][]int
	var rowsOf [][]Row
	flags := false
	for _, ls := range d.Levels {
		for _, l := range ls {
			flags = flags || l.FlagsKnown
		}
	}
	diff.Flags = flags
	for i := 0; i < tp.NumCPUs() && i < len(ids); i++ {
		kernel, ok := d.Levels[ids[i]]
		if !ok {
			continue // not in the dump
		}
		rows, key := compareCPU(kernel, tp.Domains[i], ids)
		diff.CPUs++
		same := true
		for _, r := range rows {
			same = same && r.Same
		}
		if same {
			diff.Matching++
		}
		k, ok := byKey[key]
		if !ok {
			k = len(keys)
			byKey[key] = k
			keys = append(keys, key)
			members = append(members, nil)
			rowsOf = append(rowsOf, rows)
		}
		members[k] = append(members[k], ids[i])
	}
	for k := range keys {
		if len(diff.Groups) == maxGroups {
			diff.More = len(keys) - maxGroups
			break
		}
		diff.Groups = append(diff.Groups, Group{CPUs: list(members[k]), Rows: rowsOf[k]})
	}
	return diff
}

// compareCPU aligns one CPU's chains by level name (the kernel's NUMA
// levels with ours in order) and returns the rows and a key that is the
// same for CPUs whose comparison reads the same.
func compareCPU(kernel []Level, ours []*topo.Domain, ids []int) ([]Row, string) {
	var rows []Row
	var key strings.Builder
	ki, oi := 0, 0
	for ki < len(kernel) || oi < len(ours) {
		var k *Level
		var o *topo.Domain
		if ki < len(kernel) {
			k = &kernel[ki]
		}
		if oi < len(ours) {
			o = ours[oi]
		}
		switch {
		case k != nil && o != nil && levelName(k.Name) == string(o.Level):
			ki++
			oi++
		case k != nil && o != nil && rank(levelName(k.Name)) < rank(string(o.Level)):
			o = nil
			ki++
		case k != nil && o != nil:
			k = nil
			oi++
		case k != nil:
			ki++
		default:
			oi++
		}
		r := row(k, o, ids)
		rows = append(rows, r)
		fmt.Fprintf(&key, "%s|%s|%v|%v|%v|%v;", sideName(r.Kernel), sideName(r.Ours), r.Same, r.SpanDiffers, r.Plus, r.Minus)
		if r.Kernel != nil {
			key.WriteString(strings.Join(r.Kernel.Flags, ","))
		}
	}
	return rows, key.String()
}

func sideName(s *Side) string {
	if s == nil {
		return "-"
	}
	return s.Name
}

// levelName is a kernel level's schedplay name.
func levelName(n string) string {
	if a, ok := aliases[n]; ok {
		return a
	}
	return n
}

// rank orders the level names bottom-up.
func rank(n string) int {
	switch n {
	case "SMT":
		return 0
	case "CLS":
		return 1
	case "MC":
		return 2
	case "PKG", "BOOK", "DRAWER":
		return 3
	case "NUMA":
		return 4
	}
	return 3
}

// row compares one level.
func row(k *Level, o *topo.Domain, ids []int) Row {
	var r Row
	if k != nil {
		r.Kernel = &Side{Name: k.Name, Span: spanText(k.Span)}
		if k.FlagsKnown {
			r.Kernel.Flags = k.Flags.Names()
		}
	}
	if o != nil {
		var span []int
		for _, c := range o.Span.CPUs() {
			if int(c) < len(ids) {
				span = append(span, ids[c])
			}
		}
		slices.Sort(span)
		r.Ours = &Side{Name: string(o.Level), Span: list(span), Flags: o.Flags.Names()}
		if k != nil {
			r.SpanDiffers = k.Span != nil && !slices.Equal(k.Span, span)
			if k.FlagsKnown {
				r.Plus = (o.Flags &^ k.Flags).Names()
				r.Minus = (k.Flags &^ o.Flags).Names()
			}
			r.Same = !r.SpanDiffers && len(r.Plus) == 0 && len(r.Minus) == 0
		}
	}
	return r
}

func spanText(s []int) string {
	if s == nil {
		return "?"
	}
	return list(s)
}

func list(ids []int) string { return input.ListString(ids) }

// Text prints the comparison for a terminal, bounded to maxGroups groups.
func (d *Diff) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "sched domains: your kernel built these; schedplay builds these\n")
	what := "name, span, flags"
	if !d.Flags {
		what = "name and span; the dump has no flags"
	}
	fmt.Fprintf(&b, "%d of the %d CPUs in the dump match on every level (%s)\n", d.Matching, d.CPUs, what)
	for _, g := range d.Groups {
		fmt.Fprintf(&b, "\nCPU %s:\n", g.CPUs)
		for _, r := range g.Rows {
			switch {
			case r.Kernel == nil:
				fmt.Fprintf(&b, "  %-5s kernel: (none)      schedplay: %s [%s]\n", r.Ours.Name, r.Ours.Span, strings.Join(r.Ours.Flags, " "))
			case r.Ours == nil:
				fmt.Fprintf(&b, "  %-5s kernel: %s [%s]      schedplay: (none)\n", r.Kernel.Name, r.Kernel.Span, strings.Join(r.Kernel.Flags, " "))
			case r.Same && r.Kernel.Flags == nil:
				fmt.Fprintf(&b, "  %-5s same: %s\n", r.Kernel.Name, r.Kernel.Span)
			case r.Same:
				fmt.Fprintf(&b, "  %-5s same: %s [%s]\n", r.Kernel.Name, r.Kernel.Span, strings.Join(r.Kernel.Flags, " "))
			default:
				fmt.Fprintf(&b, "  %-5s kernel: %s", r.Kernel.Name, r.Kernel.Span)
				if r.SpanDiffers {
					fmt.Fprintf(&b, "   schedplay: %s", r.Ours.Span)
				} else {
					b.WriteString(" (same span)")
				}
				if len(r.Plus) > 0 {
					fmt.Fprintf(&b, "   schedplay adds %s", strings.Join(r.Plus, " "))
				}
				if len(r.Minus) > 0 {
					fmt.Fprintf(&b, "   schedplay lacks %s", strings.Join(r.Minus, " "))
				}
				b.WriteByte('\n')
			}
		}
	}
	if d.More > 0 {
		fmt.Fprintf(&b, "\n(%d more groups of CPUs left out)\n", d.More)
	}
	for _, n := range d.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	return b.String()
}
