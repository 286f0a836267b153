package input_test

import (
	"slices"
	"strings"
	"testing"

	"schedplay/engine/importer/input"
)

func TestCPUMask(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []int
	}{
		{"00000000,0000ffff", []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}},
		{"0x00000001,,0x00010000", []int{16, 64}},
		{"0x0f", []int{0, 1, 2, 3}},
		{"80000000,00000000", []int{63}},
		{"", []int{}},
	} {
		got, err := input.CPUMask(tc.in)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("CPUMask(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"0xzz", "1,x", strings.Repeat("ffffffff,", 300) + "1"} {
		if _, err := input.CPUMask(bad); err == nil {
			t.Errorf("CPUMask(%.20q): no error", bad)
		}
	}
}

func TestLinesBoundsAndNumbers(t *testing.T) {
	l := input.NewLines("f.txt", strings.NewReader("a\r\nb\n"+strings.Repeat("x", input.MaxLineBytes+1)+"\n"))
	var got []string
	for l.Next() {
		got = append(got, string(l.Text()))
	}
	if !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("lines %q", got)
	}
	if err := l.Err(); err == nil || !strings.HasPrefix(err.Error(), "f.txt:3: line longer than the limit") {
		t.Errorf("error %v; want f.txt:3: line longer than the limit", err)
	}
	if _, err := input.ReadAll("g", strings.NewReader("12345"), 4); err == nil || err.Error() != "g: larger than the limit of 4 bytes" {
		t.Errorf("ReadAll over the limit: %v", err)
	}
}
