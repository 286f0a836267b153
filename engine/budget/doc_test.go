package budget

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// profileTable is the table of docs/limits.md, made from the profiles.
func profileTable() string {
	ps := []Profile{Browser, Serve, Worker}
	var b strings.Builder
	b.WriteString("| budget | browser | serve | Worker |\n|---|---:|---:|---:|\n")
	row := func(name string, f func(Profile) string) {
		fmt.Fprintf(&b, "| %s |", name)
		for _, p := range ps {
			fmt.Fprintf(&b, " %s |", f(p))
		}
		b.WriteByte('\n')
	}
	count := func(v float64) string {
		if v >= 1e6 {
			return Human(v)
		}
		return fmt.Sprintf("%.0f", v)
	}
	row("sched domains", func(p Profile) string { return count(p.Domains) })
	row("events per repetition (≤ 600 CPUs)", func(p Profile) string { return count(p.EventsPerRep) })
	row("events per request (≤ 600 CPUs)", func(p Profile) string { return count(p.Events) })
	row("timeline intervals", func(p Profile) string { return count(float64(p.Timeline)) })
	row("decision records", func(p Profile) string { return count(float64(p.Decisions)) })
	row("reply", func(p Profile) string { return Bytes(p.ReplyBytes) })
	row("memory", func(p Profile) string { return Bytes(p.Memory) })
	row("overrides", func(p Profile) string { return fmt.Sprint(p.Overrides) })
	row("deadline", func(p Profile) string {
		if p.Deadline == 0 {
			return "none"
		}
		return p.Deadline.String()
	})
	return b.String()
}

// TestLimitsDoc: docs/limits.md gives the profiles' budgets as they are
// (run with -v to print the table).
func TestLimitsDoc(t *testing.T) {
	doc, err := os.ReadFile("../../docs/limits.md")
	if err != nil {
		t.Fatal(err)
	}
	table := profileTable()
	t.Logf("\n%s", table)
	if !strings.Contains(string(doc), table) {
		t.Errorf("docs/limits.md lacks the profiles' table; it is now:\n%s", table)
	}
	cpu := fmt.Sprintf(`"cpu_ms": %d`, WorkerCPUMillis)
	if !strings.Contains(string(doc), cpu) {
		t.Errorf("docs/limits.md does not give limits.cpu_ms = %d", WorkerCPUMillis)
	}
	wrangler, err := os.ReadFile("../../wasm/edge/wrangler.jsonc")
	if err != nil || !strings.Contains(string(wrangler), cpu) {
		t.Errorf("wasm/edge/wrangler.jsonc does not set limits.cpu_ms = %d (%v)", WorkerCPUMillis, err)
	}
}
