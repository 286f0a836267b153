package scenario

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	"schedplay/presets"
)

// sameAsTokens fails t when scanTree and the token reader (parseTokens)
// disagree on data: whether it is accepted, or the tree it gives.
func sameAsTokens(t testing.TB, data []byte) {
	t.Helper()
	if checkUTF8(data) != nil {
		return // refused before either reader (ParseJSON)
	}
	want, err := parseTokens(data)
	got, ok := scanTree(data)
	switch {
	case ok != (err == nil):
		t.Fatalf("%q: scanTree accepts it: %v; the token reader: %v", data, ok, err)
	case ok && !reflect.DeepEqual(got, want):
		t.Fatalf("%q: scanTree read %s; the token reader %s", data, typedTree(got), typedTree(want))
	}
}

// typedTree prints a tree with the type of each leaf, so that the string
// "1" and the number 1 differ.
func typedTree(v any) string {
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = fmt.Sprintf("%q: %s", k, typedTree(v[k]))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case []any:
		parts := make([]string, len(v))
		for i, e := range v {
			parts[i] = typedTree(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return fmt.Sprintf("%T(%#v)", v, v)
}

// scanCases are documents at the edges of the language: each is read by
// both readers.
var scanCases = []string{
	``, ` `, `{`, `}`, `[`, `]`, `[]`, `{}`, ` {} `, "\t[\r\n]\n", `[,]`, `[1,]`, `{"a":1,}`, `[1 2]`, `[1,,2]`,
	`{"a" 1}`, `{"a":}`, `{1:2}`, `{"a":1 "b":2}`, `{"a":1}{}`, `{} x`, `{"a":1,"a":2}`, `{"a":{"a":1},"b":{"a":2}}`,
	`{"":1}`, `{"a\u0062":1,"ab":2}`, `{"a":1}` + "\x00",
	`0`, `-0`, `01`, `-`, `-01`, `1.`, `.5`, `1.5`, `+1`, `1e`, `1e+`, `1e5`, `1E-5`, `1.5e+07`, `-12.0e0`,
	`123456789012345678901234567890`, `1x`, `[0x1]`, `[1.2.3]`, `[--1]`, `[1e5e5]`,
	`true`, `false`, `null`, `tru`, `nul`, `truex`, `[true,false,null]`, `[True]`, `nan`, `NaN`, `Infinity`,
	`""`, `"a"`, `"a`, `"\"`, `"\\"`, `"\/"`, `"\b\f\n\r\t"`, `"\x"`, `"\u00e9"`, `"\u00E9"`, `"\u00g9"`, `"\u00e"`,
	`"\ud83d\ude00"`, "\"a\tb\"", "\"a\nb\"", "\"a\x1fb\"", `"é ü 日本"`, `"a\'b"`, `'a'`,
	`["1",1,"1",1]`, `[1,"1"]`, `{"1":1,"a":"1","b":1}`, `["-0",-0,"1e5",1e5]`,
	`{"a":[{"b":[1,{"c":null}]}]}`, `[[[[]]]]`, `{"a" : [ 1 , 2 ] , "b" : { } }`,
}

// TestScanTreeReadsAsTheTokenReader: the one-pass reader accepts exactly
// the documents the token reader accepts, with the same trees, on the edge
// cases, on every preset, and on every one-byte edit of a few of them.
func TestScanTreeReadsAsTheTokenReader(t *testing.T) {
	for _, c := range scanCases {
		sameAsTokens(t, []byte(c))
	}
	// Nesting: 64 levels are read, 65 are not.
	for _, n := range []int{maxNesting, maxNesting + 1} {
		sameAsTokens(t, []byte(strings.Repeat("[", n)+strings.Repeat("]", n)))
		sameAsTokens(t, []byte(strings.Repeat(`{"a":`, n)+"1"+strings.Repeat("}", n)))
	}
	for _, d := range append(presetBodies(t), numaDoc(64)) {
		sameAsTokens(t, d)
	}
	// More distinct values than are interned, then repeats of the first
	// and last, as numbers and as strings.
	var many []string
	for i := range maxInterned + 10 {
		many = append(many, fmt.Sprint(i), fmt.Sprintf(`"%d"`, i))
	}
	many = append(many, "0", `"0"`, fmt.Sprint(maxInterned+9), fmt.Sprintf(`"%d"`, maxInterned+9))
	sameAsTokens(t, []byte("["+strings.Join(many, ",")+"]"))
	// Every one-byte deletion and replacement of two small documents.
	edits := []byte(`"{}[],:0-+.eE\ \tx/u`)
	for _, d := range []string{
		`{"schedplay": 1, "name": "a\"b", "machine": {"preset": "hikey960"}, "run": {"reps": [1, -2.5e3, true, null, {}]}}`,
		`{"w": {"groups": [{"count": 2, "ops": [{"compute": "1ms"}, {"sleep": "0.5ms"}]}], "x": "\u00e9\n"}}`,
	} {
		for i := 0; i < len(d); i++ {
			sameAsTokens(t, []byte(d[:i]+d[i+1:]))
			for _, c := range edits {
				sameAsTokens(t, []byte(d[:i]+string(c)+d[i+1:]))
			}
		}
	}
}

// FuzzScanTree: the one-pass reader and the token reader agree on any
// input.
func FuzzScanTree(f *testing.F) {
	for _, c := range scanCases {
		f.Add([]byte(c))
	}
	for _, d := range seedDocs(f) {
		f.Add([]byte(d))
	}
	f.Fuzz(func(t *testing.T, data []byte) { sameAsTokens(t, data) })
}

// TestParseJSONReadsInOnePass: a valid document is read by scanTree, not
// by the token reader, which allocates a path and a decoder round per
// value (a 64-node distance matrix: 4,096 numbers), and a repeated value is
// boxed once. A count of allocations, not a timing.
func TestParseJSONReadsInOnePass(t *testing.T) {
	doc := numaDoc(64)
	values := strings.Count(string(doc), ",") + 1
	perValue := func(read func([]byte) (any, error)) float64 {
		return testing.AllocsPerRun(5, func() {
			if _, err := read(doc); err != nil {
				t.Fatal(err)
			}
		}) / float64(values)
	}
	one, tokens := perValue(ParseJSON), perValue(parseTokens)
	t.Logf("allocations per value: ParseJSON %.2f, the token reader %.2f", one, tokens)
	// Its 4,096 numbers take 244 values, each boxed once (scanner.intern):
	// the lists' and maps' own allocations are left, about a quarter of one
	// per value.
	if one > 1 || one > tokens/4 {
		t.Errorf("ParseJSON allocates %.2f times per value of a valid document (the token reader: %.2f): it did not read it in one pass", one, tokens)
	}
}

// presetBodies are the bodies of every preset, the tests' and the shipped
// ones.
func presetBodies(t testing.TB) [][]byte {
	real, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	var docs [][]byte
	for _, set := range []*presets.Set{testPresets(t), real} {
		for _, p := range set.All() {
			docs = append(docs, p.Body)
		}
	}
	return docs
}

// numaDoc is a scenario of n nodes with an n×n distance matrix (as
// scenariotest.NUMA64, which imports this package).
func numaDoc(n int) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, `{"schedplay": 1, "machine": {"nodes": %d, "cores_per_node": 64, "distances": [`, n)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("[")
		for j := range n {
			if j > 0 {
				b.WriteString(",")
			}
			fmt.Fprint(&b, 10+(i*n+j)%244)
		}
		b.WriteString("]")
	}
	b.WriteString(`]}, "workload": {"groups": []}, "run": {"duration": "10ms"}}`)
	return []byte(b.String())
}
