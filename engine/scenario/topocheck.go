package scenario

import (
	"errors"
	"strings"

	"schedplay/engine/topo"
)

// validateTopology builds the sched-domain hierarchy of the machine under the
// policy (topo.Build) and reports what it rejects at its field path.
func validateTopology(errs *ErrorList, r *Resolved) {
	_, err := topo.Build(r.Machine, r.Policy.DomainPolicy)
	if err == nil {
		return
	}
	var te *topo.Error
	if errors.As(err, &te) {
		path := te.Path
		if path != "" && !strings.HasPrefix(path, "machine") && !strings.HasPrefix(path, "policy") {
			path = joinPath("machine", path)
		}
		errs.Add(path, "%s", te.Msg)
		return
	}
	errs.Add("machine", "%v", err)
}
