package playground

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestStructuredHelpers(t *testing.T) {
	list := []any{"a", "b", "c"}
	if got := moveItem(list, 0, 1); !reflect.DeepEqual(got, []any{"b", "a", "c"}) || list[0] != "a" {
		t.Errorf("moveItem down = %v (list %v)", got, list)
	}
	if got := moveItem(list, 0, -1); !reflect.DeepEqual(got, list) {
		t.Errorf("moveItem past the top = %v", got)
	}
	if got := appendItem(list, "d"); len(got) != 4 || len(list) != 3 {
		t.Errorf("appendItem = %v", got)
	}
	if got := numbers([]any{json.Number("1"), json.Number("1.064"), "x"}); !reflect.DeepEqual(got, []float64{1, 1.064, 0}) {
		t.Errorf("numbers = %v", got)
	}
	xs, ys := curvePoints([]any{[]any{json.Number("0"), json.Number("1.2")}, []any{json.Number("1")}})
	if !reflect.DeepEqual(xs, []float64{0, 1}) || !reflect.DeepEqual(ys, []float64{1.2, 0}) {
		t.Errorf("curvePoints = %v %v", xs, ys)
	}
}

func TestNewClass(t *testing.T) {
	c := newClass(2)
	if c["name"] != "class2" || c["capacity"] != json.Number("1024") || c["cores"] != json.Number("1") {
		t.Errorf("newClass = %v", c)
	}
}
