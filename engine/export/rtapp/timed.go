package rtapp

import "schedplay/engine/scenario"

// inlineTimed returns steps with every timed section replaced by its body,
// at every depth. A timed section only measures its body (perf's
// gettimeofday() around a loop) and does not change what the task does,
// so rt-app runs the body in its place; rt-app's own log times phases.
// steps is not modified.
func inlineTimed(steps []scenario.Step) []scenario.Step {
	out := make([]scenario.Step, 0, len(steps))
	for _, st := range steps {
		if st.Timed != "" {
			out = append(out, inlineTimed(st.Do)...)
			continue
		}
		if len(st.Do) > 0 {
			st.Do = inlineTimed(st.Do)
		}
		if st.Periodic != nil {
			pd := *st.Periodic
			pd.Do = inlineTimed(pd.Do)
			st.Periodic = &pd
		}
		out = append(out, st)
	}
	return out
}
