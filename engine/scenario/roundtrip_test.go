package scenario

import (
	"encoding/json"
	"strings"
	"testing"

	"schedplay/presets"
)

func contains(s, sub string) bool { return strings.Contains(s, sub) }

func equalJSON(t testing.TB, a, b any) bool {
	t.Helper()
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	return string(ja) == string(jb)
}

// scenarioDocs returns every scenario document to round-trip: the test
// presets' and the shipped ones', each whole and as a preset reference.
func scenarioDocs(t testing.TB) map[string]struct {
	doc string
	ps  *presets.Set
} {
	out := map[string]struct {
		doc string
		ps  *presets.Set
	}{}
	tp := testPresets(t)
	real, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, set := range []*presets.Set{tp, real} {
		for _, p := range set.All() {
			if p.Kind != presets.Scenario {
				continue
			}
			out[string(p.Kind)+"/"+p.Name] = struct {
				doc string
				ps  *presets.Set
			}{string(p.Body), set}
			out["ref/"+p.Name] = struct {
				doc string
				ps  *presets.Set
			}{`{"schedplay": 1, "preset": "` + p.Name + `"}`, set}
		}
	}
	return out
}

// TestRoundTrip checks resolve(decode(encode(s))) == resolve(s), that the
// encoding is canonical (a fixed point), and that share links round-trip.
func TestRoundTrip(t *testing.T) {
	for name, c := range scenarioDocs(t) {
		t.Run(name, func(t *testing.T) {
			s := mustDecode(t, c.doc)
			r1, err := Resolve(s, c.ps)
			if err != nil {
				t.Fatalf("Resolve: %v", err)
			}
			enc, err := Encode(s)
			if err != nil {
				t.Fatal(err)
			}
			s2 := mustDecode(t, string(enc))
			enc2, _ := Encode(s2)
			if string(enc) != string(enc2) {
				t.Errorf("encoding is not a fixed point:\n%s\n%s", enc, enc2)
			}
			r2, err := Resolve(s2, c.ps)
			if err != nil {
				t.Fatalf("Resolve(decode(encode)): %v", err)
			}
			if !equalJSON(t, r1, r2) {
				t.Errorf("resolve(decode(encode(s))) != resolve(s)")
			}
			link, err := EncodeShare(s)
			if err != nil {
				t.Fatal(err)
			}
			s3, err := DecodeShareURL("https://example.org/play/?embed=1#s="+link+"&t0=5", c.ps)
			if err != nil {
				t.Fatalf("share: %v", err)
			}
			if enc3, _ := Encode(s3); string(enc3) != string(enc) {
				t.Errorf("share round trip changed the document:\n%s\n%s", enc, enc3)
			}
		})
	}
}

// TestRoundTripWithOverrides applies overrides then round-trips: the
// preset-plus-difference form must resolve like the edit it stores.
func TestRoundTripWithOverrides(t *testing.T) {
	ps := testPresets(t)
	s := mustDecode(t, `{"schedplay": 1, "preset": "demo"}`)
	var sets []Override
	for _, a := range []string{"workload.groups[0].count=2", "policy.hz=1000", "machine.smt.hold=3ms", "run.reps=4", "name=<script>alert(1)</script>"} {
		o, err := ParseSet(a)
		if err != nil {
			t.Fatal(err)
		}
		sets = append(sets, o)
	}
	s2, err := Apply(s, ps, sets)
	if err != nil {
		t.Fatal(err)
	}
	enc, _ := Encode(s2)
	if !contains(string(enc), `"preset":"spin"`) || !contains(string(enc), `"preset":"smt4"`) {
		t.Errorf("edited sections must keep their preset plus a difference: %s", enc)
	}
	r1, err := Resolve(s2, ps)
	if err != nil {
		t.Fatal(err)
	}
	r2, err := Resolve(mustDecode(t, string(enc)), ps)
	if err != nil {
		t.Fatal(err)
	}
	if !equalJSON(t, r1, r2) {
		t.Error("round trip after overrides changed the resolved scenario")
	}
	if r1.Workload.Groups[0].Count != 2 || r1.Policy.HZ != 1000 || r1.Run.Reps != 4 || r1.Machine.SMT.Hold.String() != "3ms" {
		t.Errorf("overrides not applied: %+v", r1)
	}
	if r1.Name != "<script>alert(1)</script>" || r1.Workload.Groups[0].Name != "spin" {
		t.Errorf("name = %q; want the string verbatim", r1.Name)
	}
}
