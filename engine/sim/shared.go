package sim

import "schedplay/engine/topo"

// initShared places each CPU's sched_domain_shared (sim.shared). 6.12
// keeps it on the LLC (sd_llc_shared). The tip the Olympus mails measured
// carries "sched/fair: Attach sched_domain_shared to sd_asym_cpucapacity"
// (one of the four commits of SMT_AWARE_ASYM_CAPACITY): a CPU whose
// lowest SD_ASYM_CPUCAPACITY_FULL domain is not built from SD_NUMA keeps
// its shared data there, so has_idle_cores and the SIS_UTIL budget that
// select_idle_capacity() reads cover the span it scans. On a NUMA-built
// one the data stays on the LLC and select_idle_capacity() has no budget.
// Where the asym domain is the LLC (Vera) the two places are one.
func (s *sim) initShared() {
	n := len(s.cpus)
	s.shared = make([]*llcState, n)
	s.sharedDom = make([]*topo.Domain, n)
	s.asymShared = nil
	for i := range n {
		if sd := s.asymSharedDomain(i); sd != nil {
			if s.asymShared == nil {
				s.asymShared = make([]llcState, n)
			}
			// a machine that has been up: the budget of an idle domain
			// (as for the LLC's, run.go)
			k := int(sd.Span.First())
			s.asymShared[k] = llcState{hasIdleCores: true, nrIdleScan: sd.Span.Weight()}
			s.shared[i], s.sharedDom[i] = &s.asymShared[k], sd
			continue
		}
		s.shared[i], s.sharedDom[i] = &s.llcs[s.t.SDLLCID[i]], s.t.SDLLC[i]
	}
}

// asymSharedDomain is the domain other than the LLC that holds cpu's
// sched_domain_shared, or nil (the LLC holds it).
func (s *sim) asymSharedDomain(cpu int) *topo.Domain {
	if !s.feat.SMTAwareAsymCapacityOn() {
		return nil
	}
	sd := s.t.SDAsymCPUCapacity[cpu]
	if sd == nil || sd.Flags&topo.SDNUMA != 0 || sd == s.t.SDLLC[cpu] {
		return nil
	}
	return sd
}
