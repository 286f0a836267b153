package explain

import "strings"

// KernelMapURL is where linked kernel function names point: the project's
// docs/KERNEL-MAP.md, relative to the page (dist serves it there).
const KernelMapURL = "docs/KERNEL-MAP.md"

// KernelLink is the address of a kernel function's KERNEL-MAP entry.
func KernelLink(anchor string) string { return KernelMapURL + "#" + anchor }

// KernelEntry finds the entry of a kernel function in the text of
// docs/KERNEL-MAP.md: the "### `f()`" heading whose Anchor is anchor, and
// the prose up to the next heading joined into one paragraph (Markdown
// code spans kept as `…`). ok is false when there is no such heading.
func KernelEntry(md, anchor string) (title, body string, ok bool) {
	lines := strings.Split(md, "\n")
	for i, l := range lines {
		name, found := strings.CutPrefix(l, "### `")
		if !found {
			continue
		}
		name = strings.TrimSuffix(strings.TrimSuffix(name, "`"), "()")
		if Anchor(name) != anchor {
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
