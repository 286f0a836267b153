// Package presets holds schedplay's named machines, policies, workloads and
// seed scenarios as embedded JSON data files, one file per preset:
//
//	presets/machine/<name>.json   {"description": "...", "machine":  {...}}
//	presets/policy/<name>.json    {"description": "...", "policy":   {...}}
//	presets/workload/<name>.json  {"description": "...", "workload": {...}}
//	presets/scenario/<name>.json  {"description": "...", "story": "...", "scenario": {...}, "variants": [...]}
//	presets/generation/<name>.json {"description": "...", "generation": {"features": {...}}}
//
// The file name (without .json) is the preset name. See README.md here.
package presets

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"
)

//go:embed machine policy workload scenario generation
var files embed.FS

// Kind is a preset's section kind.
type Kind string

// The preset kinds, also the directory names. A generation is the fair.c
// generation a policy models (its feature flags and function forms); a
// policy names one in its "generation" field.
const (
	Machine    Kind = "machine"
	Policy     Kind = "policy"
	Workload   Kind = "workload"
	Scenario   Kind = "scenario"
	Generation Kind = "generation"
)

// Kinds lists the kinds in display order.
var Kinds = []Kind{Scenario, Machine, Policy, Workload, Generation}

// Variant is a named set of overrides of a seed scenario (e.g. one thread
// count of a scaling experiment).
type Variant struct {
	Name string     `json:"name"`
	Set  []Override `json:"set"`
}

// Override is one path=value override, as `--set` takes it.
type Override struct {
	Path  string          `json:"path"`
	Value json.RawMessage `json:"value"`
}

// Preset is one named preset.
type Preset struct {
	Kind        Kind   `json:"kind"`
	Name        string `json:"name"`
	Description string `json:"description"`
	// Story is the one-line result a scenario demonstrates (scenarios only).
	Story string `json:"story,omitempty"`
	// Body is the section object (or the whole scenario document).
	Body json.RawMessage `json:"body"`
	// Variants of a seed scenario (scenarios only).
	Variants []Variant `json:"variants,omitempty"`
	// Compare names the policies a seed scenario is meant to compare.
	Compare []string `json:"compare,omitempty"`
	// Published is the published figure a seed scenario reproduces and
	// where it was published (absent: it shows a mechanism, with no
	// published figure to hold it to).
	Published *Published `json:"published,omitempty"`
}

// Published is a published figure and its source (a mail, a pull
// request): what the playground's seed story states and links.
type Published struct {
	Figure string `json:"figure"`
	Source string `json:"source"`
	URL    string `json:"url,omitempty"`
}

// Set is the collection of presets. The zero value is empty. Load (the
// embedded files) lists the files and decodes each one the first time it
// is asked for: a request that names three presets decodes three files,
// which matters where every request starts a fresh process (the engine
// Web Worker). LoadFS decodes every file at once. Either way a file is
// decoded strictly, and the embedded ones are all checked by this
// package's tests (TestEmbeddedPresetsValid).
type Set struct {
	fsys   fs.FS
	list   []*entry
	byName map[Kind]map[string]int
}

// entry is one preset file, decoded on first use.
type entry struct {
	kind Kind
	name string
	file string
	once sync.Once
	p    Preset
	err  error
}

// fileFormat is a preset file; exactly one body key is set.
type fileFormat struct {
	Description string          `json:"description"`
	Story       string          `json:"story,omitempty"`
	Machine     json.RawMessage `json:"machine,omitempty"`
	Policy      json.RawMessage `json:"policy,omitempty"`
	Workload    json.RawMessage `json:"workload,omitempty"`
	Scenario    json.RawMessage `json:"scenario,omitempty"`
	Generation  json.RawMessage `json:"generation,omitempty"`
	Variants    []Variant       `json:"variants,omitempty"`
	Compare     []string        `json:"compare,omitempty"`
	Published   *Published      `json:"published,omitempty"`
}

// Load lists the embedded preset files; each is decoded when first used
// (Get, All). The embedded files are valid (TestEmbeddedPresetsValid);
// Validate decodes them all.
func Load() (*Set, error) { return load(files, false) }

// LoadFS reads preset files laid out as in this directory from fsys (tests
// and tools use it with their own files). It fails, naming the file, on a
// malformed file, an unknown key, a missing description or body.
func LoadFS(fsys fs.FS) (*Set, error) { return load(fsys, true) }

func load(fsys fs.FS, eager bool) (*Set, error) {
	s := &Set{fsys: fsys, byName: map[Kind]map[string]int{}}
	for _, k := range Kinds {
		s.byName[k] = map[string]int{}
		names, err := fs.Glob(fsys, string(k)+"/*.json")
		if err != nil {
			return nil, err
		}
		// Sort by preset name, not file name ("hikey960" before "hikey960-dynamiq").
		sort.Slice(names, func(i, j int) bool {
			return strings.TrimSuffix(names[i], ".json") < strings.TrimSuffix(names[j], ".json")
		})
		for _, fn := range names {
			e := &entry{kind: k, name: strings.TrimSuffix(path.Base(fn), ".json"), file: fn}
			s.byName[k][e.name] = len(s.list)
			s.list = append(s.list, e)
		}
	}
	if eager {
		if err := s.Validate(); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Validate decodes every preset file not decoded yet and returns the first
// error, naming the file.
func (s *Set) Validate() error {
	for _, e := range s.list {
		if _, err := s.decode(e); err != nil {
			return err
		}
	}
	return nil
}

// decode returns the entry's preset, decoding its file once.
func (s *Set) decode(e *entry) (Preset, error) {
	e.once.Do(func() {
		e.p, e.err = loadFile(s.fsys, e.kind, e.file)
		if e.err != nil {
			e.err = fmt.Errorf("preset %s: %w", e.file, e.err)
		}
	})
	return e.p, e.err
}

// preset is decode for the accessors: an invalid file among the embedded
// ones is a defect of the build (the package's tests fail on it), and
// LoadFS has decoded its files already, so an error here panics.
func (s *Set) preset(e *entry) Preset {
	p, err := s.decode(e)
	if err != nil {
		panic(err)
	}
	return p
}

func loadFile(fsys fs.FS, k Kind, fn string) (Preset, error) {
	data, err := fs.ReadFile(fsys, fn)
	if err != nil {
		return Preset{}, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f fileFormat
	if err := dec.Decode(&f); err != nil {
		return Preset{}, err
	}
	body := map[Kind]json.RawMessage{Machine: f.Machine, Policy: f.Policy, Workload: f.Workload, Scenario: f.Scenario, Generation: f.Generation}[k]
	if len(body) == 0 {
		return Preset{}, fmt.Errorf("missing %q object", k)
	}
	if strings.TrimSpace(f.Description) == "" {
		return Preset{}, fmt.Errorf("missing description")
	}
	if pb := f.Published; pb != nil && (k != Scenario || strings.TrimSpace(pb.Figure) == "" || strings.TrimSpace(pb.Source) == "" ||
		pb.URL != "" && !strings.HasPrefix(pb.URL, "https://")) {
		return Preset{}, fmt.Errorf("published: a seed scenario's figure and source, and an https url")
	}
	name := strings.TrimSuffix(path.Base(fn), ".json")
	return Preset{Kind: k, Name: name, Description: f.Description, Story: f.Story,
		Body: body, Variants: f.Variants, Compare: f.Compare, Published: f.Published}, nil
}

// Get returns the preset of kind k named name.
func (s *Set) Get(k Kind, name string) (Preset, bool) {
	i, ok := s.byName[k][name]
	if !ok {
		return Preset{}, false
	}
	return s.preset(s.list[i]), true
}

// Names returns the sorted names of kind k.
func (s *Set) Names(k Kind) []string {
	var out []string
	for _, e := range s.list {
		if e.kind == k {
			out = append(out, e.name)
		}
	}
	return out
}

// All returns every preset, grouped by kind in Kinds order, sorted by name.
func (s *Set) All() []Preset {
	var out []Preset
	for _, e := range s.list {
		out = append(out, s.preset(e))
	}
	return out
}
