package presets

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
)

// TestEmbeddedPresetsValid decodes every embedded file strictly: the lazy
// Load relies on it (an invalid embedded file would panic on first use).
func TestEmbeddedPresetsValid(t *testing.T) {
	eager, err := LoadFS(files)
	if err != nil {
		t.Fatal(err)
	}
	lazy, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if err := lazy.Validate(); err != nil {
		t.Fatal(err)
	}
	all := eager.All()
	if len(all) < 30 {
		t.Fatalf("only %d embedded presets", len(all))
	}
	for _, k := range Kinds {
		if len(eager.Names(k)) == 0 {
			t.Errorf("no %s presets", k)
		}
	}
	for _, p := range all {
		if !json.Valid(p.Body) || !bytes.HasPrefix(bytes.TrimSpace(p.Body), []byte("{")) {
			t.Errorf("%s/%s: body is not a JSON object", p.Kind, p.Name)
		}
	}
}

// TestLazyLoadMatchesEager: the lazily decoded set answers exactly what the
// eagerly decoded one does, in the same order, whatever is asked first.
func TestLazyLoadMatchesEager(t *testing.T) {
	eager, err := LoadFS(files)
	if err != nil {
		t.Fatal(err)
	}
	lazy, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range Kinds {
		if got, want := lazy.Names(k), eager.Names(k); !reflect.DeepEqual(got, want) {
			t.Errorf("Names(%s) = %v; want %v", k, got, want)
		}
	}
	// Get before All: the entries decoded on demand are the ones All returns.
	for _, p := range eager.All() {
		got, ok := lazy.Get(p.Kind, p.Name)
		if !ok || !reflect.DeepEqual(got, p) {
			t.Errorf("Get(%s, %s) = %+v, %v; want %+v", p.Kind, p.Name, got, ok, p)
		}
	}
	if got, want := lazy.All(), eager.All(); !reflect.DeepEqual(got, want) {
		t.Errorf("All() differs between lazy and eager loading")
	}
	if _, ok := lazy.Get(Machine, "no-such-machine"); ok {
		t.Error("Get of an unknown name succeeded")
	}
	if _, ok := lazy.Get(Policy, "vera"); ok {
		t.Error("Get found a machine under the policy kind")
	}
}

// TestLazyLoadConcurrent: the native server shares one Set between requests.
func TestLazyLoadConcurrent(t *testing.T) {
	ps, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, k := range Kinds {
				for _, n := range ps.Names(k) {
					if _, ok := ps.Get(k, n); !ok {
						t.Errorf("Get(%s, %s) failed", k, n)
					}
				}
			}
		}()
	}
	wg.Wait()
}

func TestOrderByPresetName(t *testing.T) {
	fsys := fstest.MapFS{
		"machine/a-b.json": {Data: []byte(`{"description": "d", "machine": {}}`)},
		"machine/a.json":   {Data: []byte(`{"description": "d", "machine": {}}`)},
	}
	for _, load := range []func() (*Set, error){func() (*Set, error) { return LoadFS(fsys) }, func() (*Set, error) { return load(fsys, false) }} {
		s, err := load()
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Names(Machine); !reflect.DeepEqual(got, []string{"a", "a-b"}) {
			t.Errorf("Names = %v; want [a a-b] (\"a\" before \"a-b\")", got)
		}
	}
}

// TestStrictDecoding: a bad file fails LoadFS and Validate, naming it; the
// lazy accessors refuse to hand out a broken preset.
func TestStrictDecoding(t *testing.T) {
	for _, tt := range []struct {
		name, data, want string
	}{
		{"malformed", `{"description": "d", "machine": {`, "machine/bad.json"},
		{"unknown key", `{"description": "d", "machine": {}, "colour": 1}`, "unknown field"},
		{"missing description", `{"machine": {}}`, "missing description"},
		{"blank description", `{"description": "  ", "machine": {}}`, "missing description"},
		{"missing body", `{"description": "d", "policy": {}}`, `missing "machine" object`},
		{"published on a machine", `{"description": "d", "machine": {}, "published": {"figure": "f", "source": "s"}}`, "published"},
	} {
		fsys := fstest.MapFS{
			"machine/good.json": {Data: []byte(`{"description": "d", "machine": {"nodes": 1}}`)},
			"machine/bad.json":  {Data: []byte(tt.data)},
		}
		if _, err := LoadFS(fsys); err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "machine/bad.json") {
			t.Errorf("%s: LoadFS error %v; want one naming machine/bad.json and %q", tt.name, err, tt.want)
		}
		lazy, err := load(fsys, false)
		if err != nil {
			t.Fatalf("%s: listing failed: %v", tt.name, err)
		}
		if p, ok := lazy.Get(Machine, "good"); !ok || string(p.Body) != `{"nodes": 1}` {
			t.Errorf("%s: Get(good) = %q, %v", tt.name, p.Body, ok)
		}
		if err := lazy.Validate(); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: Validate error %v; want %q", tt.name, err, tt.want)
		}
		func() {
			defer func() {
				if r := recover(); r == nil {
					t.Errorf("%s: Get of the broken preset did not refuse", tt.name)
				}
			}()
			lazy.Get(Machine, "bad")
		}()
	}
}

func TestZeroSet(t *testing.T) {
	var s Set
	if s.All() != nil || s.Names(Machine) != nil || s.Validate() != nil {
		t.Error("the zero Set is not empty")
	}
	if _, ok := s.Get(Machine, "x"); ok {
		t.Error("the zero Set found a preset")
	}
}

// A seed scenario's published figure (the story's source) has a figure,
// a source and an https link; the Vera SGEMM seeds carry theirs.
func TestPublishedFigures(t *testing.T) {
	ps, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	p, ok := ps.Get(Scenario, "vera-sgemm-nvpl")
	if !ok || p.Published == nil || !strings.Contains(p.Published.Figure, "10.297") || !strings.HasPrefix(p.Published.URL, "https://") {
		t.Errorf("vera-sgemm-nvpl published = %+v", p.Published)
	}
	for _, bad := range []string{`{"figure": "", "source": "s"}`, `{"figure": "f", "source": "s", "url": "http://x"}`} {
		fsys := fstest.MapFS{"scenario/s.json": {Data: []byte(`{"description": "d", "scenario": {"schedplay": 1}, "published": ` + bad + `}`)}}
		if _, err := LoadFS(fsys); err == nil || !strings.Contains(err.Error(), "published") {
			t.Errorf("published %s: error %v", bad, err)
		}
	}
}
