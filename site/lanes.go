package site

import (
	"fmt"
	"sort"
	"strings"

	"schedplay/site/viewkit"
)

// Row is one horizontal strip of the timeline: one logical CPU, or several
// CPUs aggregated when the machine does not fit.
type Row struct {
	Y, H  float64
	CPUs  []int // logical CPUs drawn in this row
	Label string
	// Core and Thread place a one-CPU row (Thread -1 for aggregated rows);
	// Threads is its core's thread count.
	Core, Thread, Threads int
}

// Band is a core's mode strip (ST / partitioned / switching), drawn above
// the core's rows; aggregated bands cover several cores.
type Band struct {
	Y, H  float64
	Cores []int
}

// Layout is the timeline's vertical geometry, grouped node → core → thread
// (PE0 above PE1), like SchedViz's CPU axis. One-CPU rows are labelled
// "cpu12·c12·PE0" ("cpu12·c12" on a one-thread core).
type Layout struct {
	Rows   []Row
	Bands  []Band
	Height float64 // total content height
	// CoresPerRow is the number of cores merged into one aggregated row
	// (1 when every CPU has its own row).
	CoresPerRow int
	// Aggregated is true when rows hold several CPUs (drawn by busy
	// fraction, not by task).
	Aggregated bool
	// NodeY are the y positions where each node's block starts.
	NodeY []float64
}

// Layout tuning (pixels).
const (
	LaneH     = 11.0 // a CPU lane at full detail
	MinLaneH  = 4.5  // smallest lane before rows aggregate
	BandH     = 4.0  // mode band per core
	CoreGap   = 2.0
	NodeGap   = 8.0
	AggRowH   = 9.0 // an aggregated row (busy part)
	AggBandH  = 7.0 // its mode band: the share of its cores in each mode
	MaxLaneH  = 18.0
	AllLaneH  = 7.0 // a CPU lane in one-row-per-CPU mode (scrolling)
	minHeight = 40.0
)

// LayoutLanes lays the CPUs out to fit height (aggregating cores into rows
// when one row per CPU would be thinner than MinLaneH). With all set, every
// CPU gets a row of at least AllLaneH whatever the height (the view
// scrolls).
func LayoutLanes(cpus []LaneCPU, height float64, all bool) Layout {
	cores := coresInOrder(cpus)
	if len(cores) == 0 {
		return Layout{CoresPerRow: 1}
	}
	nodes := 1
	for _, c := range cores {
		if c.node+1 > nodes {
			nodes = c.node + 1
		}
	}
	lanes := 0 // one per CPU: cores may differ in threads (hybrid E-cores)
	for _, c := range cores {
		lanes += len(c.cpus)
	}
	if height < minHeight {
		height = minHeight
	}
	fixed := float64(len(cores))*(BandH+CoreGap) + float64(nodes-1)*NodeGap
	lane := (height - fixed) / float64(lanes)
	if all && lane < AllLaneH {
		lane = AllLaneH
	}
	if lane > MaxLaneH {
		lane = MaxLaneH
	}
	if lane >= MinLaneH {
		return detailLayout(cores, lane)
	}
	// Aggregate k consecutive cores of a node per row.
	perNode := (len(cores) + nodes - 1) / nodes
	k := 1
	for ; k < perNode; k++ {
		rows := nodes * ((perNode + k - 1) / k)
		need := float64(rows)*(AggRowH+AggBandH+1) + float64(nodes-1)*NodeGap
		if need <= height {
			break
		}
	}
	return aggLayout(cores, k)
}

type coreCPUs struct {
	core, node int
	cpus       []int // by thread
}

func coresInOrder(cpus []LaneCPU) []coreCPUs {
	byCore := map[int]*coreCPUs{}
	var order []int
	for _, c := range cpus {
		cc, ok := byCore[c.Core]
		if !ok {
			cc = &coreCPUs{core: c.Core, node: c.Node}
			byCore[c.Core] = cc
			order = append(order, c.Core)
		}
		for len(cc.cpus) <= c.Thread {
			cc.cpus = append(cc.cpus, -1)
		}
		cc.cpus[c.Thread] = c.CPU
	}
	sort.Ints(order)
	out := make([]coreCPUs, 0, len(order))
	for _, k := range order {
		cc := *byCore[k]
		var cs []int
		for _, c := range cc.cpus {
			if c >= 0 {
				cs = append(cs, c)
			}
		}
		cc.cpus = cs
		out = append(out, cc)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].node < out[j].node })
	return out
}

func detailLayout(cores []coreCPUs, lane float64) Layout {
	l := Layout{CoresPerRow: 1}
	y := 0.0
	node := -1
	for _, c := range cores {
		if c.node != node {
			if node >= 0 {
				y += NodeGap
			}
			node = c.node
			l.NodeY = append(l.NodeY, y)
		}
		l.Bands = append(l.Bands, Band{Y: y, H: BandH, Cores: []int{c.core}})
		y += BandH
		for t, cpu := range c.cpus {
			// A one-thread core has no PE to name.
			label := fmt.Sprintf("cpu%d·c%d", cpu, c.core)
			if len(c.cpus) > 1 {
				label += fmt.Sprintf("·PE%d", t)
			}
			l.Rows = append(l.Rows, Row{Y: y, H: lane, CPUs: []int{cpu}, Label: label,
				Core: c.core, Thread: t, Threads: len(c.cpus)})
			y += lane
		}
		y += CoreGap
	}
	l.Height = y
	return l
}

func aggLayout(cores []coreCPUs, k int) Layout {
	l := Layout{CoresPerRow: k, Aggregated: true}
	y := 0.0
	for i := 0; i < len(cores); {
		node := cores[i].node
		if i > 0 {
			y += NodeGap
		}
		l.NodeY = append(l.NodeY, y)
		for i < len(cores) && cores[i].node == node {
			var cs, cpus []int
			j := i
			for ; j < len(cores) && j < i+k && cores[j].node == node; j++ {
				cs = append(cs, cores[j].core)
				cpus = append(cpus, cores[j].cpus...)
			}
			l.Bands = append(l.Bands, Band{Y: y, H: AggBandH, Cores: cs})
			y += AggBandH
			label := fmt.Sprintf("cores %d–%d", cs[0], cs[len(cs)-1])
			if len(cs) == 1 {
				label = fmt.Sprintf("core %d", cs[0])
			}
			l.Rows = append(l.Rows, Row{Y: y, H: AggRowH, CPUs: cpus, Label: label, Core: cs[0], Thread: -1, Threads: len(cpus)})
			y += AggRowH + 1
			i = j
		}
	}
	l.Height = y
	return l
}

// RowAt is the index of the row under y, or -1.
func (l Layout) RowAt(y float64) int {
	i := sort.Search(len(l.Rows), func(i int) bool { return l.Rows[i].Y+l.Rows[i].H > y })
	if i < len(l.Rows) && y >= l.Rows[i].Y {
		return i
	}
	return -1
}

// VisibleRows is the index range [i, j) of rows overlapping [y0, y1).
func (l Layout) VisibleRows(y0, y1 float64) (int, int) {
	i := sort.Search(len(l.Rows), func(i int) bool { return l.Rows[i].Y+l.Rows[i].H > y0 })
	j := sort.Search(len(l.Rows), func(j int) bool { return l.Rows[j].Y >= y1 })
	return i, j
}

// DrawnLabels are the rows' labels as the timelines draw them (short
// CPU labels, "cpu12 PE0"; aggregated rows as they are), "|"-separated:
// the canvas's text for tests and tools.
func (l Layout) DrawnLabels() string {
	out := make([]string, len(l.Rows))
	for i, r := range l.Rows {
		out[i] = viewkit.ShortLabel(r.Label)
	}
	return strings.Join(out, "|")
}
