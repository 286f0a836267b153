package scenario_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"schedplay/engine/budget"
	"schedplay/engine/scenario"
	"schedplay/engine/scenario/scenariotest"
	"schedplay/engine/topo"
	"schedplay/presets"
)

func loadPresets(t testing.TB) *presets.Set {
	t.Helper()
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

func decode(t testing.TB, doc string) *scenario.Scenario {
	t.Helper()
	s, err := scenario.Decode([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestHostileCorpusBudgets re-runs the scenario rows of issue 17 through
// the cost model: each is refused at once (before its topology is built)
// with the field that makes it expensive and the budget it exceeds, or fits
// the budget.
func TestHostileCorpusBudgets(t *testing.T) {
	ps := loadPresets(t)
	for _, tt := range []struct {
		name    string
		doc     string
		profile budget.Profile
		out     scenario.Output
		path    string // "" when it fits
		budget  string
	}{
		{"NUMA64 on serve", scenariotest.NUMA64(), budget.Serve, scenario.Output{}, "", ""},
		{"NUMA64 in the browser", scenariotest.NUMA64(), budget.Browser, scenario.Output{}, "machine.distances", "domains"},
		{"NUMA64 on the Worker", scenariotest.NUMA64(), budget.Worker, scenario.Output{}, "machine.distances", "domains"},
		{"ping-pong 9.9M × 4 fits serve (its samples go into fixed histograms)", scenariotest.PingPong(9_900_000, 4), budget.Serve, scenario.Output{}, "", ""},
		{"ping-pong 9.9M × 4 on the Worker", scenariotest.PingPong(9_900_000, 4), budget.Worker, scenario.Output{}, "workload.groups[0]", "events"},
		{"ping-pong 100k fits the Worker", scenariotest.PingPong(100_000, 4), budget.Worker, scenario.Output{}, "", ""},
		// futex calls take the machine's syscall and futex paths, so a loop
		// of them is capped by the run duration (perf bench futex hash)
		{"a billion futex calls a thread for 10 ms fit serve", futexLoop("10ms"), budget.Serve, scenario.Output{}, "", ""},
		{"a billion futex calls a thread for 10 s", futexLoop("10s"), budget.Serve, scenario.Output{}, "workload.groups[0]", "events"},
		{"16,384 tasks with a full timeline on the Worker", `{"schedplay": 1, "machine": {"preset": "vera"}, "workload": {"groups": [{"name": "` + strings.Repeat("n", 200) + `", "count": 16384, "program": [{"repeat": 20, "do": [{"compute": "1ms"}, {"sleep": "1ms"}]}]}]}, "run": {"duration": "100ms"}}`,
			budget.Worker, scenario.Output{Timeline: true, Decisions: true}, "timeline", "memory"},
		{"the same with the runs-only timeline on serve", `{"schedplay": 1, "machine": {"preset": "vera"}, "workload": {"groups": [{"name": "` + strings.Repeat("n", 200) + `", "count": 16384, "program": [{"repeat": 20, "do": [{"compute": "1ms"}, {"sleep": "1ms"}]}]}]}, "run": {"duration": "100ms"}}`,
			budget.Serve, scenario.Output{Timeline: true}, "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, err := scenario.Prepare(context.Background(), decode(t, tt.doc), ps, scenario.Budget{Profile: tt.profile, Output: tt.out})
			var be *budget.Error
			switch {
			case tt.path == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tt.path == "":
				c := scenario.CostOf(r, scenario.Budget{Profile: tt.profile, Output: tt.out})
				if c.Memory > tt.profile.Memory {
					t.Errorf("admitted with %s of memory over the budget %s", budget.Bytes(c.Memory), budget.Bytes(tt.profile.Memory))
				}
			case !errors.As(err, &be):
				t.Fatalf("got %v; want a %s budget refusal at %s", err, tt.budget, tt.path)
			case be.Path != tt.path || be.Budget != tt.budget || !strings.Contains(be.Msg, "the "+tt.profile.Name+" budget"):
				t.Errorf("refused at %s (%s budget): %s; want the %s budget at %s", be.Path, be.Budget, be.Msg, tt.budget, tt.path)
			}
		})
	}
}

// futexLoop is perf bench futex hash on Vera for d: 352 pinned threads,
// each calling futex() a billion times on its own word.
func futexLoop(d string) string {
	return `{"schedplay": 1, "machine": {"preset": "vera"}, "workload": {"groups": [{"name": "h", "count": 352, "pin": "each", "program": [{"repeat": 1000000000, "do": [{"send": "f{i}", "ipc": "futex"}]}]}]}, "run": {"duration": "` + d + `"}}`
}

// TestNUMA64Estimate: the cost model counts the sched domains of the
// 244-distance machine (1 million: every CPU builds a level per distinct
// distance up to its node's farthest) from the document alone.
func TestNUMA64Estimate(t *testing.T) {
	ps := loadPresets(t)
	b := scenario.Budget{Profile: budget.Serve}
	r, err := scenario.Prepare(context.Background(), decode(t, scenariotest.NUMA64()), ps, b)
	if err != nil {
		t.Fatal(err)
	}
	c := scenario.CostOf(r, b)
	if c.CPUs != 4096 || c.Domains < 0.9e6 || c.Domains > 4096*(4+244) || c.DomainsPath != "machine.distances" {
		t.Errorf("cost %+v; want about 1 million domains on 4096 CPUs, named at machine.distances", c)
	}
	vera, err := scenario.Prepare(context.Background(), decode(t, `{"schedplay": 1, "preset": "vera-sgemm-nvpl"}`), ps, b)
	if err != nil {
		t.Fatal(err)
	}
	if c := scenario.CostOf(vera, b); c.Domains > 352*5 {
		t.Errorf("Vera: %v domains; want at most 352 CPUs × 5 levels", c.Domains)
	}
}

// TestPresetsFitEveryProfile: every seed scenario, with its full timeline,
// runs and compares under every profile (the Worker included: a sweep fans
// presets out to it), and each of its variants runs in the page and under
// serve (the CLI, and schedplay fidelity's commands). The 2160-loop
// messaging variants are too large for a Worker request.
func TestPresetsFitEveryProfile(t *testing.T) {
	ps := loadPresets(t)
	out := scenario.Output{Timeline: true, Decisions: true}
	for _, name := range ps.Names(presets.Scenario) {
		for _, p := range []budget.Profile{budget.Browser, budget.Serve, budget.Worker} {
			b := scenario.Budget{Profile: p, Output: out, Runs: 2}
			if _, err := scenario.Prepare(context.Background(), decode(t, `{"schedplay": 1, "preset": "`+name+`"}`), ps, b); err != nil {
				t.Errorf("%s under the %s budget: %v", name, p.Name, err)
			}
		}
		pr, _ := ps.Get(presets.Scenario, name)
		for _, v := range pr.Variants {
			doc, err := scenario.Apply(decode(t, `{"schedplay": 1, "preset": "`+name+`"}`), ps, v.Set)
			if err != nil {
				t.Fatalf("%s, %s: %v", name, v.Name, err)
			}
			for _, p := range []budget.Profile{budget.Browser, budget.Serve} {
				if _, err := scenario.Prepare(context.Background(), doc, ps, scenario.Budget{Profile: p, Output: out}); err != nil {
					t.Errorf("%s, %s under the %s budget: %v", name, v.Name, p.Name, err)
				}
			}
		}
	}
}

// TestTopologyBuiltOnce: the topology the validation builds is the one a
// copy of the resolved scenario (the simulator's) runs on; a copy whose
// machine changed gets its own.
func TestTopologyBuiltOnce(t *testing.T) {
	ps := loadPresets(t)
	r, err := scenario.Resolve(decode(t, `{"schedplay": 1, "preset": "vera-sgemm-nvpl"}`), ps)
	if err != nil {
		t.Fatal(err)
	}
	t1, err := r.Topology(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	rr := r.WithDefaults()
	t2, _ := rr.Topology(context.Background())
	if t1 != t2 {
		t.Error("the defaulted copy built the topology again")
	}
	rr.Policy.AsymPacking = &[]topo.Level{topo.LevelPKG}
	t3, err := rr.Topology(context.Background())
	if err != nil || t3 == t1 {
		t.Errorf("a changed policy kept the old topology (%v)", err)
	}
}

// TestTopologyBuildStops: a done context stops the topology build.
func TestTopologyBuildStops(t *testing.T) {
	ps := loadPresets(t)
	r, err := scenario.Prepare(context.Background(), decode(t, scenariotest.NUMA64()), ps, scenario.Budget{Profile: budget.Serve})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := r.Topology(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("built under a cancelled context: %v", err)
	}
}

// TestApplyManySets: 16,384 appends (1.48 MB, 110 s of CPU when every
// override expanded and diffed its section again) are refused at once;
// 1,024 are applied in one pass; a done context stops it.
func TestApplyManySets(t *testing.T) {
	ps := loadPresets(t)
	sets := func(n int) []scenario.Override {
		out := make([]scenario.Override, n)
		for i := range out {
			out[i] = scenario.Override{Path: fmt.Sprintf("workload.groups[%d]", i), Value: []byte(`{"name": "g", "count": 1, "program": [{"compute": "1ms"}]}`)}
		}
		return out
	}
	base := decode(t, `{"schedplay": 1, "machine": {"preset": "x86-smt"}, "workload": {"groups": []}}`)
	if _, err := scenario.Apply(base, ps, sets(16384)); err == nil || !strings.Contains(err.Error(), "16384 overrides; the limit is 1024") {
		t.Errorf("16,384 overrides: %v", err)
	}
	doc, err := scenario.Apply(base, ps, sets(1024))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(doc.Workload), `"name":"g"`); n != 1024 {
		t.Errorf("%d groups after 1024 appends", n)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := scenario.ApplyContext(ctx, base, ps, sets(10)); !errors.Is(err, context.Canceled) {
		t.Errorf("applied under a cancelled context: %v", err)
	}
}

// TestCostOfInstancePrograms: a group whose channel names hold {i} is
// compiled once per task, so its memory estimate holds count × steps
// compiled steps more than the same group reading one channel.
func TestCostOfInstancePrograms(t *testing.T) {
	doc := func(ch string) *scenario.Resolved {
		return scenariotest.Resolve(t, `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":4,"threads_per_core":1},
			"workload":{"groups":[{"name":"rx","count":100,"program":[{"repeat":10,"do":[{"recv":"`+ch+`"},{"compute":"1us"}]}]}]},"run":{"duration":"10ms"}}`)
	}
	b := scenario.Budget{Profile: budget.Serve}
	per, one := scenario.CostOf(doc("r{i}"), b), scenario.CostOf(doc("r"), b)
	if got, want := per.Memory-one.Memory, float64(100*3*budget.InstanceStepBytes); got != want {
		t.Errorf("memory per-task programs: %.0f bytes more; want %.0f (100 tasks × 3 steps)", got, want)
	}
	if per.EventsPerRep != one.EventsPerRep {
		t.Errorf("events %v vs %v: the channel names do not change the work", per.EventsPerRep, one.EventsPerRep)
	}
}
