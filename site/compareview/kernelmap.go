package compareview

import (
	"strings"
)

// KernelEntry finds the entry of a kernel function in the text of
// docs/KERNEL-MAP.md: the "### `f()`" heading whose anchor (lower-case
// function name, explain.Anchor) is anchor, and the prose up to the next
// heading, joined into one paragraph. ok is false when there is no such
// heading.
func KernelEntry(md, anchor string) (title, body string, ok bool) {
	lines := strings.Split(md, "\n")
	for i, l := range lines {
		name, found := strings.CutPrefix(l, "### `")
		if !found {
			continue
		}
		name = strings.TrimSuffix(strings.TrimSuffix(name, "`"), "()")
		if strings.ToLower(name) != anchor {
			continue
		}
		var para []string
		for _, b := range lines[i+1:] {
			if strings.HasPrefix(b, "#") {
				break
			}
			if t := strings.TrimSpace(b); t != "" {
				para = append(para, t)
			}
		}
		return name + "()", strings.Join(para, " "), true
	}
	return "", "", false
}
