package sim

import "testing"

// do_preempt_short() (fair.c, 6.12): an eligible wakee with a strictly
// shorter slice cancels curr's protection only when its deadline is
// earlier than curr's (entity_before()) or curr is no longer eligible.
func TestDoPreemptShortNeedsEarlierDeadlineOrIneligibleCurr(t *testing.T) {
	s := taskSim(t, 2)
	const slice = 3_000_000
	for _, tc := range []struct {
		name       string
		currV, pV  int64 // vruntimes
		currD, pD  int64 // deadlines
		pSlice     int64
		wantCancel bool
	}{
		{"shorter slice, earlier deadline", 0, 0, 1_050_000, 900_000, slice / 2, true},
		{"shorter slice, later deadline, curr eligible", 0, 0, 1_050_000, 1_990_000, slice * 9 / 10, false},
		{"shorter slice, the same deadline, curr eligible", 0, 0, 1_050_000, 1_050_000, slice / 2, false},
		{"shorter slice, later deadline, curr past V", 400_000, 0, 1_050_000, 1_990_000, slice * 9 / 10, true},
		{"equal slice, earlier deadline", 0, 0, 1_050_000, 900_000, slice, false},
		{"shorter slice, earlier deadline, wakee past V", 0, 400_000, 1_050_000, 900_000, slice / 2, false},
	} {
		curr := ent(tc.currV, tc.currD, 1024)
		curr.slice = slice
		p := ent(tc.pV, tc.pD, 1024)
		p.slice = tc.pSlice
		c := rqOf(curr, p)
		if got := s.doPreemptShort(c, p, curr); got != tc.wantCancel {
			t.Errorf("%s: do_preempt_short() %v; want %v", tc.name, got, tc.wantCancel)
		}
	}
}
