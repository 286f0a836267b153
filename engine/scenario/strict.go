package scenario

import (
	"encoding"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"schedplay/engine/units"
)

// Strict decoding: a JSON tree is checked against the Go type it will be
// decoded into, field by field, so that every unknown field, wrong type,
// bad enum value or unparsable duration is reported with its full path
// ("workload.groups[0].program[2].compute") instead of encoding/json's
// first-error-only message without array indexes. Object keys match JSON
// tags exactly (encoding/json would also accept "Nodes" for "nodes").

var (
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
	durationType        = reflect.TypeFor[units.Duration]()
)

// decodeStrict checks tree against the type of *out and, when it is clean,
// decodes it into out. Errors are appended to errs.
func decodeStrict(path string, tree any, out any, errs *ErrorList) {
	n := len(*errs)
	checkValue(path, tree, reflect.TypeOf(out).Elem(), errs)
	if len(*errs) > n {
		return
	}
	if err := json.Unmarshal(canonicalJSON(tree), out); err != nil {
		errs.Add(path, "%s", strings.TrimPrefix(err.Error(), "json: "))
	}
}

// checkValue reports every way v does not fit type t.
func checkValue(path string, v any, t reflect.Type, errs *ErrorList) {
	if v == nil {
		errs.Add(path, "null is not allowed here; leave the field out instead")
		return
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(textUnmarshalerType) {
		checkText(path, v, t, errs)
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		checkStruct(path, v, t, errs)
	case reflect.Slice, reflect.Array:
		a, ok := v.([]any)
		if !ok {
			errs.Add(path, "must be a list, not %s", typeName(v))
			return
		}
		if t.Kind() == reflect.Array && len(a) != t.Len() {
			errs.Add(path, "must be a list of %d values, not %d", t.Len(), len(a))
			return
		}
		for i, x := range a {
			checkValue(indexPath(path, i), x, t.Elem(), errs)
		}
	case reflect.String:
		if _, ok := v.(string); !ok {
			errs.Add(path, "must be a string, not %s", typeName(v))
		}
	case reflect.Bool:
		if _, ok := v.(bool); !ok {
			errs.Add(path, "must be true or false, not %s", typeName(v))
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		checkInt(path, v, t, errs)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		checkUint(path, v, t, errs)
	case reflect.Float32, reflect.Float64:
		num, ok := v.(json.Number)
		if !ok {
			errs.Add(path, "must be a number, not %s", typeName(v))
			return
		}
		if _, err := strconv.ParseFloat(string(num), t.Bits()); err != nil {
			errs.Add(path, "%s is out of range", num)
		}
	default:
		errs.Add(path, "cannot hold a value (field of unsupported type %s)", t)
	}
}

func checkText(path string, v any, t reflect.Type, errs *ErrorList) {
	s, ok := v.(string)
	if !ok {
		if t == durationType {
			errs.Add(path, "must be a duration string with a unit such as \"750us\", \"2ms\" or \"1.5s\", not %s", typeName(v))
		} else {
			errs.Add(path, "must be a string, not %s", typeName(v))
		}
		return
	}
	u := reflect.New(t).Interface().(encoding.TextUnmarshaler)
	if err := u.UnmarshalText([]byte(s)); err != nil {
		errs.Add(path, "%v", err)
	}
}

func checkInt(path string, v any, t reflect.Type, errs *ErrorList) {
	num, ok := v.(json.Number)
	if !ok {
		errs.Add(path, "must be a whole number, not %s", typeName(v))
		return
	}
	if _, err := strconv.ParseInt(string(num), 10, t.Bits()); err != nil {
		f, ferr := strconv.ParseFloat(string(num), 64)
		switch {
		case !strings.ContainsAny(string(num), ".eE"), ferr == nil && f == math.Trunc(f):
			errs.Add(path, "%s is out of range", num)
		default:
			errs.Add(path, "must be a whole number, not %s", num)
		}
	}
}

func checkUint(path string, v any, t reflect.Type, errs *ErrorList) {
	num, ok := v.(json.Number)
	if !ok {
		errs.Add(path, "must be a whole number ≥ 0, not %s", typeName(v))
		return
	}
	if _, err := strconv.ParseUint(string(num), 10, t.Bits()); err != nil {
		errs.Add(path, "must be a whole number between 0 and %d, not %s", uint64(1)<<t.Bits()-1, num)
	}
}

func checkStruct(path string, v any, t reflect.Type, errs *ErrorList) {
	m, ok := v.(map[string]any)
	if !ok {
		errs.Add(path, "must be an object, not %s", typeName(v))
		return
	}
	fields := jsonFields(t)
	for _, k := range sortedKeys(m) {
		ft, ok := fields[k]
		if !ok {
			errs.Add(joinPath(path, k), "unknown field%s", suggest(k, fieldNames(fields)))
			continue
		}
		checkValue(joinPath(path, k), m[k], ft, errs)
	}
}

// jsonFields maps the JSON keys of struct type t (embedded structs flattened,
// as encoding/json does) to their field types.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for _, f := range reflect.VisibleFields(t) {
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		if name == "-" {
			continue
		}
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			continue // its fields are promoted
		}
		if name == "" {
			name = f.Name
		}
		if _, dup := out[name]; !dup || len(f.Index) == 1 {
			out[name] = f.Type
		}
	}
	return out
}

func fieldNames(fields map[string]reflect.Type) []string {
	ns := make([]string, 0, len(fields))
	for n := range fields {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}

// suggest proposes the known key closest to k.
func suggest(k string, names []string) string {
	best, bestD := "", 3
	for _, name := range names {
		if strings.EqualFold(name, k) {
			return fmt.Sprintf(" (did you mean %q?)", name)
		}
		if d := editDistance(strings.ToLower(k), strings.ToLower(name)); d < bestD || d == bestD && name < best {
			best, bestD = name, d
		}
	}
	if best != "" && bestD <= 2 {
		return fmt.Sprintf(" (did you mean %q?)", best)
	}
	return ""
}

func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 99
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func sortedKeys(m map[string]any) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
