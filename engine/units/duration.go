// Package units holds the small value types shared by the scenario format
// and the engine: durations written with a unit ("750us", "2ms", "1.5s").
package units

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"

	"schedplay/engine/quote"
)

// Duration is a span of simulated time in integer nanoseconds. Its text form
// is a decimal number followed by one of the units ns, us (or µs), ms, s;
// for example "750us", "2ms", "1.5s". The zero value is zero time.
type Duration int64

// Common durations.
const (
	Nanosecond  Duration = 1
	Microsecond Duration = 1000 * Nanosecond
	Millisecond Duration = 1000 * Microsecond
	Second      Duration = 1000 * Millisecond
)

// MaxDuration is the largest duration the text form accepts (one simulated
// hour); scenario validation applies tighter limits.
const MaxDuration = 3600 * Second

var unitScale = []struct {
	suffix string
	scale  float64
}{
	{"ns", 1}, {"us", 1e3}, {"µs", 1e3}, {"ms", 1e6}, {"s", 1e9},
}

// ParseDuration parses the text form. Negative, NaN, infinite, unit-less and
// over-large values are errors with a sentence saying why.
func ParseDuration(s string) (Duration, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, fmt.Errorf("empty duration; write a number with a unit, e.g. \"2ms\"")
	}
	for i := len(unitScale) - 1; i >= 0; i-- {
		u := unitScale[i]
		if !strings.HasSuffix(t, u.suffix) {
			continue
		}
		num := strings.TrimSuffix(t, u.suffix)
		// "ms" also ends in "s": only accept the longest matching unit.
		if u.suffix == "s" && (strings.HasSuffix(num, "m") || strings.HasSuffix(num, "u") || strings.HasSuffix(num, "n") || strings.HasSuffix(num, "µ")) {
			continue
		}
		v, err := strconv.ParseFloat(num, 64)
		if err != nil || num == "" || strings.ContainsAny(num, "xXpP_") {
			return 0, fmt.Errorf("%s is not a duration; write a number with a unit (ns, us, ms, s)", quote.Short(s))
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, fmt.Errorf("%s is not a finite duration", quote.Short(s))
		}
		if v < 0 {
			return 0, fmt.Errorf("%s is negative; durations must be ≥ 0", quote.Short(s))
		}
		ns := v * u.scale
		if ns > float64(MaxDuration) {
			return 0, fmt.Errorf("%s is longer than the 1h limit", quote.Short(s))
		}
		return Duration(math.Round(ns)), nil
	}
	return 0, noUnit(s, t)
}

// noUnit explains a text without one of the accepted units: either it has
// none ("2") or one this format does not take ("2h", "5min").
func noUnit(s, t string) error {
	num := strings.TrimRightFunc(t, unicode.IsLetter)
	unit := t[len(num):]
	if unit == "" {
		return fmt.Errorf("%s has no unit; write e.g. \"750us\", \"2ms\" or \"1.5s\"", quote.Short(s))
	}
	if _, err := strconv.ParseFloat(strings.TrimSpace(num), 64); err != nil {
		return fmt.Errorf("%s is not a duration; write a number with a unit (ns, us, ms, s)", quote.Short(s))
	}
	return fmt.Errorf("%s has the unit %s, which durations do not take; the units are ns, us (or µs), ms and s (e.g. \"1.5s\")", quote.Short(s), quote.Short(unit))
}

// String returns the shortest exact text form, e.g. "2ms", "1.5s", "750us".
func (d Duration) String() string {
	if d == 0 {
		return "0s"
	}
	neg := ""
	v := int64(d)
	if v < 0 {
		neg, v = "-", -v
	}
	for _, u := range []struct {
		suffix string
		scale  int64
	}{{"s", 1e9}, {"ms", 1e6}, {"us", 1e3}} {
		if v >= u.scale {
			if v%u.scale == 0 {
				return neg + strconv.FormatInt(v/u.scale, 10) + u.suffix
			}
			// Exact decimal with at most 3 fractional digits of the next unit.
			if (v*1000)%u.scale == 0 {
				f := strconv.FormatFloat(float64(v)/float64(u.scale), 'f', -1, 64)
				return neg + f + u.suffix
			}
		}
	}
	return neg + strconv.FormatInt(v, 10) + "ns"
}

// MarshalText implements encoding.TextMarshaler.
func (d Duration) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := ParseDuration(string(b))
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// Seconds returns d in seconds as a float (for reporting only, never for decisions).
func (d Duration) Seconds() float64 { return float64(d) / 1e9 }
