package main

import (
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"
)

// seedFlag is --seed: run.seed is a uint64, so every seed a scenario can
// hold (0 … 18446744073709551615) can be given; a negative or non-numeric
// value is a usage error rather than "not given".
type seedFlag struct {
	v   uint64
	set bool
}

func (s *seedFlag) String() string {
	if s == nil || !s.set {
		return ""
	}
	return strconv.FormatUint(s.v, 10)
}

func (s *seedFlag) Set(v string) error {
	n, err := strconv.ParseUint(strings.TrimSpace(v), 10, 64)
	if err != nil {
		return errors.New("want a whole number from 0 to 18446744073709551615")
	}
	s.v, s.set = n, true
	return nil
}

// repsFlag is --reps: a count of repetitions, at least 1 (run.reps bounds
// it from above). 0 is refused rather than taken as "not given".
type repsFlag struct {
	n int
}

func (r *repsFlag) String() string {
	if r == nil || r.n == 0 {
		return ""
	}
	return strconv.Itoa(r.n)
}

func (r *repsFlag) Set(v string) error {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < 1 {
		return errors.New("want a whole number of repetitions, at least 1")
	}
	r.n = n
	return nil
}

// oneScenario checks that the positional arguments are exactly one
// SCENARIO, saying what was wrong otherwise (then the usage follows).
func oneScenario(e *env, fs *flag.FlagSet, pos []string) bool {
	return wantArgs(e, fs, pos, "SCENARIO")
}

// wantArgs checks that pos holds exactly the named positional arguments
// (none when names is empty), printing what is missing or unexpected and
// the verb's usage otherwise.
func wantArgs(e *env, fs *flag.FlagSet, pos []string, names ...string) bool {
	switch {
	case len(pos) > len(names):
		fmt.Fprintf(e.stderr, "schedplay %s: unexpected argument %q\n\n", fs.Name(), pos[len(names)])
	case len(pos) < len(names):
		fmt.Fprintf(e.stderr, "schedplay %s: missing %s\n\n", fs.Name(), strings.Join(names[len(pos):], " "))
	default:
		return true
	}
	fs.Usage()
	return false
}
