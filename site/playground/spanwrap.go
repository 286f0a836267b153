package playground

import "strings"

// CPUListRanges splits a cpulist ("0-87,176-263") into its comma-separated
// ranges, each keeping its comma ("0-87,", "176-263"): the domain table
// draws each range unbreakable and lets a line break only after a comma.
func CPUListRanges(list string) []string {
	if list == "" {
		return nil
	}
	parts := strings.SplitAfter(list, ",")
	if parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	return parts
}
