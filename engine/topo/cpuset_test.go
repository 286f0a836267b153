package topo_test

import (
	"strings"
	"testing"

	"schedplay/engine/topo"
)

// TestCPUListRoundTrip: bitmap_parselist() syntax in, cpumask_pr_args
// ("%*pbl") syntax out.
func TestCPUListRoundTrip(t *testing.T) {
	tests := []struct{ in, out string }{
		{"0", "0"},
		{"0-87,176-263", "0-87,176-263"},
		{"3,1,2", "1-3"},
		{"0-3,2-5", "0-5"},
		{" 7 , 9-10 ", "7,9-10"},
		{"0-15:1/4", "0,4,8,12"},
		{"0-15:2/4", "0-1,4-5,8-9,12-13"},
		{"351", "351"},
		{"all", "0-351"},
		{"0,176", "0,176"},
	}
	for _, tc := range tests {
		s, err := topo.ParseCPUList(tc.in, 352)
		if err != nil {
			t.Errorf("ParseCPUList(%q): %v", tc.in, err)
			continue
		}
		if got := s.String(); got != tc.out {
			t.Errorf("ParseCPUList(%q) = %s; want %s", tc.in, got, tc.out)
		}
		again, err := topo.ParseCPUList(s.String(), 352)
		if err != nil || !again.Equal(s) {
			t.Errorf("round trip of %q: %v, %s", tc.in, err, again)
		}
	}
	if got := topo.NewCPUSet(8).String(); got != "" {
		t.Errorf("empty set prints %q; want \"\"", got)
	}
}

func TestCPUListErrors(t *testing.T) {
	tests := []struct{ in, substr string }{
		{"", "empty"},
		{"352", "does not exist"},
		{"-1", "not a CPU"},
		{"5-3", "below its start"},
		{"a", "not a CPU"},
		{"1,,2", "not a CPU"},
		{"+1", "not a CPU"},
		{"0-7:3/2", "stride"},
		{"0-7:0/2", "stride"},
		{"0-7:1", "stride"},
		{"0-", "not a CPU"},
	}
	for _, tc := range tests {
		_, err := topo.ParseCPUList(tc.in, 352)
		if err == nil || !strings.Contains(err.Error(), tc.substr) {
			t.Errorf("ParseCPUList(%q) error %v; want one containing %q", tc.in, err, tc.substr)
		}
	}
}

// FuzzCPUList: parse never panics; what parses prints back to the same set.
func FuzzCPUList(f *testing.F) {
	for _, s := range []string{"0-87,176-263", "0-15:2/4", "all", "3,1", "9-", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		s, err := topo.ParseCPUList(in, 300)
		if err != nil {
			return
		}
		if s.Weight() == 0 {
			return
		}
		again, err := topo.ParseCPUList(s.String(), 300)
		if err != nil || !again.Equal(s) {
			t.Fatalf("%q → %q → %v %v", in, s.String(), again, err)
		}
	})
}
