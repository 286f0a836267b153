//go:build js && wasm

package viewkit

import (
	"strings"

	"honnef.co/go/js/dom/v2"

	"schedplay/engine/explain"
)

// KernelMap shows entries of docs/KERNEL-MAP.md (fetched on first use) for
// the playground's explain panel, the compare view and the step view.
type KernelMap struct{ md string }

// Show renders the entry of kernel function anchor into box under a
// heading of tag h: its title, its text with Markdown code spans as code,
// and a link to the file. When the file cannot be read it opens the link
// instead. ready, when not nil, is asked after the fetch whether box is
// still on the page. Call it from a goroutine (it may fetch).
func (k *KernelMap) Show(b *B, box dom.HTMLElement, anchor, h string, ready func() bool) {
	if k.md == "" {
		md, err := FetchText(explain.KernelMapURL)
		if err != nil {
			dom.GetWindow().Open(explain.KernelLink(anchor), "_blank", "noopener")
			return
		}
		k.md = md
	}
	if ready != nil && !ready() {
		return
	}
	Clear(box)
	box.SetAttribute("data-anchor", anchor)
	title, body, ok := explain.KernelEntry(k.md, anchor)
	if !ok {
		b.Text(box, "p", "muted", "KERNEL-MAP.md has no entry for "+anchor+"().")
		return
	}
	b.Text(box, h, "kernel", title)
	p := b.El(box, "p", "")
	for i, part := range strings.Split(body, "`") {
		if i%2 == 1 {
			b.Text(p, "code", "", part) // a Markdown code span
		} else {
			b.Text(p, "span", "", part)
		}
	}
	l := b.Link(box, "small", explain.KernelLink(anchor), "Open KERNEL-MAP.md")
	l.SetAttribute("target", "_blank")
	l.SetAttribute("rel", "noopener")
}
