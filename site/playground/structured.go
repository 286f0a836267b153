package playground

import (
	"encoding/json"
	"strconv"
)

// The structured editors (structured_js.go) edit lists of the machine
// section: core classes (a table), the SMT yield and the boost curve
// (point lists with sparklines) and per-CPU priorities. These helpers are
// their pure parts.

// moveItem returns a copy of list with item i moved by d places (clamped);
// the list itself is not changed (documents are immutable).
func moveItem(list []any, i, d int) []any {
	out := append([]any(nil), list...)
	j := min(max(i+d, 0), len(out)-1)
	if i < 0 || i >= len(out) || i == j {
		return out
	}
	out[i], out[j] = out[j], out[i]
	return out
}

// appendItem returns a copy of list with v appended.
func appendItem(list []any, v any) []any {
	return append(append([]any(nil), list...), v)
}

// number reads a JSON number (json.Number, float64 or int); ok is false
// for anything else.
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	case float64:
		return x, true
	case int:
		return float64(x), true
	case string:
		f, err := strconv.ParseFloat(x, 64)
		return f, err == nil
	}
	return 0, false
}

// numbers reads a list of numbers (a value that is not one reads as 0, so
// a half-edited list still draws).
func numbers(v any) []float64 {
	list, _ := v.([]any)
	out := make([]float64, len(list))
	for i, x := range list {
		out[i], _ = number(x)
	}
	return out
}

// curvePoints reads a boost curve [[x, y], …] as its x and y values.
func curvePoints(v any) (xs, ys []float64) {
	list, _ := v.([]any)
	for _, p := range list {
		pair, _ := p.([]any)
		var x, y float64
		if len(pair) > 0 {
			x, _ = number(pair[0])
		}
		if len(pair) > 1 {
			y, _ = number(pair[1])
		}
		xs, ys = append(xs, x), append(ys, y)
	}
	return xs, ys
}

// newClass is the row "+ class" adds: one core of full capacity.
func newClass(n int) map[string]any {
	return map[string]any{"name": "class" + strconv.Itoa(n), "cores": json.Number("1"), "capacity": json.Number("1024"), "speed": json.Number("1")}
}
