package quote

import (
	"strings"
	"testing"
)

func TestShort(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"spin", `"spin"`},
		{"<b>\x1b]0;x\a", `"<b>\x1b]0;x\a"`},
		{strings.Repeat("x", 2<<20), `"` + strings.Repeat("x", MaxBytes) + `"… (2097152 bytes)`},
		{strings.Repeat("é", 40), `"` + strings.Repeat("é", MaxBytes/2) + `"… (80 bytes)`},
		{"a" + strings.Repeat("é", 40), `"a` + strings.Repeat("é", (MaxBytes-1)/2) + `"… (81 bytes)`},
	} {
		if got := Short(tt.in); got != tt.want {
			t.Errorf("Short(%.20q…) = %s; want %s", tt.in, got, tt.want)
		}
	}
}
