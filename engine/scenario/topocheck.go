package scenario

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"

	"schedplay/engine/topo"
)

// builtTopology is a Resolved's topology and the machine and policy it was
// built from (their JSON), so that it is built once per resolution: the
// validation builds it and the simulator runs on it.
type builtTopology struct {
	t   *topo.Topology
	key []byte
}

// Topology returns the sched-domain hierarchy of r's machine under its
// policy (topo.Build), building it on the first call and keeping it: copies
// of r share it, and a copy whose machine or policy was changed since gets
// its own. What the build rejects is reported at its field path (an
// ErrorList); a done ctx stops the build with ctx's error.
func (r *Resolved) Topology(ctx context.Context) (*topo.Topology, error) {
	key, err := topologyKey(r)
	if err != nil {
		return nil, err
	}
	if b := r.topology; b != nil && bytes.Equal(b.key, key) {
		return b.t, nil
	}
	t, err := topo.BuildContext(ctx, r.Machine, r.Policy.DomainPolicy)
	if err != nil {
		return nil, topologyError(err)
	}
	r.topology = &builtTopology{t: t, key: key}
	return t, nil
}

// topologyError locates what topo.Build rejects at its field path; a
// context's error passes through.
func topologyError(err error) error {
	var te *topo.Error
	if !errors.As(err, &te) {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return err
		}
		return ErrorList{{Path: "machine", Msg: err.Error()}}
	}
	path := te.Path
	if path != "" && !strings.HasPrefix(path, "machine") && !strings.HasPrefix(path, "policy") {
		path = joinPath("machine", path)
	}
	return ErrorList{{Path: path, Msg: te.Msg}}
}

// TopologyKey identifies r's topology: its machine and domain policy as
// JSON. Two resolutions with the same key build the same topology.
func TopologyKey(r *Resolved) string {
	k, _ := topologyKey(r)
	return string(k)
}

func topologyKey(r *Resolved) ([]byte, error) {
	return json.Marshal(struct {
		M topo.Machine
		P topo.DomainPolicy
	}{r.Machine, r.Policy.DomainPolicy})
}

// TopologyCache shares built topologies between the resolutions of one
// request (a comparison's runs on one machine and policy). The zero value
// is an empty cache.
type TopologyCache struct {
	built []*builtTopology
}

// Topology is r.Topology, built at most once per machine and policy of
// the cache.
func (c *TopologyCache) Topology(ctx context.Context, r *Resolved) (*topo.Topology, error) {
	key, err := topologyKey(r)
	if err != nil {
		return nil, err
	}
	for _, b := range c.built {
		if bytes.Equal(b.key, key) {
			r.topology = b
			return b.t, nil
		}
	}
	t, err := r.Topology(ctx)
	if err != nil {
		return nil, err
	}
	c.built = append(c.built, r.topology)
	return t, nil
}
