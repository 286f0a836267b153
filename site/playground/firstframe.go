package playground

import (
	"errors"
	"strings"

	"schedplay/site"
)

// Precomputed first frames (docs/speed.md): ./build.sh build runs, with the
// native engine, the first simulate request the page sends for every seed
// link (?preset=NAME) and ships the reply as first/NAME.txt. A first
// visitor's page draws it as soon as the UI starts, while the engine's
// worker is still starting. The file holds the request on its first line
// and the reply after it: the page adopts the reply only when that request
// is exactly the one it would send, so a stale file is never drawn, and
// the e2e suite checks that the engine replies the same bytes.

// simulateBody is the POST /api/v1/simulate request for a scenario.
func simulateBody(doc string) string { return `{"timeline":true,"scenario":` + doc + `}` }

// simulateBodyQuick asks for repetition 0's run and mode intervals without
// decision records: the quick first picture of progressive refinement.
func simulateBodyQuick(doc string) string { return `{"timeline":"runs","scenario":` + doc + `}` }

// isSmall says whether a scenario whose machine has these CPUs (as
// State.CPUs gives them) is cheap enough to re-run on every edit.
func isSmall(cpus []site.LaneCPU, err error) bool {
	return err == nil && len(cpus) <= 64
}

// firstRequest is the body of the first simulate request for the current
// scenario of s: repetition 0 alone (intervals only) when the machine is
// large and the scenario has several repetitions, else the whole run.
func firstRequest(s State, small bool) (body string, reps int, provisional bool) {
	if !small {
		if first, n, ok := ProvisionalDoc(s.Doc, s.Catalog); ok {
			return simulateBodyQuick(first.Canonical()), n, true
		}
	}
	return simulateBody(s.Doc.Canonical()), RunReps(s.Doc, s.Catalog), false
}

// FirstRequest returns the body of the first simulate request the page
// sends when it opens the seed link ?preset=name.
func FirstRequest(cat *site.Catalog, name string) (string, error) {
	s := Reduce(State{Catalog: cat}, SelectScenario{Name: name})
	if s.Notice.Kind == "error" {
		return "", errors.New(s.Notice.Text)
	}
	cpus, err := site.MachineCPUs(s.Machine())
	if err != nil {
		return "", err
	}
	body, _, _ := firstRequest(s, isSmall(cpus, err))
	return body, nil
}

// FirstFrame is the text of a first-frame file.
func FirstFrame(request, reply string) string { return request + "\n" + reply }

// firstFrameReply returns the reply of first-frame file text when its
// request is request.
func firstFrameReply(text, request string) (string, bool) {
	req, reply, ok := strings.Cut(text, "\n")
	if !ok || req != request || reply == "" {
		return "", false
	}
	return reply, true
}
