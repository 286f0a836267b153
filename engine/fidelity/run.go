package fidelity

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"schedplay/engine/scenario"
	"schedplay/engine/sim"
	"schedplay/presets"
)

// metrics maps a metric name to its summary statistic.
var metrics = map[string]func(s *sim.Summary) sim.Stat{
	"throughput":       func(s *sim.Summary) sim.Stat { return s.Throughput },
	"completion_ns":    func(s *sim.Summary) sim.Stat { return s.Completion },
	"mode_transitions": func(s *sim.Summary) sim.Stat { return s.ModeTransitions },
	"pe_alternations":  func(s *sim.Summary) sim.Stat { return s.PEAlternations },
	"migrations":       func(s *sim.Summary) sim.Stat { return s.Migrations },
	"context_switches": func(s *sim.Summary) sim.Stat { return s.ContextSwitches },
	"latency_p50_ns":   func(s *sim.Summary) sim.Stat { return s.LatencyP50 },
	"latency_p99_ns":   func(s *sim.Summary) sim.Stat { return s.LatencyP99 },
	"latency_p999_ns":  func(s *sim.Summary) sim.Stat { return s.LatencyP999 },
	"latency_max_ns":   func(s *sim.Summary) sim.Stat { return s.LatencyMax },
	"op_time_ns":       func(s *sim.Summary) sim.Stat { return s.OpTime },
}

// Metrics lists the metric names a figure may read (besides timed:NAME).
func Metrics() []string {
	var names []string
	for k := range metrics {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}

func knownMetric(m string) bool {
	if name, ok := strings.CutPrefix(m, "timed:"); ok {
		return name != ""
	}
	return metrics[m] != nil
}

// statOf reads metric m of a summary.
func statOf(s *sim.Summary, m string) (sim.Stat, error) {
	if name, ok := strings.CutPrefix(m, "timed:"); ok {
		for _, t := range s.Timed {
			if t.Name == name {
				return t.Time, nil
			}
		}
		return sim.Stat{}, fmt.Errorf("no timed section %q", name)
	}
	return metrics[m](s), nil
}

// repMetrics maps the metrics a sampled spread can read to their value in
// one repetition (not completion_ns: a repetition cut off by run.duration
// has none, and the summary leaves it out).
var repMetrics = map[string]func(r *sim.RepMetrics) float64{
	"throughput": func(r *sim.RepMetrics) float64 { return r.Throughput },
}

// repMetricNames lists repMetrics' names, sorted.
func repMetricNames() []string {
	out := make([]string, 0, len(repMetrics))
	for k := range repMetrics {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// sampledSpread is the median, over disjoint samples of n repetitions of
// rs in order, of each sample's sample standard deviation ÷ mean.
func sampledSpread(rs []*sim.Result, m string, n int) (float64, error) {
	get := repMetrics[m]
	var vals, spreads []float64
	for _, res := range rs {
		for i := range res.Reps {
			vals = append(vals, get(&res.Reps[i]))
		}
	}
	for i := 0; i+n <= len(vals); i += n {
		st := sim.StatOf(vals[i : i+n])
		if st.Mean == 0 {
			return 0, fmt.Errorf("%s: spread of a zero mean", m)
		}
		spreads = append(spreads, st.Stddev/st.Mean)
	}
	if len(spreads) == 0 {
		return 0, fmt.Errorf("%s: %d repetitions hold no sample of %d", m, len(vals), n)
	}
	slices.Sort(spreads)
	k := len(spreads) / 2
	if len(spreads)%2 == 1 {
		return spreads[k], nil
	}
	return (spreads[k-1] + spreads[k]) / 2, nil
}

// value is the statistic st of metric m over the repetitions of every
// result (the blocks of one run); a sampled spread (sample > 0) is
// sampledSpread's.
func value(rs []*sim.Result, m string, st Stat, sample int) (float64, error) {
	if st == StatSpread && sample > 0 {
		return sampledSpread(rs, m, sample)
	}
	sts := make([]sim.Stat, len(rs))
	for i, res := range rs {
		var err error
		if sts[i], err = statOf(&res.Summary, m); err != nil {
			return 0, err
		}
	}
	v := poolStats(sts)
	if st == StatSpread {
		if v.Mean == 0 {
			return 0, fmt.Errorf("%s: spread of a zero mean", m)
		}
		return v.Stddev / v.Mean, nil
	}
	return v.Mean, nil
}

// poolStats is one statistic over the repetitions of several runs, from
// each run's count, mean and sample standard deviation: the mean weighted
// by the counts, and the sample variance from the sums of squares within
// and between the runs (deviations from the means, so that the means'
// size does not cancel the spread's digits).
func poolStats(sts []sim.Stat) sim.Stat {
	if len(sts) == 1 {
		return sts[0]
	}
	out := sim.Stat{Min: math.Inf(1), Max: math.Inf(-1)}
	var sum float64
	for _, s := range sts {
		out.N += s.N
		sum += float64(s.N) * s.Mean
		out.Min, out.Max = min(out.Min, s.Min), max(out.Max, s.Max)
	}
	if out.N == 0 {
		return sim.Stat{}
	}
	out.Mean = sum / float64(out.N)
	var ss float64
	for _, s := range sts {
		d := s.Mean - out.Mean
		ss += float64(max(s.N-1, 0))*s.Stddev*s.Stddev + float64(s.N)*d*d
	}
	if out.N > 1 {
		out.Stddev = math.Sqrt(ss / float64(out.N-1))
	}
	return out
}

// Row is one figure's outcome.
type Row struct {
	Figure
	Model float64 // the model's value, in the figure's unit
	// Off is the model's departure: model ÷ published − 1, or for a
	// change or an absolute figure model − published.
	Off    float64
	Within bool
	Err    error // the run failed or the metric is missing
}

// Runner runs the simulations of a figure table, each distinct run once.
type Runner struct {
	Presets *presets.Set
	// Progress, when set, hears about each simulation before it starts.
	Progress func(run RunSpec)
	cache    map[string]*sim.Result
}

// Resolve expands a run into the scenario the engine runs, as `schedplay
// run` does (the serve budget): the seed preset, its variant, the policy,
// then the overrides.
func (r *Runner) Resolve(spec RunSpec) (*scenario.Resolved, error) {
	p, ok := r.Presets.Get(presets.Scenario, spec.Scenario)
	if !ok {
		return nil, fmt.Errorf("no scenario preset %q", spec.Scenario)
	}
	doc, err := scenario.Decode(p.Body)
	if err != nil {
		return nil, err
	}
	var ovs []scenario.Override
	if spec.Variant != "" {
		i := slices.IndexFunc(p.Variants, func(v presets.Variant) bool { return v.Name == spec.Variant })
		if i < 0 {
			return nil, fmt.Errorf("scenario %s has no variant %q", spec.Scenario, spec.Variant)
		}
		ovs = append(ovs, p.Variants[i].Set...)
	}
	sets := spec.Set
	if spec.Policy != "" {
		sets = append([]string{"policy.preset=" + spec.Policy}, sets...)
	}
	for _, s := range sets {
		o, err := scenario.ParseSet(s)
		if err != nil {
			return nil, err
		}
		ovs = append(ovs, o)
	}
	if doc, err = scenario.Apply(doc, r.Presets, ovs); err != nil {
		return nil, err
	}
	return scenario.Resolve(doc, r.Presets)
}

// result runs spec (or returns its cached result).
func (r *Runner) result(ctx context.Context, spec RunSpec) (*sim.Result, error) {
	if r.cache == nil {
		r.cache = map[string]*sim.Result{}
	}
	k := spec.key()
	if res, ok := r.cache[k]; ok {
		return res, nil
	}
	res0, err := r.Resolve(spec)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", spec, err)
	}
	if r.Progress != nil {
		r.Progress(spec)
	}
	res, err := sim.Run(ctx, res0, sim.Options{})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", spec, err)
	}
	r.cache[k] = res
	return res, nil
}

// results runs spec, or each block of a blocked spec (RunSpec.Blocks).
func (r *Runner) results(ctx context.Context, spec RunSpec) ([]*sim.Result, error) {
	if spec.Blocks <= 1 {
		res, err := r.result(ctx, spec)
		if err != nil {
			return nil, err
		}
		return []*sim.Result{res}, nil
	}
	seed, reps, err := spec.blockSeeds()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", spec, err)
	}
	out := make([]*sim.Result, spec.Blocks)
	for k := range out {
		if out[k], err = r.result(ctx, spec.block(blockSeed(seed, reps, k))); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Run computes every figure's row, in order. A failed run fails its rows
// (Row.Err), not the table; ctx cancels the whole.
func (r *Runner) Run(ctx context.Context, figs []Figure) ([]Row, error) {
	rows := make([]Row, 0, len(figs))
	for _, f := range figs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		row := Row{Figure: f}
		row.Model, row.Err = r.model(ctx, f)
		if row.Err == nil {
			row.Off, row.Within = judge(f, row.Model)
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// model is the model's value of figure f.
func (r *Runner) model(ctx context.Context, f Figure) (float64, error) {
	res, err := r.results(ctx, f.Run)
	if err != nil {
		return 0, err
	}
	v, err := value(res, f.Metric, f.Stat, f.Sample)
	if err != nil || f.Combine == CombineValue {
		return v, err
	}
	resB, err := r.results(ctx, *f.Vs)
	if err != nil {
		return 0, err
	}
	w, err := value(resB, f.Metric, f.Stat, f.Sample)
	if err != nil {
		return 0, err
	}
	if w == 0 {
		return 0, fmt.Errorf("%s: the vs run's value is 0", f.Metric)
	}
	if f.Combine == CombineChange {
		return v/w - 1, nil
	}
	return v / w, nil
}

// judge is the departure of model from the published figure and whether
// it is within the figure's tolerance.
func judge(f Figure, model float64) (off float64, within bool) {
	if f.absolute() {
		off = model - f.Published
	} else {
		off = model/f.Published - 1
	}
	return off, math.Abs(off) <= f.Tolerance
}
