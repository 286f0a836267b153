package scenario

import (
	"encoding"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
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
// decodes it into out. Errors are appended to errs. Whole numbers written
// in another JSON form ("1e3", "1000.0") reach integer fields as "1000";
// tree itself is not modified.
func decodeStrict(path string, tree any, out any, errs *ErrorList) {
	n := len(*errs)
	tree = checkValue(path, cloneTree(tree), reflect.TypeOf(out).Elem(), errs)
	if len(*errs) > n {
		return
	}
	if err := json.Unmarshal(canonicalJSON(tree), out); err != nil {
		errs.Add(path, "%s", strings.TrimPrefix(err.Error(), "json: "))
	}
}

// checkValue reports every way v does not fit type t and returns v with
// its integer fields' numbers in plain form (see checkInt); containers are
// updated in place.
func checkValue(path string, v any, t reflect.Type, errs *ErrorList) any {
	if v == nil {
		errs.Add(path, "null is not allowed here; leave the field out instead")
		return v
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(textUnmarshalerType) {
		checkText(path, v, t, errs)
		return v
	}
	switch t.Kind() {
	case reflect.Struct:
		checkStruct(path, v, t, errs)
	case reflect.Slice, reflect.Array:
		a, ok := v.([]any)
		if !ok {
			errs.Add(path, "must be a list, not %s", typeName(v))
			return v
		}
		if t.Kind() == reflect.Array && len(a) != t.Len() {
			errs.Add(path, "must be a list of %d values, not %d", t.Len(), len(a))
			return v
		}
		for i, x := range a {
			a[i] = checkValue(indexPath(path, i), x, t.Elem(), errs)
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
		return checkInt(path, v, t, errs)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return checkUint(path, v, t, errs)
	case reflect.Float32, reflect.Float64:
		num, ok := v.(json.Number)
		if !ok {
			errs.Add(path, "must be a number, not %s", typeName(v))
			return v
		}
		if _, err := strconv.ParseFloat(string(num), t.Bits()); err != nil {
			errs.Add(path, "%s is out of range", num)
		}
	default:
		errs.Add(path, "cannot hold a value (field of unsupported type %s)", t)
	}
	return v
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

// checkInt checks a whole number for an integer field of type t. A whole
// number in exponent or decimal form ("1e3", "1.5e3", "1000.0") is accepted
// and returned in plain form ("1000") for encoding/json.
func checkInt(path string, v any, t reflect.Type, errs *ErrorList) any {
	num, ok := v.(json.Number)
	if !ok {
		errs.Add(path, "must be a whole number, not %s", typeName(v))
		return v
	}
	if _, err := strconv.ParseInt(string(num), 10, t.Bits()); err == nil {
		return v
	}
	lo := new(big.Int).Lsh(big.NewInt(-1), uint(t.Bits()-1))
	hi := new(big.Int).Sub(new(big.Int).Neg(lo), big.NewInt(1))
	z, whole := wholeNumber(num)
	switch {
	case !whole:
		errs.Add(path, "must be a whole number, not %s", num)
	case z == nil || z.Cmp(lo) < 0 || z.Cmp(hi) > 0:
		errs.Add(path, "%s is out of range; a whole number here is between %s and %s", num, lo, hi)
	default:
		return json.Number(z.String())
	}
	return v
}

// checkUint is checkInt for an unsigned field.
func checkUint(path string, v any, t reflect.Type, errs *ErrorList) any {
	num, ok := v.(json.Number)
	if !ok {
		errs.Add(path, "must be a whole number ≥ 0, not %s", typeName(v))
		return v
	}
	if _, err := strconv.ParseUint(string(num), 10, t.Bits()); err == nil {
		return v
	}
	hi := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(t.Bits())), big.NewInt(1))
	if z, whole := wholeNumber(num); whole && z != nil && z.Sign() >= 0 && z.Cmp(hi) <= 0 {
		return json.Number(z.String())
	}
	errs.Add(path, "must be a whole number between 0 and %s, not %s", hi, num)
	return v
}

// maxExponent bounds the decimal exponents wholeNumber expands exactly:
// beyond it a nonzero number is far outside any integer field's range (or
// far below 1), and expanding 1e999999999 would take gigabytes.
const maxExponent = 400

// wholeNumber returns the exact value of a JSON number and whether it is a
// whole number. z is nil for a whole number too large to expand.
func wholeNumber(num json.Number) (z *big.Int, whole bool) {
	s := string(num)
	mant, exp := s, 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant = s[:i]
		e, err := strconv.Atoi(s[i+1:])
		if err != nil {
			e = math.MaxInt32 // an exponent beyond int: only its sign matters
			if strings.HasPrefix(s[i+1:], "-") {
				e = math.MinInt32
			}
		}
		exp = e
	}
	zero := strings.Trim(mant, "-0.") == ""
	switch {
	case zero:
		return new(big.Int), true
	case exp > maxExponent:
		return nil, true
	case exp < -maxExponent:
		return nil, false
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok || !r.IsInt() {
		return nil, false
	}
	return r.Num(), true
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
		m[k] = checkValue(joinPath(path, k), m[k], ft, errs)
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
