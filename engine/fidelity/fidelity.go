// Package fidelity checks schedplay against every published figure the
// project knows. A figure is data (figures.json): which seed scenario to
// run (variant, policy, overrides), which metric of its summary to read,
// optionally against a second run (a ratio or a change), the published
// value with its source, and a tolerance. Run simulates each distinct run
// once and returns one Row per figure; WriteText prints the table of
// `schedplay fidelity`, WriteMarkdown the generated part of
// docs/calibration.md. The model outputs are deterministic, so the
// tolerances are asserted by a Go test.
package fidelity

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

//go:embed figures.json
var figuresJSON []byte

// RunSpec is one simulation: a seed scenario preset with a variant, a
// policy preset and `--set`-style overrides ("path=value").
type RunSpec struct {
	Scenario string   `json:"scenario"`
	Variant  string   `json:"variant,omitempty"`
	Policy   string   `json:"policy,omitempty"`
	Set      []string `json:"set,omitempty"`
	// Blocks, when above 1, runs the scenario that many times, block k
	// with run.seed = seed + k·reps (Set holds run.seed=seed and
	// run.reps=reps), and reads every statistic over all the repetitions:
	// a spread set by episodes rarer than one repetition in tens needs
	// more repetitions than one run may have (run.reps ≤ 100).
	Blocks int `json:"blocks,omitempty"`
}

// blockSeeds returns the seed and repetition count of a blocked run's
// first block, from its run.seed= and run.reps= overrides.
func (r RunSpec) blockSeeds() (seed uint64, reps int, err error) {
	var haveSeed, haveReps bool
	for _, o := range r.Set {
		if v, ok := strings.CutPrefix(o, "run.seed="); ok {
			seed, err = strconv.ParseUint(v, 10, 64)
			haveSeed = err == nil
		}
		if v, ok := strings.CutPrefix(o, "run.reps="); ok {
			reps, err = strconv.Atoi(v)
			haveReps = err == nil && reps > 0
		}
	}
	if !haveSeed || !haveReps {
		return 0, 0, fmt.Errorf("blocks %d need run.seed=N and run.reps=N (N > 0) in set", r.Blocks)
	}
	return seed, reps, nil
}

// blockSeed is the run.seed of block k of a blocked run whose first block
// starts at seed and runs reps repetitions.
func blockSeed(seed uint64, reps, k int) uint64 { return seed + uint64(k*reps) }

// block is one block of a blocked run: the run, unblocked, with run.seed
// set to seed.
func (r RunSpec) block(seed uint64) RunSpec {
	b := r
	b.Blocks = 0
	b.Set = make([]string, 0, len(r.Set))
	for _, o := range r.Set {
		if strings.HasPrefix(o, "run.seed=") {
			o = "run.seed=" + strconv.FormatUint(seed, 10)
		}
		b.Set = append(b.Set, o)
	}
	return b
}

// checkBlocks reports a negative block count, or a blocked run without its
// first block's seed and repetition count.
func (r RunSpec) checkBlocks() error {
	if r.Blocks < 0 {
		return fmt.Errorf("blocks must not be negative")
	}
	if r.Blocks <= 1 {
		return nil
	}
	_, _, err := r.blockSeeds()
	return err
}

// key identifies a run for the cache (the same run serves every figure
// that reads it).
func (r RunSpec) key() string {
	b, _ := json.Marshal(r)
	return string(b)
}

// String is the run as the CLI would be told it, a command a POSIX shell
// (bash, zsh) passes on as written; a blocked run is a loop over its
// blocks' seeds.
func (r RunSpec) String() string {
	if r.Blocks > 1 {
		seed, reps, err := r.blockSeeds()
		if err == nil {
			seeds := make([]string, r.Blocks)
			for k := range seeds {
				seeds[k] = strconv.FormatUint(blockSeed(seed, reps, k), 10)
			}
			// Block 0's command with its seed left to the loop ($s unquoted).
			cmd := strings.Replace(r.block(seed).String(), " --set run.seed="+seeds[0], " --set run.seed=$s", 1)
			return "for s in " + strings.Join(seeds, " ") + "; do " + cmd + "; done"
		}
	}
	s := "schedplay run " + r.Scenario
	if r.Variant != "" {
		s += fmt.Sprintf(" --variant %q", r.Variant)
	}
	if r.Policy != "" {
		s += " --set " + shellWord("policy.preset="+r.Policy)
	}
	for _, o := range r.Set {
		s += " --set " + shellWord(o)
	}
	return s
}

// shellWord quotes s for a POSIX shell when it holds anything but
// letters, digits and -_.,:=/+@%: a value's own quotes
// (policy.generation="6.1", which unquoted is the number 6.1) and a path's
// brackets (workload.groups[0].cpus, a glob that zsh refuses) survive.
func shellWord(s string) string {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_.,:=/+@%", r)) {
			return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		}
	}
	return s
}

// Combine says how a figure's value comes from its runs.
type Combine string

const (
	CombineValue  Combine = ""       // the run's statistic
	CombineRatio  Combine = "ratio"  // run ÷ vs
	CombineChange Combine = "change" // run ÷ vs − 1
)

// Stat is the statistic of a metric over the repetitions.
type Stat string

const (
	StatMean   Stat = ""       // mean over the repetitions
	StatSpread Stat = "spread" // sample standard deviation ÷ mean
)

// Figure is one published figure and how schedplay reproduces it.
type Figure struct {
	Name string  `json:"name"`
	Run  RunSpec `json:"run"`
	// Vs is the second run of a ratio or change.
	Vs      *RunSpec `json:"vs,omitempty"`
	Combine Combine  `json:"combine,omitempty"`
	// Metric names a summary statistic (Metrics lists them) or
	// "timed:NAME" for a timed section's mean duration.
	Metric string `json:"metric"`
	Stat   Stat   `json:"stat,omitempty"`
	// Sample, with stat spread, is the number of runs behind a published
	// spread: the model's value is then the median, over disjoint samples
	// of that many repetitions (in seed order), of each sample's spread,
	// the value one such experiment typically reports. A run's spread over
	// all its repetitions weighs episodes a few runs never see (one
	// repetition in forty losing 1 % sets NVPL v6's).
	Sample int `json:"sample,omitempty"`
	// Published is the figure in the model's unit (Unit); Scale turns
	// both into the unit the table prints (e.g. 0.001 for TFLOP/s).
	Published float64 `json:"published"`
	Unit      string  `json:"unit"`
	Scale     float64 `json:"scale,omitempty"`
	// Source cites the figure; URL points at it when public.
	Source string `json:"source"`
	URL    string `json:"url,omitempty"`
	// Tolerance bounds |model ÷ published − 1|; for a change (a
	// difference around 0) or an Absolute figure it bounds |model −
	// published| instead.
	Tolerance float64 `json:"tolerance"`
	// Absolute judges a value by its difference, not its ratio: a
	// published 0 (a spread the source rounds to "±0 %") has no ratio.
	Absolute bool `json:"absolute,omitempty"`
	// KnownOff, when set, says why the model is known to miss this
	// figure; the row then reports the miss without failing the test.
	KnownOff string `json:"known_off,omitempty"`
}

// absolute says whether the tolerance bounds the difference from the
// published figure rather than the ratio to it.
func (f Figure) absolute() bool { return f.Combine == CombineChange || f.Absolute }

// Figures returns the project's published figures, in table order.
func Figures() ([]Figure, error) {
	return decodeFigures(figuresJSON)
}

// decodeFigures reads a figure table strictly and checks every figure.
func decodeFigures(b []byte) ([]Figure, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var figs []Figure
	if err := dec.Decode(&figs); err != nil {
		return nil, fmt.Errorf("figures.json: %w", err)
	}
	seen := map[string]bool{}
	for i, f := range figs {
		at := fmt.Sprintf("figures.json[%d] (%s)", i, f.Name)
		switch {
		case f.Name == "" || seen[f.Name]:
			return nil, fmt.Errorf("%s: name empty or repeated", at)
		case f.Run.Scenario == "":
			return nil, fmt.Errorf("%s: run.scenario missing", at)
		}
		if err := f.Run.checkBlocks(); err != nil {
			return nil, fmt.Errorf("%s: run: %w", at, err)
		}
		if f.Vs != nil {
			if err := f.Vs.checkBlocks(); err != nil {
				return nil, fmt.Errorf("%s: vs: %w", at, err)
			}
		}
		switch {
		case (f.Combine == CombineValue) != (f.Vs == nil):
			return nil, fmt.Errorf("%s: a ratio or change needs vs, a value has none", at)
		case f.Combine != CombineValue && f.Combine != CombineRatio && f.Combine != CombineChange:
			return nil, fmt.Errorf("%s: combine %q is not ratio or change", at, f.Combine)
		case f.Stat != StatMean && f.Stat != StatSpread:
			return nil, fmt.Errorf("%s: stat %q is not spread", at, f.Stat)
		case f.Sample != 0 && (f.Stat != StatSpread || f.Sample < 2 || repMetrics[f.Metric] == nil):
			return nil, fmt.Errorf("%s: sample %d needs stat spread, a sample of 2 runs or more and a metric of %s", at, f.Sample, strings.Join(repMetricNames(), ", "))
		case !knownMetric(f.Metric):
			return nil, fmt.Errorf("%s: metric %q is not one of %s or timed:NAME", at, f.Metric, strings.Join(Metrics(), ", "))
		case f.Source == "":
			return nil, fmt.Errorf("%s: source missing", at)
		case f.Tolerance <= 0:
			return nil, fmt.Errorf("%s: tolerance must be positive", at)
		case !f.absolute() && f.Published == 0:
			return nil, fmt.Errorf("%s: published value missing (a published 0 needs \"absolute\": true)", at)
		case f.Absolute && f.Combine == CombineChange:
			return nil, fmt.Errorf("%s: a change is always judged by its difference; leave out \"absolute\"", at)
		}
		seen[f.Name] = true
	}
	return figs, nil
}
