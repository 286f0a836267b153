package scenario

import (
	"strconv"
	"strings"
)

// A send or recv channel name may hold InstanceToken, which stands for the
// task's index in its group (0 … count−1; a schedplay addition). One group
// of 20 receivers whose program reads "g0r{i}" is perf bench sched
// messaging's 20 receiver processes, each on its own socket or pipe:
// receiver k reads "g0r<k>". The engine compiles such a group's program
// once per task.
const InstanceToken = "{i}"

// MaxInstanceSteps bounds the steps compiled per task: over the groups
// whose programs use InstanceToken, count × steps (nested ones included).
// A step compiles to at most five ops of 88 bytes, so the per-task
// programs stay under 8 MB, the size of MaxTasks tasks themselves; perf's
// messaging takes 5 steps per receiver, 20 per group.
const MaxInstanceSteps = 1 << 14

// ChannelFor is channel name for task k of its group: every InstanceToken
// replaced by k.
func ChannelFor(name string, k int) string {
	if !strings.Contains(name, InstanceToken) {
		return name
	}
	return strings.ReplaceAll(name, InstanceToken, strconv.Itoa(k))
}

// UsesInstance reports whether a send or recv of steps (nested ones
// included) names InstanceToken.
func UsesInstance(steps []Step) bool {
	for i := range steps {
		s := &steps[i]
		if strings.Contains(s.Send, InstanceToken) || strings.Contains(s.Recv, InstanceToken) {
			return true
		}
		if s.Periodic != nil && UsesInstance(s.Periodic.Do) {
			return true
		}
		if UsesInstance(s.Do) {
			return true
		}
	}
	return false
}

// InstanceSteps is a copy of steps for task k of its group, channel names
// expanded (ChannelFor); steps without InstanceToken are shared.
func InstanceSteps(steps []Step, k int) []Step {
	if !UsesInstance(steps) {
		return steps
	}
	out := make([]Step, len(steps))
	for i, s := range steps {
		s.Send, s.Recv = ChannelFor(s.Send, k), ChannelFor(s.Recv, k)
		if s.Periodic != nil {
			per := *s.Periodic
			per.Do = InstanceSteps(per.Do, k)
			s.Periodic = &per
		}
		s.Do = InstanceSteps(s.Do, k)
		out[i] = s
	}
	return out
}

// checkChannelName reports braces in a channel name other than
// InstanceToken's.
func checkChannelName(errs *ErrorList, path, name string) {
	rest := strings.ReplaceAll(name, InstanceToken, "")
	if strings.ContainsAny(rest, "{}") {
		errs.Add(path, "channel %q has a brace outside %s; %s is the only placeholder (the task's index in its group)", name, InstanceToken, InstanceToken)
	}
}
