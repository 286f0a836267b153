package fidelity

import (
	_ "embed"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
)

// Format renders a value of figure f: a change as a signed percentage, a
// spread as a percentage, anything else scaled into the figure's unit.
func (f Figure) Format(v float64) string {
	switch {
	case f.Combine == CombineChange:
		return fmt.Sprintf("%+.1f %%", 100*v)
	case f.Stat == StatSpread && f.Combine == CombineValue:
		return fmt.Sprintf("%.2f %%", 100*v)
	}
	if f.Scale != 0 {
		v *= f.Scale
	}
	s := trim(v)
	if f.Unit != "" {
		s += " " + f.Unit
	}
	return s
}

// trim prints v with 4 significant digits, without trailing zeros.
func trim(v float64) string {
	if v == 0 {
		return "0"
	}
	digits := max(0, 3-int(math.Floor(math.Log10(math.Abs(v)))))
	s := fmt.Sprintf("%.*f", digits, v)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// ratioText is model ÷ published.
func ratioText(r Row) string {
	if r.Err != nil || r.Published == 0 {
		return "—"
	}
	return fmt.Sprintf("%.3f", r.Model/r.Published)
}

// verdict is the "within tolerance" cell.
func verdict(r Row) string {
	tol := fmt.Sprintf("±%g %%", 100*r.Tolerance)
	if r.absolute() {
		tol = fmt.Sprintf("±%g pt", 100*r.Tolerance)
	}
	switch {
	case r.Err != nil:
		return "error: " + r.Err.Error()
	case r.Within:
		return "yes (" + tol + ")"
	case r.KnownOff != "":
		return "no, known (" + tol + ")"
	}
	return "NO (" + tol + ")"
}

// modelText is the model cell.
func modelText(r Row) string {
	if r.Err != nil {
		return "—"
	}
	return r.Format(r.Model)
}

// sources numbers the distinct sources of rows in order of first use.
func sources(rows []Row) (list []string, index map[string]int) {
	index = map[string]int{}
	for _, r := range rows {
		k := r.Source + "\x00" + r.URL
		if _, ok := index[k]; !ok {
			list = append(list, k)
			index[k] = len(list)
		}
	}
	return list, index
}

// WriteText prints the table of `schedplay fidelity`.
func WriteText(w io.Writer, rows []Row) error {
	list, index := sources(rows)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "figure\tpublished\tmodel\tratio\twithin tolerance")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s [%d]\t%s\t%s\t%s\n", r.Name, r.Format(r.Published),
			index[r.Source+"\x00"+r.URL], modelText(r), ratioText(r), verdict(r))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString("\nSources:\n")
	for i, k := range list {
		src, url, _ := strings.Cut(k, "\x00")
		fmt.Fprintf(&b, "  [%d] %s", i+1, src)
		if url != "" {
			b.WriteString(" " + url)
		}
		b.WriteString("\n")
	}
	var known []string
	for _, r := range rows {
		if !r.Within && r.KnownOff != "" && r.Err == nil {
			known = append(known, fmt.Sprintf("  %s: %s", r.Name, r.KnownOff))
		}
	}
	if len(known) > 0 {
		b.WriteString("\nKnown departures:\n" + strings.Join(known, "\n") + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Failed counts the rows that miss their tolerance without a known reason
// or could not be computed.
func Failed(rows []Row) int {
	n := 0
	for _, r := range rows {
		if r.Err != nil || (!r.Within && r.KnownOff == "") {
			n++
		}
	}
	return n
}

// mdEscape keeps a table cell on one line and its pipes literal.
func mdEscape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "|", `\|`), "\n", " ")
}

// WriteMarkdown writes the generated table of docs/calibration.md: one row
// per figure with its source linked and the command that reproduces it.
func WriteMarkdown(w io.Writer, rows []Row) error {
	var b strings.Builder
	b.WriteString("| figure | published | source | schedplay | ratio | within tolerance | run |\n")
	b.WriteString("|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		src := mdEscape(r.Source)
		if r.URL != "" {
			src = "[" + src + "](" + r.URL + ")"
		}
		run := "`" + r.Run.String() + "`"
		if r.Vs != nil {
			run += " vs `" + r.Vs.String() + "`"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s |\n", mdEscape(r.Name), r.Format(r.Published), src,
			modelText(r), ratioText(r), mdEscape(verdict(r)), mdEscape(run))
	}
	var known []string
	for _, r := range rows {
		if !r.Within && r.KnownOff != "" && r.Err == nil {
			known = append(known, fmt.Sprintf("- **%s**: %s", mdEscape(r.Name), r.KnownOff))
		}
	}
	if len(known) > 0 {
		b.WriteString("\nKnown departures (the test reports them without failing):\n\n" + strings.Join(known, "\n") + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

//go:embed calibration.md.tmpl
var docTemplate string

// The template's prose quotes a row's model value as {{model "NAME"}}, so
// a figure the text repeats is the one the table gives, never a copy that
// goes stale when the engine moves it.
const refOpen, refClose = `{{model "`, `"}}`

// templateRefs lists the row names text quotes with {{model "NAME"}}, in
// order of use.
func templateRefs(text string) ([]string, error) {
	var names []string
	for rest := text; ; {
		_, after, ok := strings.Cut(rest, refOpen)
		if !ok {
			return names, nil
		}
		name, tail, ok := strings.Cut(after, refClose)
		if !ok || strings.Contains(name, "\n") {
			return nil, fmt.Errorf("calibration.md.tmpl: an unterminated %s…%s", refOpen, refClose)
		}
		names = append(names, name)
		rest = tail
	}
}

// expandRefs replaces every {{model "NAME"}} of text with the model cell
// of the row named NAME; a name no row has is an error (the row was
// renamed, or --figure left it out of the run).
func expandRefs(text string, rows []Row) (string, error) {
	names, err := templateRefs(text)
	if err != nil {
		return "", err
	}
	byName := make(map[string]Row, len(rows))
	for _, r := range rows {
		byName[r.Name] = r
	}
	for _, name := range names {
		r, ok := byName[name]
		if !ok {
			return "", fmt.Errorf("calibration.md.tmpl quotes the figure %q, which was not run", name)
		}
		text = strings.Replace(text, refOpen+name+refClose, modelText(r), 1)
	}
	return text, nil
}

// WriteDoc writes docs/calibration.md: the template with the generated
// table in place of its {{TABLE}} line and each {{model "NAME"}} replaced
// by that row's model value.
func WriteDoc(w io.Writer, rows []Row) error {
	text, err := expandRefs(docTemplate, rows)
	if err != nil {
		return err
	}
	before, after, ok := strings.Cut(text, "{{TABLE}}\n")
	if !ok {
		return fmt.Errorf("calibration.md.tmpl has no {{TABLE}} line")
	}
	var b strings.Builder
	b.WriteString(before)
	if err := WriteMarkdown(&b, rows); err != nil {
		return err
	}
	b.WriteString(after)
	_, err = io.WriteString(w, b.String())
	return err
}
