package site

import (
	"encoding/json"
	"fmt"
	"sort"
	"sync"

	"schedplay/presets"
)

// Preset is one named preset as GET /api/v1/presets lists it (the JSON form
// of presets.Preset), with its body decoded into a tree.
type Preset struct {
	Kind        string          `json:"kind"`
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Story       string          `json:"story,omitempty"`
	Body        json.RawMessage `json:"body"`
	Variants    []Variant       `json:"variants,omitempty"`
	Compare     []string        `json:"compare,omitempty"`
	// Published is the figure a seed scenario reproduces and its source.
	Published *presets.Published `json:"published,omitempty"`
	// tree is Body decoded, once, when first asked for (Tree): a page
	// opening one seed decodes the presets that seed uses, not every
	// preset (the large workloads cost a first visit tens of ms in wasm).
	tree *lazyTree
}

// lazyTree is a preset body's tree, decoded on first use.
type lazyTree struct {
	once sync.Once
	v    any
}

// Tree is the preset's body decoded into a tree (nil when it has none).
func (p Preset) Tree() any {
	t := p.tree
	if t == nil {
		return nil
	}
	t.once.Do(func() {
		if len(p.Body) > 0 {
			t.v, _ = ParseValue(string(p.Body)) // checked by presets' tests, or by newCatalog
		}
	})
	return t.v
}

// Variant is a named set of overrides of a seed scenario.
type Variant = presets.Variant

// Catalog holds every preset by kind, in the order the API lists them.
type Catalog struct {
	List []Preset
}

// EmbeddedCatalog is the catalog of the presets embedded in this binary:
// the list GET /api/v1/presets returns, without its JSON round trip.
func EmbeddedCatalog() (*Catalog, error) {
	ps, err := presets.Load()
	if err != nil {
		return nil, fmt.Errorf("presets: %w", err)
	}
	all := ps.All()
	list := make([]Preset, len(all))
	for i, p := range all {
		list[i] = Preset{Kind: string(p.Kind), Name: p.Name, Description: p.Description, Story: p.Story,
			Body: p.Body, Variants: p.Variants, Compare: p.Compare, Published: p.Published, tree: &lazyTree{}}
	}
	// The embedded bodies are checked by the presets' tests: each is
	// decoded when first used.
	return &Catalog{List: list}, nil
}

// ParseCatalog accepts the body of GET /api/v1/presets: a list of presets,
// an object with a "presets" list, or an object mapping kind → list.
func ParseCatalog(b []byte) (*Catalog, error) {
	var list []Preset
	if err := json.Unmarshal(b, &list); err != nil {
		var wrapped struct {
			Presets json.RawMessage `json:"presets"`
		}
		if err2 := json.Unmarshal(b, &wrapped); err2 != nil || len(wrapped.Presets) == 0 {
			return nil, fmt.Errorf("presets: %v", err)
		}
		if err := json.Unmarshal(wrapped.Presets, &list); err != nil {
			var byKind map[string][]Preset
			if err2 := json.Unmarshal(wrapped.Presets, &byKind); err2 != nil {
				return nil, fmt.Errorf("presets: %v", err)
			}
			kinds := make([]string, 0, len(byKind))
			for k := range byKind {
				kinds = append(kinds, k)
			}
			sort.Strings(kinds)
			for _, k := range kinds {
				for _, p := range byKind[k] {
					if p.Kind == "" {
						p.Kind = k
					}
					list = append(list, p)
				}
			}
		}
	}
	return newCatalog(list)
}

// newCatalog decodes each preset's body into its tree (a body from
// elsewhere is checked at once).
func newCatalog(list []Preset) (*Catalog, error) {
	for i := range list {
		var v any
		if len(list[i].Body) > 0 {
			var err error
			if v, err = ParseValue(string(list[i].Body)); err != nil {
				return nil, fmt.Errorf("preset %s/%s: %v", list[i].Kind, list[i].Name, err)
			}
		}
		list[i].tree = &lazyTree{v: v}
		list[i].tree.once.Do(func() {})
	}
	return &Catalog{List: list}, nil
}

// Get finds a preset.
func (c *Catalog) Get(kind, name string) (Preset, bool) {
	if c == nil {
		return Preset{}, false
	}
	for _, p := range c.List {
		if p.Kind == kind && p.Name == name {
			return p, true
		}
	}
	return Preset{}, false
}

// Names lists the presets of one kind.
func (c *Catalog) Names(kind string) []string {
	if c == nil {
		return nil
	}
	var out []string
	for _, p := range c.List {
		if p.Kind == kind {
			out = append(out, p.Name)
		}
	}
	return out
}

// Of lists the presets of one kind.
func (c *Catalog) Of(kind string) []Preset {
	if c == nil {
		return nil
	}
	var out []Preset
	for _, p := range c.List {
		if p.Kind == kind {
			out = append(out, p)
		}
	}
	return out
}

// ScenarioDoc returns a scenario preset's document.
func (c *Catalog) ScenarioDoc(name string) (Doc, bool) {
	p, ok := c.Get("scenario", name)
	if !ok {
		return nil, false
	}
	m, ok := p.Tree().(map[string]any)
	if !ok {
		return nil, false
	}
	return Doc(m), true
}

// DefaultDoc is the scenario shown when nothing else is asked for: small
// enough to run live (hikey960 + sysbench-cpu under mainline).
func DefaultDoc() Doc {
	d, _ := ParseDoc([]byte(DefaultScenarioJSON))
	return d
}

// DefaultScenarioJSON is the built-in default scenario.
const DefaultScenarioJSON = `{"schedplay":1,"name":"hikey960 DynamiQ, sysbench-cpu, 4 threads",` +
	`"machine":{"preset":"hikey960-dynamiq"},"policy":{"preset":"mainline"},` +
	`"workload":{"preset":"sysbench-cpu","groups":[{"name":"sysbench","count":4,` +
	`"program":[{"pool":"requests","total":10000,"do":[{"compute":"1ms"}]}]}]},` +
	`"run":{"duration":"100ms","until":"duration","seed":1,"reps":3}}`
