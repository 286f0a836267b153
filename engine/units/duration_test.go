package units

import (
	"strings"
	"testing"
)

func TestParseDurationErrors(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"2", `"2" has no unit`},
		{"2h", `"2h" has the unit "h", which durations do not take; the units are ns, us (or µs), ms and s`},
		{"5min", `"5min" has the unit "min"`},
		{"1.5 sec", `"1.5 sec" has the unit "sec"`},
		{"abc", `"abc" is not a duration`},
		{"2ms", ""},
		{"1.5s", ""},
		{"750µs", ""},
	} {
		_, err := ParseDuration(tt.in)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("ParseDuration(%q): %v", tt.in, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("ParseDuration(%q) = %v; want an error containing %q", tt.in, err, tt.want)
		}
	}
}
