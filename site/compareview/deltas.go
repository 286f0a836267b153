package compareview

import (
	"fmt"
	"math"

	"schedplay/engine/explain"
	"schedplay/engine/topo"
	"schedplay/site"
)

// CoreCPUs lists each core's CPUs of a machine (explain.CoreDeltas'
// argument) as topo.Build numbers them, without building its domains (the
// page never builds a topology on its main thread).
func CoreCPUs(m topo.Machine) [][]topo.CPU { return m.CPUNumbers() }

// DeltaCell is one figure of the delta table: A, B and B−A as text, with
// Heat in −1..1 (B−A relative to the largest |B−A| of the column) for the
// heat strip's colour.
type DeltaCell struct {
	A, B, Diff string
	Heat       float64
}

// DeltaRow is one core of the delta view.
type DeltaRow struct {
	Core  int
	CPUs  string
	ST    DeltaCell // ST residency, share of the core's non-idle time
	Busy  DeltaCell // busy time summed over the core's CPUs
	Trans DeltaCell // ST↔SMT transitions in repetition 0
}

// DeltaRows formats explain.CoreDeltas for the table and heat strip.
func DeltaRows(ds []explain.CoreDelta) []DeltaRow {
	var maxST, maxBusy, maxTr float64
	for _, d := range ds {
		maxST = math.Max(maxST, math.Abs(d.Diff.STShare))
		maxBusy = math.Max(maxBusy, math.Abs(d.Diff.BusyNs))
		if d.Diff.Transitions >= 0 || d.A.Transitions >= 0 {
			maxTr = math.Max(maxTr, math.Abs(float64(d.Diff.Transitions)))
		}
	}
	out := make([]DeltaRow, len(ds))
	for i, d := range ds {
		r := DeltaRow{Core: d.Core, CPUs: cpuList(d.CPUs)}
		r.ST = DeltaCell{pct(d.A.STShare), pct(d.B.STShare), signedPct(d.Diff.STShare), heat(d.Diff.STShare, maxST)}
		r.Busy = DeltaCell{ms(d.A.BusyNs), ms(d.B.BusyNs), signedMs(d.Diff.BusyNs), heat(d.Diff.BusyNs, maxBusy)}
		if d.A.Transitions < 0 || d.B.Transitions < 0 {
			r.Trans = DeltaCell{"–", "–", "–", 0}
		} else {
			r.Trans = DeltaCell{fmt.Sprint(d.A.Transitions), fmt.Sprint(d.B.Transitions),
				fmt.Sprintf("%+d", d.Diff.Transitions), heat(float64(d.Diff.Transitions), maxTr)}
		}
		out[i] = r
	}
	return out
}

func heat(v, maxAbs float64) float64 {
	if maxAbs == 0 || math.IsNaN(v) {
		return 0
	}
	return math.Max(-1, math.Min(1, v/maxAbs))
}

// HeatColor is the background of a heat cell: blue for B below A, red for
// B above A, transparent at 0. (Whether up is good depends on the figure,
// so the colour shows direction only.)
func HeatColor(h float64) string {
	if h == 0 || math.IsNaN(h) {
		return "transparent"
	}
	a := math.Min(1, math.Abs(h)) * 0.55
	if h > 0 {
		return fmt.Sprintf("rgb(217 48 37 / %.2f)", a)
	}
	return fmt.Sprintf("rgb(26 115 232 / %.2f)", a)
}

func pct(f float64) string { return fmt.Sprintf("%.1f%%", f*100) }

func signedPct(f float64) string { return site.FormatSigned(f*100, 1) + " pt" }

func ms(ns float64) string { return fmt.Sprintf("%.2f ms", ns/1e6) }

func signedMs(ns float64) string { return site.FormatSigned(ns/1e6, 2) + " ms" }

// cpuList prints CPUs as "3,179" (a core's threads).
func cpuList(cpus []int) string {
	s := ""
	for i, c := range cpus {
		if i > 0 {
			s += ","
		}
		s += fmt.Sprint(c)
	}
	return s
}
