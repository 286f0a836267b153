package playground

import (
	"strings"

	"schedplay/engine/sim"
)

// taskGroup is one workload group of a timeline: its name and its tasks.
type taskGroup struct {
	name  string
	tasks []int
}

// taskGroups lists a timeline's groups in order of first task, named after
// their tasks ("sgemm/3" is in group "sgemm"): the task legend.
func taskGroups(tl *sim.Timeline) []taskGroup {
	var out []taskGroup
	at := map[int]int{}
	for i, task := range tl.Tasks {
		gi, ok := at[task.Group]
		if !ok {
			name := task.Name
			if j := strings.LastIndexByte(name, '/'); j > 0 {
				name = name[:j]
			}
			gi = len(out)
			at[task.Group] = gi
			out = append(out, taskGroup{name: name})
		}
		out[gi].tasks = append(out[gi].tasks, i)
	}
	return out
}
