package trace

import (
	"bytes"
	"errors"
	"strconv"
)

// switchEvent is sched_switch's payload.
type switchEvent struct {
	prevComm  []byte
	prevPid   int
	prevPrio  int
	prevState state
	nextComm  []byte
	nextPid   int
	nextPrio  int
}

// state is how the previous task left the CPU.
type state uint8

const (
	stRunnable state = iota // R, R+: preempted, still runnable
	stBlocked               // S, D, I, …: it sleeps
	stDead                  // X, Z: it exits
)

var errPayload = errors.New("malformed payload")

// parseSwitch reads "prev_comm=A prev_pid=1 prev_prio=120 prev_state=S
// ==> next_comm=B next_pid=2 next_prio=120" (comm may hold spaces), or
// trace-cmd's plugin form "A:1 [120] S ==> B:2 [120]".
func parseSwitch(p []byte, s *switchEvent) error {
	prev, next, ok := bytes.Cut(p, []byte(" ==> "))
	if !ok {
		return errPayload
	}
	if bytes.HasPrefix(prev, []byte("prev_comm=")) {
		var st []byte
		var err error
		if s.prevComm, err = between(prev, "prev_comm=", " prev_pid="); err != nil {
			return err
		}
		if s.prevPid, err = intField(prev, " prev_pid="); err != nil {
			return err
		}
		s.prevPrio, _ = intField(prev, " prev_prio=")
		if st, err = rest(prev, " prev_state="); err != nil {
			return err
		}
		s.prevState = parseState(st)
		if s.nextComm, err = between(next, "next_comm=", " next_pid="); err != nil {
			return err
		}
		if s.nextPid, err = intField(next, " next_pid="); err != nil {
			return err
		}
		s.nextPrio, _ = intField(next, " next_prio=")
		return nil
	}
	// Plugin form: COMM:PID [PRIO] STATE
	c, pid, prio, tail, err := commPidPrio(prev)
	if err != nil {
		return err
	}
	s.prevComm, s.prevPid, s.prevPrio = c, pid, prio
	s.prevState = parseState(bytes.TrimSpace(tail))
	s.nextComm, s.nextPid, s.nextPrio, _, err = commPidPrio(next)
	return err
}

// wakeEvent is the payload of sched_waking, sched_wakeup, sched_wakeup_new.
type wakeEvent struct {
	comm   []byte
	pid    int
	prio   int
	target int
}

// parseWake reads "comm=A pid=1 prio=120 [success=1] target_cpu=003" or
// trace-cmd's "A:1 [120] [success=1] CPU:003".
func parseWake(p []byte, w *wakeEvent) error {
	var err error
	if bytes.HasPrefix(p, []byte("comm=")) {
		if w.comm, err = between(p, "comm=", " pid="); err != nil {
			return err
		}
		if w.pid, err = intField(p, " pid="); err != nil {
			return err
		}
		w.prio, _ = intField(p, " prio=")
		w.target, err = intField(p, " target_cpu=")
		if err != nil {
			w.target, err = -1, nil
		}
		return nil
	}
	var tail []byte
	w.comm, w.pid, w.prio, tail, err = commPidPrio(p)
	if err != nil {
		return err
	}
	w.target = -1
	if i := bytes.Index(tail, []byte("CPU:")); i >= 0 {
		w.target, _ = leadingInt(tail[i+4:])
	}
	return nil
}

// forkEvent is sched_process_fork's payload.
type forkEvent struct {
	childComm []byte
	childPid  int
}

// parseFork reads "comm=A pid=1 child_comm=B child_pid=2".
func parseFork(p []byte, f *forkEvent) error {
	var err error
	if f.childComm, err = between(p, "child_comm=", " child_pid="); err != nil {
		return err
	}
	f.childPid, err = intField(p, " child_pid=")
	return err
}

// parseExit reads sched_process_exit's "comm=A pid=1 prio=120".
func parseExit(p []byte) (int, error) { return intField(p, " pid=") }

// parseRename reads task_rename's "pid=1 oldcomm=a newcomm=b oom_score_adj=0".
func parseRename(p []byte) (int, []byte, error) {
	pid, err := intField(append([]byte(" "), p...), " pid=")
	if err != nil {
		return 0, nil, err
	}
	c, err := between(p, "newcomm=", " oom_score_adj=")
	if err != nil {
		c, err = rest(p, "newcomm=")
	}
	return pid, c, err
}

// parseState reads a prev_state: letters (R, R+, S, D, X, Z, …), or a
// number in raw mode (0 runnable; bit 0 S, bit 1 D, 16/32 dead).
func parseState(s []byte) state {
	if n, err := strconv.Atoi(string(s)); err == nil {
		switch {
		case n == 0 || n&0xff == 0 && n >= 256:
			return stRunnable // 1024 and the like: preempted (TASK_REPORT_MAX / R+)
		case n&(16|32) != 0:
			return stDead
		}
		return stBlocked
	}
	if len(s) == 0 {
		return stRunnable
	}
	switch s[0] {
	case 'R':
		return stRunnable
	case 'X', 'Z':
		return stDead
	}
	return stBlocked
}

// between returns the bytes after key and before end.
func between(p []byte, key, end string) ([]byte, error) {
	i := bytes.Index(p, []byte(key))
	if i < 0 {
		return nil, errPayload
	}
	v := p[i+len(key):]
	j := bytes.Index(v, []byte(end))
	if j < 0 {
		return nil, errPayload
	}
	return v[:j], nil
}

// rest returns the value after key up to the next space.
func rest(p []byte, key string) ([]byte, error) {
	i := bytes.Index(p, []byte(key))
	if i < 0 {
		return nil, errPayload
	}
	v := p[i+len(key):]
	if j := bytes.IndexByte(v, ' '); j >= 0 {
		v = v[:j]
	}
	return v, nil
}

// intField reads the integer after key.
func intField(p []byte, key string) (int, error) {
	i := bytes.Index(p, []byte(key))
	if i < 0 {
		return 0, errPayload
	}
	n, ok := leadingInt(p[i+len(key):])
	if !ok {
		return 0, errPayload
	}
	return n, nil
}

// leadingInt reads the digits at the start of b (a leading minus allowed).
func leadingInt(b []byte) (int, bool) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	j := 0
	for j < len(b) && isDigit(b[j]) {
		j++
	}
	n, ok := atoi(b[:j])
	if neg {
		n = -n
	}
	return n, ok
}

// commPidPrio reads the plugin form "COMM:PID [PRIO]" and what follows.
func commPidPrio(p []byte) (comm []byte, pid, prio int, tail []byte, err error) {
	p = bytes.TrimSpace(p)
	br := bytes.Index(p, []byte(" ["))
	head := p
	if br >= 0 {
		head = p[:br]
		if e := bytes.IndexByte(p[br:], ']'); e > 0 {
			prio, _ = atoi(p[br+2 : br+e])
			tail = p[br+e+1:]
		}
	}
	colon := bytes.LastIndexByte(head, ':')
	if colon < 0 {
		return nil, 0, 0, nil, errPayload
	}
	pid, ok := atoi(head[colon+1:])
	if !ok {
		return nil, 0, 0, nil, errPayload
	}
	return head[:colon], pid, prio, tail, nil
}
