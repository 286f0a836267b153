package sim

import (
	"context"
	"fmt"
	"slices"
	"testing"
)

const pollWakeDoc = `{"schedplay":1,"machine":{"preset":"hikey960","latency":{"variation":0}},"policy":{"preset":"misfit"},
	"workload":{"groups":[
	 {"name":"waker","count":1,"cpus":"4","program":[{"sleep":"1ms"},{"send":"go","poll":%s,"sync":true,"wake":7},{"compute":"1ms"}]},
	 {"name":"waiter","count":7,"cpus":"0-3,5-7","pin":"each","program":[{"recv":"go"},{"compute":"1ms"}]}]},
	"run":{"duration":"20ms","seed":1}}`

// A send with "poll" wakes the receivers as __wake_up_common_lock() wakes
// poll() waiters: newest first (add_wait_queue() queues each at the
// head), all under the wait queue's lock, which each woken receiver takes
// again in poll_freewait() → remove_wait_queue() when it first runs. So no
// receiver runs its next step before the waker's last try_to_wake_up(),
// and they leave one after the other. Without "poll" the oldest waiter is
// woken first and runs at once.
func TestPollWakeNewestFirstUnderTheLock(t *testing.T) {
	for _, poll := range []string{"true", "false"} {
		doc := fmt.Sprintf(pollWakeDoc, poll)
		// the wake-up order and the storm's last wake-up, from the decisions
		res := mustRun(t, resolveJSON(t, doc), Options{Timeline: true})
		var order []int
		var lastIssue int64
		for _, d := range res.Timeline.Decisions {
			if d.Kind == "wakeup" && d.At >= 1_000_000 && d.Task >= 1 {
				order = append(order, d.Task)
				lastIssue = max(lastIssue, d.At)
			}
		}
		// the same run inside: the order the waiters blocked in, and when
		// each could run its next step
		s := simOf(t, doc)
		if err := s.runUntil(context.Background(), 500_000, 0, 1); err != nil {
			t.Fatal(err)
		}
		var blocked []int
		for _, p := range s.chanList[0].receivers {
			blocked = append(blocked, p.id)
		}
		if err := s.runUntil(context.Background(), 1_200_000, 0, 1); err != nil {
			t.Fatal(err)
		}
		if len(order) != 7 || len(blocked) != 7 {
			t.Fatalf("poll %s: set-up: %d wake-ups, %d blocked", poll, len(order), len(blocked))
		}
		want := slices.Clone(blocked)
		if poll == "true" {
			slices.Reverse(want)
		}
		if !slices.Equal(order, want) {
			t.Errorf("poll %s: woken in the order %v; blocked in the order %v", poll, order, blocked)
		}
		var leave []int64
		for _, id := range blocked {
			leave = append(leave, s.tasks[id].wakeStallUntil)
		}
		slices.Sort(leave)
		for i, at := range leave {
			if poll == "true" && (at <= lastIssue || i > 0 && at <= leave[i-1]) {
				t.Errorf("poll true: waiters left poll() at %v; want each after the last wake-up (%d) and after the one before it", leave, lastIssue)
				break
			}
			if poll == "false" && at > lastIssue {
				t.Errorf("poll false: waiters were held until %v; the last wake-up was at %d", leave, lastIssue)
				break
			}
		}
	}
}
