package scenario

import (
	"strings"
	"testing"

	"schedplay/presets"
)

// seedDocs adds every preset body (test and shipped) as a document and
// each section preset wrapped in a scenario.
func seedDocs(f *testing.F) []string {
	var out []string
	real, err := presets.Load()
	if err != nil {
		f.Fatal(err)
	}
	for _, set := range []*presets.Set{testPresets(f), real} {
		for _, p := range set.All() {
			if p.Kind == presets.Scenario {
				out = append(out, string(p.Body))
				continue
			}
			out = append(out, `{"schedplay": 1, "`+string(p.Kind)+`": `+string(p.Body)+`}`)
		}
	}
	return out
}

// FuzzDecode: Decode, Resolve, Encode never panic; an accepted document
// encodes canonically and round-trips.
func FuzzDecode(f *testing.F) {
	ps, err := presets.Load()
	if err != nil {
		f.Fatal(err)
	}
	for _, d := range seedDocs(f) {
		f.Add([]byte(d))
	}
	f.Add([]byte(`{"schedplay": 1, "preset": "vera-sgemm-nvpl", "run": {"reps": 2}, "policy": {"preset": "v6-on", "hz": 1000}}`))
	f.Add([]byte(`{"schedplay": 1, "preset": "vera-futex", "workload": {"groups": [{"name": "w", "count": 1, "program": [{"timed": "a\u0000", "do": [{"timed": "", "do": []}, {"do": [{"send": "x"}]}]}]}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Decode(data)
		if err != nil {
			if len(Errors(err)) == 0 {
				t.Fatalf("error without entries: %v", err)
			}
			return
		}
		enc, err := Encode(s)
		if err != nil {
			t.Fatalf("Encode of a decoded document: %v", err)
		}
		s2, err := Decode(enc)
		if err != nil {
			t.Fatalf("canonical form does not decode: %v\n%s", err, enc)
		}
		if enc2, _ := Encode(s2); string(enc2) != string(enc) {
			t.Fatalf("encoding not stable:\n%s\n%s", enc, enc2)
		}
		r1, err1 := Resolve(s, ps)
		r2, err2 := Resolve(s2, ps)
		if (err1 == nil) != (err2 == nil) || err1 == nil && !equalJSON(t, r1, r2) {
			t.Fatalf("resolve differs after round trip: %v / %v", err1, err2)
		}
	})
}

// FuzzDecodeShare: any link text decodes or fails with an error, never panics.
func FuzzDecodeShare(f *testing.F) {
	ps := testPresets(f)
	for _, d := range seedDocs(f) {
		s, err := Decode([]byte(d))
		if err != nil {
			continue
		}
		p, _ := EncodeShare(s)
		f.Add("https://schedplay.dev/#s=" + p)
		f.Add("#s=" + p[:len(p)/2])
	}
	f.Add("?preset=demo")
	f.Add("#s=" + deflateB64([]byte(strings.Repeat("x", 1<<16))))
	f.Fuzz(func(t *testing.T, link string) {
		s, err := DecodeShareURL(link, ps)
		if err == nil && s == nil {
			t.Fatal("nil scenario without error")
		}
	})
}

// FuzzParseSet: any override text parses or fails cleanly, and applying a
// parsed override never panics.
func FuzzParseSet(f *testing.F) {
	ps := testPresets(f)
	for _, a := range []string{"policy.hz=1000", "policy.preset=p-base", "workload.groups[0].count=22",
		"workload.groups[0].program[0].do[1]={\"sleep\": \"1ms\"}", "name=<b>", "machine.smt.yield=[1,1.2]", "run=1", "workload.groups[99999].x=1"} {
		f.Add(a)
	}
	real, err := presets.Load()
	if err != nil {
		f.Fatal(err)
	}
	for _, p := range real.All() {
		for _, v := range p.Variants {
			for _, o := range v.Set {
				f.Add(o.Path + "=" + string(o.Value))
			}
		}
		if p.Kind != presets.Scenario {
			f.Add(string(p.Kind) + ".preset=" + p.Name)
		}
	}
	base := mustDecode(f, `{"schedplay": 1, "preset": "demo"}`)
	f.Fuzz(func(t *testing.T, arg string) {
		o, err := ParseSet(arg)
		if err != nil {
			return
		}
		s, err := Apply(base, ps, []Override{o})
		if err != nil {
			return
		}
		_, _ = Resolve(s, ps)
	})
}
