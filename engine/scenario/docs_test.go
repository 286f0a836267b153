package scenario

import (
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// TestEveryFieldDocumented fails when a JSON field of the scenario format
// is missing from docs/scenario.md (written there as `key`, `sec.key`,
// `key.sub` or "key" in an example).
func TestEveryFieldDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/scenario.md")
	if err != nil {
		t.Skipf("docs not found: %v", err)
	}
	seen := map[reflect.Type]bool{}
	keys := map[string]string{}
	var walk func(path string, typ reflect.Type)
	walk = func(path string, typ reflect.Type) {
		for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice || typ.Kind() == reflect.Array {
			typ = typ.Elem()
		}
		if typ.Kind() != reflect.Struct || seen[typ] || reflect.PointerTo(typ).Implements(textUnmarshalerType) {
			return
		}
		seen[typ] = true
		fields := jsonFields(typ)
		for _, k := range fieldNames(fields) {
			keys[k] = joinPath(path, k)
			walk(joinPath(path, k), fields[k])
		}
	}
	walk("", reflect.TypeFor[Resolved]())
	var missing []string
	for k, p := range keys {
		found := false
		for _, form := range []string{"`" + k + "`", "." + k + "`", "`" + k + ".", `"` + k + `"`} {
			found = found || strings.Contains(string(doc), form)
		}
		if !found {
			missing = append(missing, p)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("docs/scenario.md does not document: %s", strings.Join(missing, ", "))
	}
}
