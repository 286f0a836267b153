package compareview

import "schedplay/engine/explain"

// KernelEntry finds the entry of a kernel function in the text of
// docs/KERNEL-MAP.md; it is explain.KernelEntry, kept under this name for
// the view's callers and tests.
func KernelEntry(md, anchor string) (title, body string, ok bool) {
	return explain.KernelEntry(md, anchor)
}
