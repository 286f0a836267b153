//go:build js && wasm

package viewkit

import (
	"syscall/js"

	"honnef.co/go/js/dom/v2"
)

// NewElement creates an element of doc, typed as dom's
// Document.CreateElement types it, at a fraction of the cost. dom wraps a
// node by comparing its constructor with up to 70 globals in turn, and
// each js.Global().Get makes a js.Value with a Go finalizer: 20–60
// finalizers per element, whose insertion into the span's specials list
// (runtime.addspecial) was the largest single cost of re-rendering a
// panel (docs/speed.md, "Knob on a small machine"). The tags the pages
// create are typed here from their names; any other goes through dom.
func NewElement(doc js.Value, tag string) dom.HTMLElement {
	return wrapTag(doc.Call("createElement", tag), tag)
}

// wrapTag types v, an element created with tag, as dom's wrapHTMLElement
// would from its constructor.
func wrapTag(v js.Value, tag string) dom.HTMLElement {
	el := &dom.BasicHTMLElement{BasicElement: &dom.BasicElement{BasicNode: &dom.BasicNode{Value: v}}}
	switch tag {
	case "div":
		return &dom.HTMLDivElement{BasicHTMLElement: el}
	case "span":
		return &dom.HTMLSpanElement{BasicHTMLElement: el}
	case "p":
		return &dom.HTMLParagraphElement{BasicHTMLElement: el}
	case "label":
		return &dom.HTMLLabelElement{BasicHTMLElement: el}
	case "input":
		return &dom.HTMLInputElement{BasicHTMLElement: el}
	case "select":
		return &dom.HTMLSelectElement{BasicHTMLElement: el}
	case "option":
		return &dom.HTMLOptionElement{BasicHTMLElement: el}
	case "textarea":
		return &dom.HTMLTextAreaElement{BasicHTMLElement: el}
	case "button":
		return &dom.HTMLButtonElement{BasicHTMLElement: el}
	case "canvas":
		return &dom.HTMLCanvasElement{BasicHTMLElement: el}
	case "details":
		return &dom.HTMLDetailsElement{BasicHTMLElement: el}
	case "a":
		return &dom.HTMLAnchorElement{BasicHTMLElement: el, URLUtils: &dom.URLUtils{Value: v}}
	case "li":
		return &dom.HTMLLIElement{BasicHTMLElement: el}
	case "ul":
		return &dom.HTMLUListElement{BasicHTMLElement: el}
	case "ol":
		return &dom.HTMLOListElement{BasicHTMLElement: el}
	case "h1", "h2", "h3", "h4", "h5", "h6":
		return &dom.HTMLHeadingElement{BasicHTMLElement: el}
	case "table":
		return &dom.HTMLTableElement{BasicHTMLElement: el}
	case "thead", "tbody", "tfoot":
		return &dom.HTMLTableSectionElement{BasicHTMLElement: el}
	case "tr":
		return &dom.HTMLTableRowElement{BasicHTMLElement: el}
	case "td", "th":
		// Chromium and Firefox give both the HTMLTableCellElement
		// constructor (the DataCell/HeaderCell ones are gone).
		return &dom.HTMLTableCellElement{BasicHTMLElement: el}
	case "fieldset":
		return &dom.HTMLFieldSetElement{BasicHTMLElement: el}
	case "legend":
		return &dom.HTMLLegendElement{BasicHTMLElement: el}
	case "pre":
		return &dom.HTMLPreElement{BasicHTMLElement: el}
	case "section", "header", "aside", "summary", "code", "strong", "em", "small", "kbd", "nav", "footer", "figure", "figcaption", "abbr", "b", "i", "mark", "article", "main", "dfn", "samp", "var", "sub", "sup", "cite", "wbr":
		// Elements whose constructor is HTMLElement itself.
		return el
	}
	return dom.WrapHTMLElement(v)
}
