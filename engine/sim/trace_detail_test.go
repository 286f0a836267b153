package sim

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// A traced wake-up through select_idle_capacity() lists the CPUs the scan
// considered, each with why it was passed over or kept.
func TestTraceIdleCapacityScanListsCPUs(t *testing.T) {
	doc := `{"schedplay":1,"machine":{"preset":"hikey960"},"policy":{"preset":"mainline"},
		"workload":{"groups":[
			{"name":"hog","count":3,"program":[{"compute":"100ms"}]},
			{"name":"tick","count":4,"program":[{"periodic":{"every":"1ms","do":[{"compute":"300us"}]}}]}]},
		"run":{"duration":"50ms","until":"duration","seed":1}}`
	res := mustRun(t, resolveJSON(t, doc), Options{Timeline: true})
	found := 0
	for _, d := range res.Timeline.Decisions {
		for i, step := range d.Path {
			if !strings.HasPrefix(step, "select_idle_capacity scan from ") {
				continue
			}
			if found == 0 {
				t.Logf("%+v", d.Path)
			}
			found++
			if !strings.Contains(step, " busy") && !strings.Contains(step, " idle ") {
				t.Errorf("scan step lists no CPU verdict: %q", step)
			}
			if i+1 >= len(d.Path) || !strings.HasPrefix(d.Path[i+1], "select_idle_capacity") {
				t.Errorf("scan step not followed by the select_idle_capacity outcome: %q", d.Path)
				continue
			}
			// The CPU the outcome names is listed as idle, unless past the cap.
			var cpu int
			if _, err := fmt.Sscanf(d.Path[i+1], "select_idle_capacity → cpu %d", &cpu); err == nil &&
				!strings.Contains(step, " more") && !strings.Contains(step, " "+strconv.Itoa(cpu)+" idle ") {
				t.Errorf("outcome cpu %d not listed idle in the scan: %q", cpu, step)
			}
		}
	}
	if found == 0 {
		t.Fatal("no traced select_idle_capacity scan")
	}
}

// A traced balance migration lists update_sd_lb_stats()'s group statistics
// (local and busiest) and calculate_imbalance()'s choice.
func TestTraceBalanceListsGroupStats(t *testing.T) {
	doc := `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":4,"threads_per_core":1},"policy":{"preset":"mainline"},
		"workload":{"groups":[
			{"name":"short","count":3,"cpus":"1-3","program":[{"compute":"10ms"}]},
			{"name":"long","count":4,"start":"1ms","program":[{"compute":"200ms"}]}]},
		"run":{"duration":"1s","seed":1}}`
	res := mustRun(t, resolveJSON(t, doc), Options{Timeline: true})
	found := 0
	for _, d := range res.Timeline.Decisions {
		if d.Kind == "wakeup" || d.Kind == "fork" || d.Kind == "exec" {
			continue
		}
		if found == 0 {
			t.Logf("%s: %q", d.Kind, d.Path)
		}
		found++
		var local, busiest, imb bool
		for _, step := range d.Path {
			local = local || strings.HasPrefix(step, "update_sd_lb_stats: group ") && strings.Contains(step, "(local)")
			busiest = busiest || strings.HasPrefix(step, "update_sd_lb_stats: group ") && strings.Contains(step, "(busiest)")
			imb = imb || strings.HasPrefix(step, "calculate_imbalance: migration_type migrate_")
			if strings.HasPrefix(step, "update_sd_lb_stats: group ") {
				for _, f := range []string{"sum_nr_running ", "idle_cpus ", "group_util ", "group_load ", "group_capacity "} {
					if !strings.Contains(step, f) {
						t.Errorf("group step lacks %q: %q", f, step)
					}
				}
			}
		}
		if !local || !busiest || !imb {
			t.Errorf("%s migration path lacks local/busiest stats or calculate_imbalance (%v %v %v): %q", d.Kind, local, busiest, imb, d.Path)
		}
	}
	if found == 0 {
		t.Fatal("no traced balance migration")
	}
}

// A timeline without decisions (Options.NoDecisions, the playground's quick
// first picture) has the same intervals and figures as the full one, with
// no decision records and no interval pointing at one.
func TestTimelineWithoutDecisions(t *testing.T) {
	r := resolve(t, "hikey960", "misfit", "sched-messaging", `{"duration":"40ms","until":"duration","seed":3}`)
	full := mustRun(t, r, Options{Timeline: true})
	runs := mustRun(t, r, Options{Timeline: true, NoDecisions: true})
	if len(full.Timeline.Decisions) == 0 {
		t.Fatal("the full timeline has no decisions")
	}
	if n := len(runs.Timeline.Decisions); n != 0 || !runs.Timeline.NoDecisions || full.Timeline.NoDecisions {
		t.Errorf("runs-only timeline has %d decisions (no_decisions %v; full: %v)", n, runs.Timeline.NoDecisions, full.Timeline.NoDecisions)
	}
	if fmt.Sprint(full.Reps) != fmt.Sprint(runs.Reps) {
		t.Errorf("figures differ:\n full %+v\n runs %+v", full.Reps, runs.Reps)
	}
	n := 0
	for cpu := range full.Timeline.Runs {
		a, b := full.Timeline.Runs[cpu], runs.Timeline.Runs[cpu]
		if len(a) != len(b) {
			t.Fatalf("cpu %d: %d intervals vs %d", cpu, len(a), len(b))
		}
		for i := range a {
			if b[i].Decision != -1 {
				t.Fatalf("cpu %d interval %d points at decision %d", cpu, i, b[i].Decision)
			}
			a[i].Decision = -1
			if a[i] != b[i] {
				t.Fatalf("cpu %d interval %d: %+v vs %+v", cpu, i, a[i], b[i])
			}
			n++
		}
	}
	if fmt.Sprint(full.Timeline.Modes) != fmt.Sprint(runs.Timeline.Modes) {
		t.Error("mode intervals differ")
	}
	if n == 0 {
		t.Fatal("no intervals")
	}
}
