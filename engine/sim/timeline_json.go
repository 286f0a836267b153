package sim

import (
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
//	"modes": [[mode, start_ns, end_ns, mode, start_ns, …], …]           one array per core
//
// Everything else is as the struct tags say.

// timelineJSON is Timeline with its interval lists pre-encoded.
type timelineJSON struct {
	Tasks       []TaskInfo      `json:"tasks"`
	Runs        json.RawMessage `json:"runs"`
	Modes       json.RawMessage `json:"modes"`
	Decisions   []Decision      `json:"decisions"`
	NoDecisions bool            `json:"no_decisions,omitempty"`
	Truncated   bool            `json:"truncated,omitempty"`
	EndNs       int64           `json:"end_ns"`
}

// MarshalJSON writes the runs and modes as flat arrays.
func (tl Timeline) MarshalJSON() ([]byte, error) {
	n := 0
	for _, r := range tl.Runs {
		n += len(r)
	}
	runs := make([]byte, 0, 2+len(tl.Runs)*3+n*28)
	runs = append(runs, '[')
	for i, r := range tl.Runs {
		if i > 0 {
			runs = append(runs, ',')
		}
		runs = append(runs, '[')
		for j, iv := range r {
			if j > 0 {
				runs = append(runs, ',')
			}
			runs = strconv.AppendInt(runs, int64(iv.Task), 10)
			runs = append(runs, ',')
			runs = strconv.AppendInt(runs, iv.Start, 10)
			runs = append(runs, ',')
			runs = strconv.AppendInt(runs, iv.End, 10)
			runs = append(runs, ',')
			runs = strconv.AppendInt(runs, int64(iv.Decision), 10)
		}
		runs = append(runs, ']')
	}
	runs = append(runs, ']')
	modes := make([]byte, 0, 2+len(tl.Modes)*3)
	modes = append(modes, '[')
	for i, m := range tl.Modes {
		if i > 0 {
			modes = append(modes, ',')
		}
		modes = append(modes, '[')
		for j, iv := range m {
			if j > 0 {
				modes = append(modes, ',')
			}
			modes = strconv.AppendInt(modes, int64(iv.Mode), 10)
			modes = append(modes, ',')
			modes = strconv.AppendInt(modes, iv.Start, 10)
			modes = append(modes, ',')
			modes = strconv.AppendInt(modes, iv.End, 10)
		}
		modes = append(modes, ']')
	}
	modes = append(modes, ']')
	return json.Marshal(timelineJSON{Tasks: tl.Tasks, Runs: runs, Modes: modes, Decisions: tl.Decisions,
		NoDecisions: tl.NoDecisions, Truncated: tl.Truncated, EndNs: tl.EndNs})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (tl *Timeline) UnmarshalJSON(b []byte) error {
	var j timelineJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*tl = Timeline{Tasks: j.Tasks, Decisions: j.Decisions, NoDecisions: j.NoDecisions, Truncated: j.Truncated, EndNs: j.EndNs}
	runs, err := parseFlat(j.Runs, 4, "runs")
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
	modes, err := parseFlat(j.Modes, 3, "modes")
	if err != nil {
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
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
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

// int reads an optionally negative decimal integer (at most 18 digits).
func (p *flatParser) int() (int64, bool) {
	neg := p.eat('-')
	start := p.i
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
