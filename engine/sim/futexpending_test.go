package sim

import (
	"fmt"
	"testing"
)

// A FUTEX_WAKE that finds nobody waiting wakes nobody, and the waiter that
// comes later returns from its FUTEX_WAIT at once (EAGAIN: the waker
// changed the word first). The model keeps the wake as the channel's
// pending message (docs/scenario.md, the recv row): the late waiter never
// sleeps and no try_to_wake_up() is issued. An early waiter sleeps and is
// woken once.
func TestFutexWakeBeforeWait(t *testing.T) {
	run := func(wakerWork, waiterWork string) *Result {
		doc := fmt.Sprintf(`{"schedplay":1,"machine":{"nodes":1,"cores_per_node":2,"threads_per_core":1,"latency":{"variation":0}},
			"workload":{"metric":"ops","groups":[
				{"name":"waker","count":1,"cpus":"0","program":[{"compute":%q},{"send":"word","ipc":"futex"}]},
				{"name":"waiter","count":1,"cpus":"1","program":[{"compute":%q},{"recv":"word"}]}]},
			"run":{"duration":"1s","until":"done","seed":1,"reps":1}}`, wakerWork, waiterWork)
		return mustRun(t, resolveJSON(t, doc), Options{})
	}
	late := run("100us", "2ms").Reps[0]
	early := run("2ms", "100us").Reps[0]
	if late.Completion == 0 || early.Completion == 0 {
		t.Fatalf("a run did not finish: the late waiter at %d ns, the early one at %d ns", late.Completion, early.Completion)
	}
	if late.Wakeups != 0 {
		t.Errorf("a wait after the wake: %d wake-ups; want none (FUTEX_WAIT returns at once)", late.Wakeups)
	}
	if early.Wakeups != 1 {
		t.Errorf("a wait before the wake: %d wake-ups; want 1", early.Wakeups)
	}
	if late.Completion >= early.Completion {
		t.Errorf("the late waiter finished at %d ns, not before the early one's %d ns (its waker sent at 0.1 ms)", late.Completion, early.Completion)
	}
}
