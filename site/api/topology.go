package api

import (
	"context"
	"fmt"
	"net/http"
	"strconv"

	"schedplay/engine/scenario"
	"schedplay/engine/topo"
)

// POST /api/v1/topology?cpu=N: the sched-domain hierarchy of a scenario's
// machine under its policy (topo.View: CPU N's domain chain, every CPU's
// arch_asym_cpu_priority()), for the page's topology view. The page sends
// it to its engine worker, so the topology is built there under the
// browser's budget and never on the page's main thread (issue 17).
func (s *server) handleTopology(ctx context.Context, w http.ResponseWriter, r *http.Request) error {
	cpu := 0
	if q := r.URL.Query().Get("cpu"); q != "" {
		n, err := strconv.Atoi(q)
		if err != nil || n < 0 {
			return badRequest(&scenario.Error{Path: "cpu", Msg: "must be a CPU number (?cpu=0)"})
		}
		cpu = n
	}
	_, _, rs, release, err := s.readResolved(ctx, w, r)
	if err != nil {
		return err
	}
	defer release()
	t, err := rs.Topology(ctx)
	if err != nil {
		return err
	}
	if cpu >= t.NumCPUs() {
		return badRequest(&scenario.Error{Path: "cpu", Msg: fmt.Sprintf("CPU %d does not exist; this machine has CPUs 0-%d", cpu, t.NumCPUs()-1)})
	}
	one := topo.NewCPUSet(t.NumCPUs())
	one.Set(topo.CPU(cpu))
	v := topo.NewView(t, "", "", one)
	v.Priorities = make([]int, t.NumCPUs())
	for i, c := range t.CPUs {
		v.Priorities[i] = c.Priority
	}
	writeJSON(w, http.StatusOK, v)
	return nil
}
