package scenario

// checkChannelKinds reports a channel whose sends name different ipc
// kinds or message sizes: a channel is one kernel object.
func checkChannelKinds(errs *ErrorList, groups []Group) {
	type kind struct {
		ipc   IPCKind
		bytes int
		at    string
	}
	seen := map[string]kind{}
	var walk func(path string, steps []Step, depth int)
	walk = func(path string, steps []Step, depth int) {
		if depth > MaxProgramDepth {
			return // reported by validateSteps
		}
		for i := range steps {
			s := &steps[i]
			p := indexPath(path, i)
			if s.Send != "" {
				k := kind{s.IPC, s.Bytes, p}
				if first, ok := seen[s.Send]; !ok {
					seen[s.Send] = k
				} else if first.ipc != k.ipc || first.bytes != k.bytes {
					errs.Add(p, "channel %q is ipc %q of %d bytes here but ipc %q of %d bytes at %s; a channel is one kernel object",
						s.Send, k.ipc, k.bytes, first.ipc, first.bytes, first.at)
				}
			}
			if s.Periodic != nil {
				walk(p+".periodic.do", s.Periodic.Do, depth+1)
			}
			walk(p+".do", s.Do, depth+1)
		}
	}
	for i := range groups {
		walk(indexPath("workload.groups", i)+".program", groups[i].Program, 1)
	}
}
