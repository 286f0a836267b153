package lscpu

import (
	"slices"
	"strconv"
	"strings"

	"schedplay/engine/importer/hw"
	"schedplay/engine/importer/input"
)

// row is one CPU of a table, by lower-case column name ("cpu", "core",
// "socket", "node", "cluster", "book", "drawer", "online", "maxmhz", and
// the caches "l1d", "l1i", "l2", "l3").
type row struct {
	line   int
	fields map[string]string
}

// column names of the tables, lower-cased, to the keys of row.
func column(name string) string {
	n := strings.ToLower(strings.TrimSpace(name))
	if n == "cpu" || n == "core" || n == "socket" || n == "node" || n == "cluster" || n == "book" ||
		n == "drawer" || n == "online" || n == "maxmhz" || n == "modelname" || cacheLevel(n) > 0 {
		return n
	}
	return ""
}

// cacheLevel is 1, 2, 3, 4 for "l1d", "l2", "l3", "l4" (0 otherwise;
// instruction caches are 0: they never bound the LLC).
func cacheLevel(n string) int {
	switch n {
	case "l1d", "l1":
		return 1
	case "l2", "l2d":
		return 2
	case "l3":
		return 3
	case "l4":
		return 4
	}
	return 0
}

// unknown reports lscpu's spellings of "no value".
func unknown(v string) bool { return v == "" || v == "-" || v == "null" }

// build turns table rows into a topology: cores by (drawer, book,
// socket, core), nodes, the LLC as the CPUs sharing the highest cache's
// id, the maximum frequency.
func build(rows []row, file string, source string) (*hw.Topology, error) {
	t := &hw.Topology{Source: source}
	if len(rows) == 0 {
		return nil, input.Errorf(file, 0, "no CPU rows")
	}
	if len(rows) > input.MaxCPUs*2 {
		return nil, input.Errorf(file, 0, "%d CPU rows; the limit is %d", len(rows), input.MaxCPUs*2)
	}
	num := func(r row, k string) (int, bool, error) {
		v, ok := r.fields[k]
		if !ok || unknown(v) {
			return -1, false, nil
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return -1, false, input.Errorf(file, r.line, "%s %q is not a number", k, v)
		}
		return n, true, nil
	}
	top := 0
	for _, r := range rows {
		for k := range r.fields {
			if l := cacheLevel(k); l > top && l >= 2 && !unknown(r.fields[k]) {
				top = l
			}
		}
	}
	llcKey := map[string]string{}
	for k := range rows[0].fields {
		if cacheLevel(k) == top && top > 0 {
			llcKey["llc"] = k
		}
	}
	llc := map[int][]int{}
	cluster := map[[2]int][]int{}
	core := map[[3]int][]int{}
	_, haveL1 := rows[0].fields["l1d"]
	seen := map[int]bool{}
	for _, r := range rows {
		id, ok, err := num(r, "cpu")
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, input.Errorf(file, r.line, "a row without a CPU number")
		}
		if id > input.MaxCPUID || seen[id] {
			return nil, input.Errorf(file, r.line, "CPU %d is out of range or listed twice", id)
		}
		seen[id] = true
		c := hw.NewCPU(id)
		if v, ok := r.fields["online"]; ok {
			c.Online = v == "Y" || v == "yes" || v == "true"
		}
		socket, _, err := num(r, "socket")
		if err != nil {
			return nil, err
		}
		book, _, err := num(r, "book")
		if err != nil {
			return nil, err
		}
		drawer, _, err := num(r, "drawer")
		if err != nil {
			return nil, err
		}
		if socket >= 0 {
			c.Package = (drawer+1)<<24 | (book+1)<<16 | socket
		}
		if c.Core, _, err = num(r, "core"); err != nil {
			return nil, err
		}
		if haveL1 && c.Core >= 0 {
			// The threads of a core share its L1d: lscpu numbers cores per
			// CPU type on some versions, so the L1d tells cores apart.
			l1, _, err := num(r, "l1d")
			if err != nil {
				return nil, err
			}
			key := [3]int{c.Package, c.Core, l1}
			core[key] = append(core[key], c.ID)
		}
		if c.Node, _, err = num(r, "node"); err != nil {
			return nil, err
		}
		if v := r.fields["maxmhz"]; !unknown(v) {
			if f, err := strconv.ParseFloat(v, 64); err == nil && f > 0 {
				c.MaxKHz = int(f*1000 + 0.5)
			}
		}
		if v := r.fields["modelname"]; !unknown(v) && v != "-" {
			c.Kind = v
		}
		if id, ok, err := num(r, "cluster"); err != nil {
			return nil, err
		} else if ok {
			key := [2]int{c.Package, id}
			cluster[key] = append(cluster[key], c.ID)
		}
		if k := llcKey["llc"]; k != "" {
			if id, ok, err := num(r, k); err != nil {
				return nil, err
			} else if ok {
				llc[id] = append(llc[id], c.ID)
			}
		}
		t.CPUs = append(t.CPUs, c)
	}
	slices.SortFunc(t.CPUs, func(a, b hw.CPU) int { return a.ID - b.ID })
	idx := map[int]int{}
	for i, c := range t.CPUs {
		idx[c.ID] = i
	}
	for _, members := range core {
		slices.Sort(members)
		for _, m := range members {
			t.CPUs[idx[m]].Siblings = members
		}
	}
	for _, members := range cluster {
		slices.Sort(members)
		for _, m := range members {
			t.CPUs[idx[m]].Cluster = members
		}
	}
	if top > 0 {
		for _, members := range llc {
			slices.Sort(members)
			for _, m := range members {
				t.CPUs[idx[m]].LLC = members
			}
		}
		for i := range t.CPUs {
			if t.CPUs[i].LLC == nil {
				t.CPUs[i].LLC = []int{t.CPUs[i].ID}
			}
		}
	}
	t.Note("%s does not say the architecture: the generic topology rules apply, with no cluster level (x86 would make one of cores sharing an L2)", source)
	return t, nil
}

func sortInts(v []int) { slices.Sort(v) }

func sortCPUs(c []hw.CPU) { slices.SortFunc(c, func(a, b hw.CPU) int { return a.ID - b.ID }) }
