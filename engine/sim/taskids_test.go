package sim

import "testing"

// Every task has a pid of its own (task->pid); a group of threads shares
// one tgid (its first task's pid), a group of processes has one tgid per
// task (copy_process() with and without CLONE_THREAD).
func TestTaskPIDsUniqueTGIDPerThreadGroup(t *testing.T) {
	doc := `{"schedplay":1,"machine":{"preset":"hikey960"},"policy":{"preset":"mainline"},
		"workload":{"groups":[
			{"name":"w","count":4,"program":[{"compute":"1ms"}]},
			{"name":"p","count":3,"process":true,"program":[{"compute":"1ms"}]},
			{"name":"x","count":2,"program":[{"compute":"1ms"}]}]},
		"run":{"duration":"5ms","seed":1}}`
	res := mustRun(t, resolveJSON(t, doc), Options{Timeline: true})
	tasks := res.Timeline.Tasks
	if len(tasks) != 9 {
		t.Fatalf("%d tasks, want 9", len(tasks))
	}
	seen := map[int]string{}
	for _, ti := range tasks {
		if ti.PID <= 0 {
			t.Errorf("%s: pid %d", ti.Name, ti.PID)
		}
		if other, dup := seen[ti.PID]; dup {
			t.Errorf("%s and %s share pid %d", other, ti.Name, ti.PID)
		}
		seen[ti.PID] = ti.Name
	}
	for i, ti := range tasks {
		var want int
		switch ti.Group {
		case 0:
			want = tasks[0].PID // threads: the group's first task leads it
		case 1:
			want = ti.PID // processes: each its own thread group
		case 2:
			want = tasks[7].PID
		}
		if ti.TGID != want {
			t.Errorf("task %d (%s): tgid %d, want %d", i, ti.Name, ti.TGID, want)
		}
	}
	if tasks[0].TGID == tasks[7].TGID {
		t.Errorf("two thread groups share tgid %d", tasks[0].TGID)
	}
}
