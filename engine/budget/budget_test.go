package budget

import (
	"errors"
	"strings"
	"testing"
)

// TestCheck: each budget refuses at the path the cost names, in order,
// and a cost within every budget passes.
func TestCheck(t *testing.T) {
	p := Profile{Name: "test", Domains: 100, EventsPerRep: 1000, Events: 2000, ReplyBytes: 1 << 20, Memory: 1 << 30}
	ok := Cost{CPUs: 8, Domains: 40, EventsPerRep: 900, Events: 1900, Samples: 5, ReplyBytes: 1 << 10, Memory: 1 << 20}
	if err := p.Check(ok); err != nil {
		t.Fatalf("within budget: %v", err)
	}
	for _, tt := range []struct {
		mod        func(*Cost)
		path, name string
	}{
		{func(c *Cost) { c.Domains, c.DomainsPath = 101, "machine.distances" }, "machine.distances", "domains"},
		{func(c *Cost) { c.EventsPerRep, c.EventsPath = 1000, "workload.groups[2]" }, "workload.groups[2]", "events"},
		{func(c *Cost) { c.CPUs, c.EventsPath = 600, "run.duration" }, "run.duration", "events"}, // 1000/(1+1) = 500 < 900
		{func(c *Cost) { c.Events, c.RepsPath = 2001, "run.reps" }, "run.reps", "events"},
		{func(c *Cost) { c.ReplyBytes, c.ReplyPath = 2<<20, "timeline" }, "timeline", "reply"},
		{func(c *Cost) { c.Memory, c.MemoryPath = 2<<30, "workload.groups" }, "workload.groups", "memory"},
	} {
		c := ok
		tt.mod(&c)
		var e *Error
		if err := p.Check(c); !errors.As(err, &e) || e.Path != tt.path || e.Budget != tt.name || !strings.Contains(e.Msg, "the test budget") {
			t.Errorf("%+v: got %v; want the %s budget at %s", c, err, tt.name, tt.path)
		}
	}
	if err := (Profile{}).Check(Cost{Domains: 1e12, Events: 1e12, Memory: 1e18}); err != nil {
		t.Errorf("the zero profile bounds something: %v", err)
	}
	if err := p.CheckOverrides("set", 5); err != nil {
		t.Error(err)
	}
	if err := (Profile{Name: "x", Overrides: 4}).CheckOverrides("set", 5); err == nil || !strings.Contains(err.Error(), "set: 5 overrides") {
		t.Errorf("5 overrides over a budget of 4: %v", err)
	}
}

// TestProfilesOrdered: the Worker is the tightest profile, serve the
// loosest, and the Worker's deadline is its CPU limit.
func TestProfilesOrdered(t *testing.T) {
	if !(Worker.Domains < Browser.Domains && Browser.Domains < Serve.Domains) ||
		!(Worker.Events < Browser.Events && Browser.Events <= Serve.Events) ||
		!(Worker.Memory < Browser.Memory && Browser.Memory <= Serve.Memory) {
		t.Errorf("profiles out of order: %+v %+v %+v", Worker, Browser, Serve)
	}
	if Worker.Deadline.Milliseconds() != WorkerCPUMillis {
		t.Errorf("Worker deadline %v; want limits.cpu_ms %d ms", Worker.Deadline, WorkerCPUMillis)
	}
	// every machine the format allows builds within the serve budget
	if maxDomains := 4096.0 * (4 + 254); Serve.Domains < maxDomains {
		t.Errorf("serve refuses a machine the format allows: %v domains < %v", Serve.Domains, maxDomains)
	}
}

// TestRepEventCap: a run's event cap is RepEventMargin times the
// per-repetition budget on its CPUs, and 0 (the simulator's own cap) for a
// profile that bounds nothing.
func TestRepEventCap(t *testing.T) {
	for _, tt := range []struct {
		p    Profile
		cpus int
		want int64
	}{
		{Worker, 128, 49_450_549}, // 1.5 × 40 M / (1 + 128/600)
		{Worker, 600, 30_000_000}, // 1.5 × 40 M / 2
		{Serve, 4096, 76_660_988}, // 1.5 × 400 M / (1 + 4096/600)
		{Profile{}, 8, 0},
	} {
		if got := tt.p.RepEventCap(tt.cpus); got != tt.want {
			t.Errorf("%q on %d CPUs: cap %d; want %d", tt.p.Name, tt.cpus, got, tt.want)
		}
	}
}
