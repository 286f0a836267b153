package playground

import (
	"schedplay/engine/sim"
	"schedplay/site"
	"schedplay/site/viewkit"
)

// Tabs of the editor panel.
const (
	TabMachine  = "machine"
	TabPolicy   = "policy"
	TabWorkload = "workload"
	TabRun      = "run"
	TabJSON     = "json"
)

// RunStatus is the life cycle of a simulation request.
type RunStatus string

const (
	StatusIdle    RunStatus = ""
	StatusRunning RunStatus = "running"
	StatusDone    RunStatus = "done"
	StatusFailed  RunStatus = "failed"
	StatusStale   RunStatus = "stale" // the scenario changed since the shown result
)

// Issue is a validation message at a field path.
type Issue struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

// Notice is a page-level message (a bad link, a refused scenario).
type Notice struct {
	Kind string // "error" or "info"
	Text string
	// Detail keeps the text that caused it (the bad link), shown verbatim.
	Detail string
}

// RunState is the simulation request and its outcome.
type RunState struct {
	Seq    int // id of the latest request; replies for older ones are dropped
	Status RunStatus
	Result *sim.Result
	// ResultDoc is the canonical scenario the Result belongs to.
	ResultDoc string
	Err       string
	ErrPath   string
	// Invalid says the validator refused the scenario (Status failed):
	// State.Issues, not Err, are the reason shown.
	Invalid   bool
	ElapsedMs float64
	// CPUs places the result's CPUs in the hardware (lane grouping).
	CPUs []site.LaneCPU
	// Words names the result machine's core modes (its SMT model).
	Words viewkit.ModeWords
	// Provisional > 0 says Result is repetition 0 only, shown while all
	// Provisional repetitions of request Seq are still running.
	Provisional int
}

// View is everything about how the result is shown.
type View struct {
	Tab string
	// T0, T1 is the visible time window (ns); T1 == 0 means "whole run".
	T0, T1 int64
	// Hover is the pointer position over the timeline (-1 CPU = none).
	HoverX, HoverY float64
	Hovering       bool
	// AllRows gives every CPU its own row (scrolling) instead of fitting.
	AllRows bool
	// ScrollY is the timeline's vertical scroll offset (px) with AllRows.
	ScrollY float64
	// TopoCPU is the CPU whose domain chain the topology view lists.
	TopoCPU int
	// Group selects the workload group shown in the editor.
	Group int
	// Find highlights the slices of the tasks whose name contains it
	// (case-insensitive; a group's tasks are named after it).
	Find string
	// MarkCPU is the CPU "jump to CPU" went to (outlined) when Marked.
	MarkCPU int
	Marked  bool
	// Explained is the slice the explain panel explains (outlined).
	Explained Explained
}

// Explained names a slice of the timeline: Runs[CPU][Idx] when On.
type Explained struct {
	CPU, Idx int
	On       bool
}

// State is the whole page state. It is a value: Reduce returns a new one.
type State struct {
	Doc     site.Doc
	Catalog *site.Catalog
	// CatalogErr says why presets could not be loaded.
	CatalogErr string
	View       View
	Run        RunState
	Issues     []Issue
	// Drafts are editor texts that do not parse yet, by path; they are kept
	// so a half-typed value is not lost, with an Issue at the same path.
	Drafts map[string]string
	Notice Notice
	// Live re-runs the engine on every edit.
	Live bool
	// Past are the scenarios before the last edits (Undo), Future the ones
	// undone (Redo); both bounded.
	Past, Future []site.Doc
	// History is the short list of finished runs to go back to.
	History []RunRecord
}

// RunRecord is a finished run of the history: its scenario, name, headline
// figure and result (shown again without running).
type RunRecord struct {
	Doc            site.Doc
	Name, Headline string
	Result         *sim.Result
	CPUs           []site.LaneCPU
	Words          viewkit.ModeWords
}

// NewState is the state before anything is loaded.
func NewState() State {
	return State{Doc: site.DefaultDoc(), View: View{Tab: TabMachine}, Live: true}
}

// IssueAt returns the message for a path, if any.
func (s State) IssueAt(path string) string {
	for _, is := range s.Issues {
		if is.Path == path {
			return is.Message
		}
	}
	return ""
}
