package scenario

import "encoding/json"

// Fields inside lists whose zero value the engine reads as "absent":
// program steps are told apart by which fields are non-zero and the engine
// posts max(wake, 1) messages, so an explicit "repeat": 0 would read as a
// step of no kind and "wake": 0 as wake 1; a core class's "threads": 0 or
// "cluster_cores": 0 would read as left out. None of these zeros is in its
// documented range: the checks here refuse them at their paths, reading
// the presence of the keys from the expanded section's tree (the typed
// values cannot tell).

// checkClassZeros reports explicit zero threads and cluster_cores in the
// core classes of machine tree m.
func checkClassZeros(m any, errs *ErrorList) {
	mm, _ := m.(map[string]any)
	classes, _ := mm["core_classes"].([]any)
	for i, c := range classes {
		cm, _ := c.(map[string]any)
		p := indexPath("machine.core_classes", i)
		if isZeroNumber(cm["threads"]) {
			errs.Add(p+".threads", "0 is out of range; want 1..threads_per_core (leave it out for threads_per_core)")
		}
		if isZeroNumber(cm["cluster_cores"]) {
			errs.Add(p+".cluster_cores", "0 is out of range; want 1..the class's cores (leave it out for no class clusters)")
		}
	}
}

// checkStepZeros reports explicit zero repeat and wake options in the
// programs of workload tree w.
func checkStepZeros(w any, errs *ErrorList) {
	m, _ := w.(map[string]any)
	groups, _ := m["groups"].([]any)
	for i, g := range groups {
		gm, _ := g.(map[string]any)
		checkStepListZeros(indexPath("workload.groups", i)+".program", gm["program"], errs, 0)
	}
}

func checkStepListZeros(path string, v any, errs *ErrorList, depth int) {
	steps, _ := v.([]any)
	if depth > MaxProgramDepth {
		return // validateSteps reports the nesting
	}
	for i, st := range steps {
		p := indexPath(path, i)
		sm, _ := st.(map[string]any)
		if isZeroNumber(sm["repeat"]) {
			errs.Add(p+".repeat", "0 is out of range; want 1..%d (to run the body no times, leave the step out)", MaxRepeat)
		}
		if isZeroNumber(sm["wake"]) {
			errs.Add(p+".wake", "0 is out of range; want 1..%d (leave it out to post one message)", MaxTasks)
		}
		checkStepListZeros(p+".do", sm["do"], errs, depth+1)
		if per, ok := sm["periodic"].(map[string]any); ok {
			checkStepListZeros(p+".periodic.do", per["do"], errs, depth+1)
		}
	}
}

// isZeroNumber reports whether v is a JSON number equal to 0 in any form
// ("0", "0.0", "0e5", "-0").
func isZeroNumber(v any) bool {
	num, ok := v.(json.Number)
	if !ok {
		return false
	}
	z, whole := wholeNumber(num)
	return whole && z != nil && z.Sign() == 0
}
