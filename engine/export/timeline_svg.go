package export

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"schedplay/engine/palette"
	"schedplay/engine/sim"
)

// TimelineSVG writes tl as a standalone SVG document: one row per lane
// (lanes give the order: LanesFromTopology for the playground's), slices
// coloured by task, a mode band above each core's rows, CPU labels, a time
// axis and a legend. Slices narrower than 0.5 px merge into grey busy runs
// and the element count stays under opt.MaxElements, so a 352-CPU timeline
// stays a reasonable size. Every user string (title, task names) is
// escaped, so "<script>" in a name is text.
func TimelineSVG(w io.Writer, tl *sim.Timeline, lanes []Lane, opt TimelineOptions) error {
	d, err := layoutTimeline(tl, lanes, opt)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
	fmt.Fprintf(bw, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"10\">\n", d.w, d.h, d.w, d.h)
	title := d.title
	if title == "" {
		title = "schedplay timeline"
	}
	fmt.Fprintf(bw, "<title>%s</title>\n", esc(title))
	fmt.Fprintf(bw, "<rect width=\"%d\" height=\"%d\" fill=\"%s\"/>\n", d.w, d.h, palette.Hex(backgroundColor))
	if d.title != "" {
		fmt.Fprintf(bw, "<text x=\"%d\" y=\"16\" font-size=\"13\" fill=\"%s\">%s</text>\n", marginLeft, palette.Hex(textColor), esc(d.title))
	}
	bw.WriteString("<g shape-rendering=\"crispEdges\">\n")
	for _, r := range d.background {
		writeRect(bw, r)
	}
	for _, l := range d.lines {
		fmt.Fprintf(bw, "<line x1=\"%d.5\" y1=\"%d\" x2=\"%d.5\" y2=\"%d\" stroke=\"%s\"/>\n", l.x0, l.y0, l.x1, l.y1, palette.Hex(l.stroke))
	}
	for _, r := range d.slices {
		writeRect(bw, r)
	}
	bw.WriteString("</g>\n")
	fmt.Fprintf(bw, "<g fill=\"%s\">\n", palette.Hex(textColor))
	for _, t := range d.texts {
		anchor := ""
		if t.anchor != "start" {
			anchor = fmt.Sprintf(" text-anchor=\"%s\"", t.anchor)
		}
		if t.size != 0 {
			anchor += fmt.Sprintf(" font-size=\"%d\"", t.size)
		}
		fmt.Fprintf(bw, "<text x=\"%d\" y=\"%d\"%s>%s</text>\n", t.x, t.y, anchor, esc(t.s))
	}
	bw.WriteString("</g>\n</svg>\n")
	return bw.Flush()
}

// writeRect writes one rectangle, with its tooltip when it has one.
func writeRect(w *bufio.Writer, r rectEl) {
	fmt.Fprintf(w, "<rect x=\"%s\" y=\"%d\" width=\"%s\" height=\"%d\" fill=\"%s\"", centi(r.x0), r.y, centi(r.x1-r.x0), r.h, palette.Hex(r.fill))
	if r.title == "" {
		w.WriteString("/>\n")
		return
	}
	fmt.Fprintf(w, "><title>%s</title></rect>\n", esc(r.title))
}

// centi prints centipixels as px with up to two decimals.
func centi(v int64) string {
	if v%cpx == 0 {
		return fmt.Sprintf("%d", v/cpx)
	}
	s := fmt.Sprintf("%d.%02d", v/cpx, v%cpx)
	return strings.TrimRight(s, "0")
}

// esc escapes text for XML content and attribute values, as
// xml.EscapeText does (without pulling encoding/xml into the wasm build):
// markup characters become entities and characters XML cannot carry
// (controls, invalid UTF-8) become U+FFFD.
func esc(s string) string {
	var b strings.Builder
	for i, w := 0, 0; i < len(s); i += w {
		r, n := utf8.DecodeRuneInString(s[i:])
		w = n
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '"':
			b.WriteString("&#34;")
		case r == '\'':
			b.WriteString("&#39;")
		case r == '\t' || r == '\n' || r == '\r':
			fmt.Fprintf(&b, "&#x%X;", r)
		case r == utf8.RuneError && n == 1, r < 0x20, r == 0xFFFE, r == 0xFFFF:
			b.WriteRune('\uFFFD')
		default:
			b.WriteString(s[i : i+n])
		}
	}
	return b.String()
}
