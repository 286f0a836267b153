package perfetto

import (
	"strings"

	"schedplay/engine/sim"
)

// tgids returns each task's thread-group id: the one the simulator
// recorded (TaskInfo.TGID); for a timeline from before TGID, a task's own
// pid when its group is processes, else its group's first task's pid.
func tgids(tl *sim.Timeline, processes []bool) []int {
	leader := map[int]int{}
	out := make([]int, len(tl.Tasks))
	for i, ti := range tl.Tasks {
		switch {
		case ti.TGID > 0:
			out[i] = ti.TGID
		case ti.Group >= 0 && ti.Group < len(processes) && processes[ti.Group]:
			out[i] = ti.PID
		default:
			if _, ok := leader[ti.Group]; !ok {
				leader[ti.Group] = ti.PID
			}
			out[i] = leader[ti.Group]
		}
	}
	return out
}

// prevState is sched_switch's prev_state for a task leaving its CPU
// (__trace_sched_switch_state() and the TP_printk of
// include/trace/events/sched.h):
//   - asleep: "S" (every simulated wait is TASK_INTERRUPTIBLE: nanosleep,
//     futex, pipe and socket waits);
//   - preempted or pushed away by the stopper: "R". The kernel prints "R+"
//     only for __schedule(SM_PREEMPT), a preemption in kernel mode; the
//     simulated tasks compute in user mode, where the switch happens in
//     schedule() on the way back to user space (SM_NONE, TASK_RUNNING);
//   - exited: exit_notify() leaves a thread other than its group's leader
//     EXIT_DEAD ("X"), a leader or a process EXIT_ZOMBIE ("Z") until its
//     parent reaps it;
//   - still running where the trace ends: "R" (the trace closes its slice).
func prevState(out sim.SwitchOut, pid, tgid int) string {
	switch out {
	case sim.OutPreempt, sim.OutRunning:
		return "R"
	case sim.OutExit:
		if pid != tgid {
			return "X"
		}
		return "Z"
	}
	return "S"
}

// comm makes a task name a valid ftrace comm: no spaces, control
// characters or '=' (the systrace parser splits on them), at most 15 bytes
// (TASK_COMM_LEN 16 with its NUL). Task names are "group/N"; a long group
// name is cut, not the "/N" that tells the group's threads apart.
func comm(name string) string {
	var b strings.Builder
	for _, r := range name {
		if r <= ' ' || r == 0x7f || r == '=' {
			r = '_'
		}
		b.WriteRune(r)
	}
	s := b.String()
	if s == "" {
		s = "task"
	}
	if len(s) <= 15 {
		return s
	}
	suffix := ""
	if group, sfx := threadSuffix(s); sfx != "" && len(sfx) <= 8 {
		s, suffix = group, sfx
	}
	for len(s)+len(suffix) > 15 {
		_, size := lastRune(s)
		s = s[:len(s)-size]
	}
	return s + suffix
}

// threadSuffix splits a task name into its group's name and the "/N"
// that tells the group's threads apart; suffix is "" when there is none.
func threadSuffix(name string) (group, suffix string) {
	if i := strings.LastIndexByte(name, '/'); i >= 0 && isDigits(name[i+1:]) {
		return name[:i], name[i:]
	}
	return name, ""
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func lastRune(s string) (rune, int) {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i]&0xc0 != 0x80 {
			return rune(s[i]), len(s) - i
		}
	}
	return 0, 1
}

// processEvents names each thread group's process after its group (the
// task name without "/N"), in task order: Perfetto shows a group of
// threads as one process with its threads under it.
func processEvents(tl *sim.Timeline, tg []int) []Event {
	var ev []Event
	named := map[int]bool{}
	for i, ti := range tl.Tasks {
		if tg[i] <= 0 || named[tg[i]] {
			continue
		}
		named[tg[i]] = true
		name, _ := threadSuffix(ti.Name)
		ev = append(ev, Event{Name: "process_name", Ph: "M", PID: tg[i], TID: tg[i], Args: map[string]any{"name": name}})
	}
	return ev
}
