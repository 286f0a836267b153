package playground

import (
	"encoding/json"
	"fmt"
	"strings"

	"schedplay/site"
)

// ImportReply is POST /api/v1/import's reply (site/importapi).
type ImportReply struct {
	Format   string          `json:"format"`
	Summary  string          `json:"summary"`
	Notes    []string        `json:"notes"`
	Scenario json.RawMessage `json:"scenario"`
	Check    *struct {
		CPUs     int    `json:"cpus"`
		Matching int    `json:"matching"`
		Text     string `json:"text"`
	} `json:"check"`
}

// machineFormats are the import formats that describe a machine (the
// others are workloads: rt-app JSON and traces).
var machineFormats = []string{"sysfs snapshot", "hwloc XML", "sched domains dump",
	"lscpu -p", "lscpu -e", "lscpu -e --json", "lscpu", "lscpu --json"}

// ImportedDoc is the scenario an import gives the page: a machine
// replaces the current scenario's machine (the workload, policy and run
// stay); a workload import (which ran on the current machine) is the
// whole scenario. The notice says what was imported and lists the notes.
func ImportedDoc(cur site.Doc, rep ImportReply) (site.Doc, Notice, error) {
	doc, err := site.ParseDoc(rep.Scenario)
	if err != nil {
		return nil, Notice{}, fmt.Errorf("the import's scenario: %v", err)
	}
	isMachine := false
	for _, f := range machineFormats {
		isMachine = isMachine || rep.Format == f
	}
	out := doc
	if isMachine && cur != nil {
		out = cur.Clone()
		out["machine"] = doc["machine"]
	}
	detail := strings.Join(rep.Notes, "; ")
	if rep.Check != nil {
		detail = strings.TrimSpace(rep.Check.Text + "; " + detail)
	}
	return out, Notice{Kind: "info", Text: "Imported " + rep.Summary, Detail: detail}, nil
}

// ImportError is the notice of a failed import: the API's message (the
// file and line it names), as text.
func ImportError(name string, status int, body string) Notice {
	var e struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	msg := body
	if json.Unmarshal([]byte(body), &e) == nil && e.Error.Message != "" {
		msg = e.Error.Message
	}
	if status == 0 && msg == "" {
		msg = "the import worker did not answer"
	}
	return Notice{Kind: "error", Text: "Could not import " + name, Detail: msg}
}
