package scenario

import "fmt"

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
	forEachSend(groups, func(p string, s *Step, k int) {
		name := ChannelFor(s.Send, k)
		this := kind{s.IPC, s.Bytes, p}
		if first, ok := seen[name]; !ok {
			seen[name] = this
		} else if (first.ipc != this.ipc || first.bytes != this.bytes) && !reported[p] {
			reported[p] = true
			errs.Add(p, "channel %q is ipc %q of %d bytes here but ipc %q of %d bytes at %s; a channel is one kernel object",
				name, this.ipc, this.bytes, first.ipc, first.bytes, first.at)
		}
	})
}

// checkChannelBatches reports a send of several messages at once ("wake"
// above 1) on a channel with a buffer limit: a pipe or socket, or a
// capacity set at any of its sends. A full buffer blocks a writer message
// by message (pipe_write() per page, unix_stream_sendmsg() per skb in
// sock_alloc_send_pskb()), which one send of n messages cannot do; n
// sends can. "wake" n is a futex wake-n, or n messages on an unbounded
// channel.
func checkChannelBatches(errs *ErrorList, groups []Group) {
	limit := map[string]string{} // channel → what bounds its buffer
	forEachSend(groups, func(p string, s *Step, k int) {
		name := ChannelFor(s.Send, k)
		switch {
		case limit[name] != "":
		case s.IPC == IPCPipe || s.IPC == IPCSocket:
			limit[name] = "it is a " + string(s.IPC)
		case s.Capacity > 0:
			limit[name] = fmt.Sprintf("it has a capacity of %d at %s", s.Capacity, p)
		}
	})
	reported := map[string]bool{}
	forEachSend(groups, func(p string, s *Step, k int) {
		name := ChannelFor(s.Send, k)
		if s.Wake > 1 && limit[name] != "" && !reported[p] {
			reported[p] = true
			errs.Add(p+".wake", "posts %d messages at once on channel %q, but %s: a full buffer blocks a writer message by message; "+
				"send them one at a time ({\"repeat\": %d, \"do\": [a send without wake]})", s.Wake, name, limit[name], s.Wake)
		}
	})
}

// channelKinds is the ipc kind of every channel a send declares one for,
// by the channel's name (checkChannelKinds refuses a document whose sends
// of one channel disagree).
func channelKinds(groups []Group) map[string]IPCKind {
	kinds := map[string]IPCKind{}
	forEachSend(groups, func(_ string, s *Step, k int) {
		if s.IPC != IPCNone {
			kinds[ChannelFor(s.Send, k)] = s.IPC
		}
	})
	return kinds
}

// forEachSend calls fn for every send step of every group's program, with
// its field path and the index k of the task it is compiled for: a group
// whose channel names use {i} once per task, as the simulator compiles
// it, any other once (k = 0).
func forEachSend(groups []Group, fn func(path string, s *Step, k int)) {
	var walk func(path string, steps []Step, depth, k int)
	walk = func(path string, steps []Step, depth, k int) {
		if depth > MaxProgramDepth {
			return // reported by validateSteps
		}
		for i := range steps {
			s := &steps[i]
			p := indexPath(path, i)
			if s.Send != "" {
				fn(p, s, k)
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
