package scenario

// checkChannelKinds reports a channel whose sends name different ipc
// kinds or message sizes: a channel is one kernel object. A group whose
// channel names use InstanceToken is walked once per task (the caller has
// bounded count × steps); a step is reported once.
func checkChannelKinds(errs *ErrorList, groups []Group) {
	type kind struct {
		ipc   IPCKind
		bytes int
		at    string
	}
	seen := map[string]kind{}
	reported := map[string]bool{} // a step's conflict once, not once per task
	var walk func(path string, steps []Step, depth, k int)
	walk = func(path string, steps []Step, depth, k int) {
		if depth > MaxProgramDepth {
			return // reported by validateSteps
		}
		for i := range steps {
			s := &steps[i]
			p := indexPath(path, i)
			if s.Send != "" {
				name := ChannelFor(s.Send, k)
				this := kind{s.IPC, s.Bytes, p}
				if first, ok := seen[name]; !ok {
					seen[name] = this
				} else if (first.ipc != this.ipc || first.bytes != this.bytes) && !reported[p] {
					reported[p] = true
					errs.Add(p, "channel %q is ipc %q of %d bytes here but ipc %q of %d bytes at %s; a channel is one kernel object",
						name, this.ipc, this.bytes, first.ipc, first.bytes, first.at)
				}
			}
			if s.Periodic != nil {
				walk(p+".periodic.do", s.Periodic.Do, depth+1, k)
			}
			walk(p+".do", s.Do, depth+1, k)
		}
	}
	for i := range groups {
		g := &groups[i]
		n := 1
		if UsesInstance(g.Program) {
			n = g.Count
		}
		for k := 0; k < n; k++ {
			walk(indexPath("workload.groups", i)+".program", g.Program, 1, k)
		}
	}
}
