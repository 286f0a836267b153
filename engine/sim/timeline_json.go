package sim

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// The timeline's JSON form keeps its intervals as flat number arrays: a
// Vera repetition has hundreds of thousands of them, and as objects they
// made replies of several MB that took the browser longer to read than the
// simulation took to run.
//
//	"runs":  [[task, start_ns, end_ns, decision, task, start_ns, …], …]  one array per CPU
//	"outs":  [[out, out, …], …]  one array per CPU, one SwitchOut per run (how it ended)
//	"modes": [[mode, start_ns, end_ns, mode, start_ns, …], …]           one array per core
//
// "outs" came after the first timelines: one without it reads as OutSleep.
//
// Everything else is as the struct tags say.

// MarshalJSON writes the runs and modes as flat arrays.
func (tl Timeline) MarshalJSON() ([]byte, error) { return tl.appendJSON(nil) }

// appendJSON appends the timeline's JSON (members in the struct's order,
// without HTML escaping).
func (tl *Timeline) appendJSON(b []byte) ([]byte, error) {
	tasks, err := marshalNoEscape(tl.Tasks)
	if err != nil {
		return nil, err
	}
	b = append(b, `{"tasks":`...)
	b = append(b, tasks...)
	b = append(b, `,"runs":`...)
	b = appendRows(b, tl.Runs, func(b []byte, iv Interval) []byte {
		return appendInts(b, int64(iv.Task), iv.Start, iv.End, int64(iv.Decision))
	})
	b = append(b, `,"outs":`...)
	b = appendRows(b, tl.Runs, func(b []byte, iv Interval) []byte {
		return strconv.AppendUint(b, uint64(iv.Out), 10)
	})
	b = append(b, `,"modes":`...)
	b = appendRows(b, tl.Modes, func(b []byte, iv ModeInterval) []byte {
		return appendInts(b, int64(iv.Mode), iv.Start, iv.End)
	})
	b = append(b, `,"decisions":`...)
	dec, err := marshalNoEscape(tl.Decisions)
	if err != nil {
		return nil, err
	}
	b = append(b, dec...)
	if tl.NoDecisions {
		b = append(b, `,"no_decisions":true`...)
	}
	if tl.Truncated {
		b = append(b, `,"truncated":true`...)
	}
	b = append(b, `,"end_ns":`...)
	b = strconv.AppendInt(b, tl.EndNs, 10)
	return append(b, '}'), nil
}

// appendRows appends rows as an array of flat arrays, elem appending one
// element's numbers.
func appendRows[T any](b []byte, rows [][]T, elem func([]byte, T) []byte) []byte {
	b = append(b, '[')
	for i, r := range rows {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		for j, x := range r {
			if j > 0 {
				b = append(b, ',')
			}
			b = elem(b, x)
		}
		b = append(b, ']')
	}
	return append(b, ']')
}

// appendInts appends comma-separated integers.
func appendInts(b []byte, v ...int64) []byte {
	for i, x := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, x, 10)
	}
	return b
}

// UnmarshalJSON reads what MarshalJSON writes. The interval arrays go to
// parseFlat directly; encoding/json only sees the small members.
func (tl *Timeline) UnmarshalJSON(b []byte) error {
	if string(bytes.TrimSpace(b)) == "null" {
		return nil
	}
	*tl = Timeline{}
	var runs, outs, modes [][]int64
	err := walkObject(b, func(key string, _, val []byte) error {
		var err error
		switch key {
		case "runs":
			runs, err = parseFlat(val, 4, "runs")
		case "outs":
			outs, err = parseFlat(val, 1, "outs")
		case "modes":
			modes, err = parseFlat(val, 3, "modes")
		case "tasks":
			err = json.Unmarshal(val, &tl.Tasks)
		case "decisions":
			tl.Decisions, err = decodeDecisions(val)
		case "no_decisions":
			err = json.Unmarshal(val, &tl.NoDecisions)
		case "truncated":
			err = json.Unmarshal(val, &tl.Truncated)
		case "end_ns":
			err = json.Unmarshal(val, &tl.EndNs)
		default:
			if !json.Valid(val) {
				err = fmt.Errorf("timeline: %s: invalid JSON", key)
			}
		}
		if err != nil && key != "runs" && key != "outs" && key != "modes" { // parseFlat names its field
			return fmt.Errorf("timeline: %s: %w", key, err)
		}
		return err
	})
	if err != nil {
		return err
	}
	if runs != nil {
		tl.Runs = make([][]Interval, len(runs))
		for i, r := range runs {
			ivs := make([]Interval, len(r)/4)
			for k := range ivs {
				q := r[4*k : 4*k+4]
				ivs[k] = Interval{Task: int(q[0]), Start: q[1], End: q[2], Decision: int(q[3])}
			}
			tl.Runs[i] = ivs
		}
	}
	if err := tl.setOuts(outs); err != nil {
		return err
	}
	if modes != nil {
		tl.Modes = make([][]ModeInterval, len(modes))
		for i, m := range modes {
			ivs := make([]ModeInterval, len(m)/3)
			for k := range ivs {
				q := m[3*k : 3*k+3]
				if q[0] < 0 || q[0] > int64(ModeSwitching) {
					return fmt.Errorf("timeline: modes[%d]: mode %d out of range", i, q[0])
				}
				ivs[k] = ModeInterval{Mode: Mode(q[0]), Start: q[1], End: q[2]}
			}
			tl.Modes[i] = ivs
		}
	}
	return nil
}

// parseFlat reads an array of integer arrays whose lengths are multiples
// of width. It is a hand-written scanner: encoding/json's reflection is
// several times slower on these, which matters in the browser.
func parseFlat(b []byte, width int, field string) ([][]int64, error) {
	p := flatParser{b: b}
	p.space()
	if p.lit("null") || len(p.b) == 0 {
		return nil, nil
	}
	bad := func(what string) error {
		return fmt.Errorf("timeline: %s: %s at byte %d", field, what, p.i)
	}
	if !p.eat('[') {
		return nil, bad("want an array")
	}
	out := [][]int64{}
	// One backing array for all rows: few allocations for many rows.
	all := make([]int64, 0, len(b)/6)
	p.space()
	if p.eat(']') {
		return out, nil
	}
	for {
		p.space()
		if !p.eat('[') {
			return nil, bad("want an array per CPU or core")
		}
		start := len(all)
		p.space()
		if !p.eat(']') {
			for {
				p.space()
				v, ok := p.int()
				if !ok {
					return nil, bad("want an integer")
				}
				all = append(all, v)
				p.space()
				if p.eat(']') {
					break
				}
				if !p.eat(',') {
					return nil, bad("want , or ]")
				}
			}
		}
		row := all[start:len(all):len(all)]
		if len(row)%width != 0 {
			return nil, bad(fmt.Sprintf("row %d has %d numbers, not a multiple of %d", len(out), len(row), width))
		}
		out = append(out, row)
		p.space()
		if p.eat(']') {
			break
		}
		if !p.eat(',') {
			return nil, bad("want , or ]")
		}
	}
	if p.space(); p.i != len(p.b) {
		return nil, bad("unexpected data after the array")
	}
	// Rows sliced from all before it grew point at old backing arrays;
	// that is fine: they were complete when sliced.
	return out, nil
}

// flatParser is parseFlat's cursor.
type flatParser struct {
	b []byte
	i int
}

func (p *flatParser) space() {
	p.i = skipSpace(p.b, p.i)
}

func (p *flatParser) eat(c byte) bool {
	if p.i < len(p.b) && p.b[p.i] == c {
		p.i++
		return true
	}
	return false
}

func (p *flatParser) lit(s string) bool {
	if len(p.b)-p.i >= len(s) && string(p.b[p.i:p.i+len(s)]) == s {
		p.i += len(s)
		return true
	}
	return false
}

// int reads an optionally negative decimal integer (at most 18 digits,
// no leading zeros, as JSON writes it).
func (p *flatParser) int() (int64, bool) {
	neg := p.eat('-')
	start := p.i
	if p.i+1 < len(p.b) && p.b[p.i] == '0' && p.b[p.i+1] >= '0' && p.b[p.i+1] <= '9' {
		return 0, false
	}
	var v int64
	for p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' {
		if p.i-start >= 18 {
			return 0, false
		}
		v = v*10 + int64(p.b[p.i]-'0')
		p.i++
	}
	if p.i == start {
		return 0, false
	}
	if neg {
		v = -v
	}
	return v, true
}

// setOuts stores the "outs" rows (one per CPU, one per run) in the runs.
func (tl *Timeline) setOuts(outs [][]int64) error {
	if outs == nil {
		return nil
	}
	if len(outs) != len(tl.Runs) {
		return fmt.Errorf("timeline: outs: %d rows for %d CPUs of runs", len(outs), len(tl.Runs))
	}
	for i, row := range outs {
		if len(row) != len(tl.Runs[i]) {
			return fmt.Errorf("timeline: outs[%d]: %d values for %d runs", i, len(row), len(tl.Runs[i]))
		}
		for k, v := range row {
			if v < 0 || v > int64(OutRunning) {
				return fmt.Errorf("timeline: outs[%d]: value %d out of range", i, v)
			}
			tl.Runs[i][k].Out = SwitchOut(v)
		}
	}
	return nil
}
