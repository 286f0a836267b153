package lscpu

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"schedplay/engine/importer/hw"
	"schedplay/engine/importer/input"
)

// readParse reads `lscpu -p[=list]`: "# CPU,Core,Socket,Node,,L1d,…"
// names the comma-separated columns (an empty name is a separator).
func readParse(data []byte, file string) (*hw.Topology, error) {
	var cols []string
	var rows []row
	l := input.NewLines(file, bytes.NewReader(data))
	for l.Next() {
		line := strings.TrimSpace(string(l.Text()))
		if line == "" {
			continue
		}
		if h, ok := strings.CutPrefix(line, "#"); ok {
			h = strings.TrimSpace(h)
			if strings.HasPrefix(h, "CPU,") || h == "CPU" {
				cols = strings.Split(h, ",")
			}
			continue
		}
		if cols == nil {
			return nil, l.Errorf("a data row before the \"# CPU,…\" header line")
		}
		vals := strings.Split(line, ",")
		if len(vals) != len(cols) {
			return nil, l.Errorf("%d fields; the header names %d", len(vals), len(cols))
		}
		r := row{line: l.Line(), fields: map[string]string{}}
		for i, c := range cols {
			if k := column(c); k != "" {
				r.fields[k] = strings.TrimSpace(vals[i])
			}
		}
		rows = append(rows, r)
	}
	if err := l.Err(); err != nil {
		return nil, err
	}
	return build(rows, file, string(Parse))
}

// readExtended reads `lscpu -e[=list]`: a header of column names, then
// one whitespace-separated row per CPU; the cache column
// "L1d:L1i:L2:L3" holds colon-separated ids. A MODELNAME column may hold
// spaces only as the last column.
func readExtended(data []byte, file string) (*hw.Topology, error) {
	var cols []string
	var rows []row
	l := input.NewLines(file, bytes.NewReader(data))
	for l.Next() {
		f := strings.Fields(string(l.Text()))
		if len(f) == 0 {
			continue
		}
		if cols == nil {
			cols = f
			continue
		}
		if len(f) > len(cols) && strings.EqualFold(cols[len(cols)-1], "MODELNAME") {
			f = append(f[:len(cols)-1], strings.Join(f[len(cols)-1:], " "))
		}
		if len(f) != len(cols) {
			return nil, l.Errorf("%d fields; the header names %d", len(f), len(cols))
		}
		r := row{line: l.Line(), fields: map[string]string{}}
		for i, c := range cols {
			addField(r.fields, c, f[i])
		}
		rows = append(rows, r)
	}
	if err := l.Err(); err != nil {
		return nil, err
	}
	return build(rows, file, string(Extended))
}

// addField stores one cell, splitting the combined cache column.
func addField(fields map[string]string, name, v string) {
	if strings.Contains(name, ":") {
		names := strings.Split(name, ":")
		vals := strings.Split(v, ":")
		for i, n := range names {
			if i < len(vals) {
				if k := column(n); k != "" {
					fields[k] = vals[i]
				}
			}
		}
		return
	}
	if k := column(name); k != "" {
		fields[k] = v
	}
}

// readJSONTable reads `lscpu -e --json`: {"cpus": [{"cpu": 0, …}, …]};
// values are numbers, booleans, strings or null depending on the
// util-linux version.
func readJSONTable(data []byte, file string) (*hw.Topology, error) {
	var doc struct {
		CPUs []map[string]any `json:"cpus"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, jsonError(file, data, err)
	}
	var rows []row
	for i, c := range doc.CPUs {
		r := row{fields: map[string]string{}}
		for k, v := range c {
			var s string
			switch x := v.(type) {
			case nil:
				s = "-"
			case bool:
				s = map[bool]string{true: "yes", false: "no"}[x]
			case float64:
				s = fmt.Sprint(x)
			case string:
				s = x
			default:
				return nil, input.Errorf(file, 0, "cpus[%d].%s is not a value", i, k)
			}
			addField(r.fields, k, s)
		}
		rows = append(rows, r)
	}
	return build(rows, file, string(JSONTable))
}

// jsonError names the line of a JSON syntax error.
func jsonError(file string, data []byte, err error) error {
	if se, ok := err.(*json.SyntaxError); ok {
		line := 1 + bytes.Count(data[:min(int(se.Offset), len(data))], []byte("\n"))
		return input.Errorf(file, line, "malformed JSON: %v", se)
	}
	return input.Errorf(file, 0, "%v", err)
}
