package sim

import (
	"fmt"
	"testing"
)

// fdget() on a read() or write() borrows the file when no other task
// shares the caller's files_struct, and takes a reference in a
// multi-threaded process (__fget_light(), fs/file.c): file->f_count is
// incremented, and decremented at fdput(). So a write to a pipe end that
// another thread of the process wrote to from another CPU pulls that
// end's struct file line; the same writes by processes do not, and the
// read end, used by its reader alone, stays on the reader's CPU.
func TestThreadsPullTheFileLineAtEveryCall(t *testing.T) {
	for _, process := range []bool{false, true} {
		s := simOf(t, fmt.Sprintf(`{"schedplay":1,"machine":{"nodes":1,"cores_per_node":4,"threads_per_core":1,"latency":{"variation":0}},
			"workload":{"shared_parent":true,"groups":[
				{"name":"r","count":1,"process":%[1]v,"program":[{"recv":"p"},{"recv":"p"},{"compute":"1s"}]},
				{"name":"w","count":2,"process":%[1]v,"program":[{"send":"p","ipc":"pipe","bytes":100},{"compute":"1s"}]}]},
			"run":{"duration":"10s","seed":1}}`, process))
		s.now = 1_000_000
		syscall := float64(s.r.Machine.Latency.Syscall)
		line := float64(s.cachelineCost(1, 2))
		w1 := startAt(s, 1, 1, 0) // write(): el0_svc, fdget() of the write end
		if w1.remaining != syscall {
			t.Fatalf("process %v: the first write's syscall costs %.0f ns, want %.0f (the file's line is nowhere yet)", process, w1.remaining, syscall)
		}
		w2 := startAt(s, 2, 2, 0)
		want := syscall + line
		if process {
			want = syscall
		}
		if w2.remaining != want {
			t.Errorf("process %v: the second writer's syscall costs %.0f ns, want %.0f", process, w2.remaining, want)
		}
		// the reader's two read() syscalls (after pipe_read()'s unlock):
		// the read end's line is its own
		r := s.tasks[0]
		ch := s.chanList[0].ipc
		for k := range 2 {
			if got := s.fgetLight(ch, r, 0, false); got != 0 {
				t.Errorf("process %v: read %d pulls the read end's line (%d ns); only its reader uses it", process, k, got)
			}
		}
		if !process && ch.fileCPU != [2]int{0, 2} {
			t.Errorf("the ends' struct file lines are on CPUs %v, want read end on 0, write end on 2", ch.fileCPU)
		}
	}
}

// futex() takes an address, not an fd: a FUTEX_WAKE by a thread takes no
// file reference, so no struct file line moves, whichever thread of the
// process called it last.
func TestFutexCallsTakeNoFileReference(t *testing.T) {
	s := simOf(t, `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":4,"threads_per_core":1,"latency":{"variation":0}},
		"workload":{"groups":[{"name":"w","count":2,"program":[{"send":"f","ipc":"futex"},{"compute":"1s"}]}]},
		"run":{"duration":"10s","seed":1}}`)
	s.now = 1_000_000
	ch := s.chanList[0].ipc
	w1, w2 := s.tasks[0], s.tasks[1]
	if !w1.filesShared || !w2.filesShared {
		t.Fatal("set-up: two threads of one process share their files_struct")
	}
	s.ipcPathCost(ch, w1, 1, true)
	s.ipcPathCost(ch, w2, 2, true)
	if ch.fileCPU != [2]int{-1, -1} {
		t.Errorf("futex_wake() by two threads moved a struct file line to CPUs %v", ch.fileCPU)
	}
}
