package playground

import (
	"slices"
	"strings"
	"testing"
)

func TestCPUListRanges(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []string
	}{
		{"0-87,176-263", []string{"0-87,", "176-263"}},
		{"0,176", []string{"0,", "176"}},
		{"0-351", []string{"0-351"}},
		{"", nil},
	} {
		got := CPUListRanges(tt.in)
		if !slices.Equal(got, tt.want) {
			t.Errorf("CPUListRanges(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if strings.Join(got, "") != tt.in {
			t.Errorf("CPUListRanges(%q) loses text: %q", tt.in, got)
		}
	}
}
