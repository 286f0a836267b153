package scenario

import "unicode"

// Timed sections ({"timed": NAME, "do": [...]}, a schedplay addition) are
// measured per name: each distinct name becomes one metric of the result,
// one row of a comparison and two CSV columns, so names are short, printable
// and few.
const (
	MaxTimedNameLength = 64 // bytes
	MaxTimedSections   = 32 // distinct names in a workload
)

// checkTimedName checks a timed section's name (already known non-empty).
func checkTimedName(errs *ErrorList, path, name string) {
	if !checkNameLimit(errs, path, name, MaxTimedNameLength) {
		return
	}
	for _, r := range name {
		if !unicode.IsPrint(r) {
			errs.Add(path, "contains the unprintable character %U; a section name shows in tables and CSV headers", r)
			return
		}
	}
}

// checkTimedCount refuses more distinct timed-section names than
// MaxTimedSections over all the groups' programs.
func checkTimedCount(errs *ErrorList, groups []Group) {
	names := map[string]bool{}
	for i := range groups {
		collectTimedNames(groups[i].Program, names)
	}
	if len(names) > MaxTimedSections {
		errs.Add("workload.groups", "the programs name %d timed sections; the limit is %d", len(names), MaxTimedSections)
	}
}

// collectTimedNames adds the names of the timed sections in steps (nested
// ones included) to names.
func collectTimedNames(steps []Step, names map[string]bool) {
	for i := range steps {
		s := &steps[i]
		if s.Timed != "" {
			names[s.Timed] = true
		}
		collectTimedNames(s.Do, names)
		if s.Periodic != nil {
			collectTimedNames(s.Periodic.Do, names)
		}
	}
}
