//go:build js && wasm

package compareview

import (
	"honnef.co/go/js/dom/v2"

	"schedplay/site/viewkit"
)

// renderTable shows the mailing-list table and the "Copy as text" button.
func (v *view) renderTable() {
	b := v.b
	box := v.tableBox
	viewkit.Clear(box)
	head := b.El(box, "div", "cmp-row-head")
	b.Text(head, "h2", "", "Comparison")
	copyBtn := b.Button(head, "copy-text", "", "Copy as text", nil)
	st := b.Text(head, "span", "muted small", "")
	st.SetID("copy-status")
	st.SetAttribute("role", "status")
	b.On(copyBtn, "click", func(dom.Event) {
		go func() {
			how := viewkit.CopyText(v.text)
			st.SetAttribute("data-how", how)
			if how == "" {
				st.SetTextContent("Could not copy; select the text below instead.")
				return
			}
			st.SetTextContent("Copied the table as text.")
		}()
	})
	viewkit.SetGlobal("compareText", v.text)
	// The table scrolls sideways inside its card on a narrow page.
	wrap := b.El(box, "div", "cmp-table-wrap")
	tbl := b.El(wrap, "table", "cmp-table")
	tbl.SetID("cmp-table")
	thead := b.El(tbl, "thead", "")
	tr := b.El(thead, "tr", "")
	for _, h := range []string{"Metric", "A: " + v.pa, "B: " + v.pb, "B − A", "p (Welch)", ""} {
		b.Text(tr, "th", "", h)
	}
	tbody := b.El(tbl, "tbody", "")
	if len(v.table.Sets) > 0 {
		for _, r := range v.table.Sets[0].Rows {
			c := RowCells(r)
			tr := b.El(tbody, "tr", "")
			tr.SetAttribute("data-metric", c.Metric)
			b.Text(tr, "th", "", c.Metric)
			b.Text(tr, "td", "num", c.A)
			b.Text(tr, "td", "num", c.B)
			d := b.Text(tr, "td", "num diff "+c.Verdict, c.Diff)
			d.SetAttribute("data-verdict", c.Verdict)
			b.Text(tr, "td", "num muted", c.P)
			mark := ""
			if c.Lower {
				mark = "lower is better"
			}
			b.Text(tr, "td", "muted small", mark)
		}
	}
	b.Text(box, "p", "muted small", "B − A is the difference of the means relative to A; p is the two-sided Welch t-test over the repetitions (a difference with p ≥ 0.05 is shown grey: the noise explains it). Green: B better; red: B worse.")
	det := b.El(box, "details", "")
	b.Text(det, "summary", "", "Plain text (as schedplay compare prints it)")
	pre := b.Text(det, "pre", "cmp-text", v.text)
	pre.SetID("cmp-text")
}
