package presets

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// TestMessagingG10FollowsG4: sched-messaging-g10 (perf's defaults, 10
// groups) is sched-messaging (-g 4) with six more groups, written out. It
// must not drift from the -g 4 preset: its groups are the -g 4 sender0 and
// receiver0 (whose 20 tasks read g0r{i}) renamed per group, and main
// counts 400 workers instead of 160.
func TestMessagingG10FollowsG4(t *testing.T) {
	ps, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	type group = map[string]any
	read := func(name string) []group {
		p, ok := ps.Get(Workload, name)
		if !ok {
			t.Fatalf("no workload preset %s", name)
		}
		var w struct {
			Groups []group `json:"groups"`
		}
		if err := json.Unmarshal(p.Body, &w); err != nil {
			t.Fatal(err)
		}
		return w.Groups
	}
	g4, g10 := read("sched-messaging"), read("sched-messaging-g10")
	byName := map[string]group{}
	for _, g := range g4 {
		byName[g["name"].(string)] = g
	}
	// renamed is g4's group from, its channels g0r… renamed for group g,
	// and its name set.
	renamed := func(from string, g int, name string) group {
		b, _ := json.Marshal(byName[from])
		s := strings.ReplaceAll(string(b), `"g0r`, fmt.Sprintf(`"g%dr`, g))
		var out group
		if err := json.Unmarshal([]byte(s), &out); err != nil {
			t.Fatal(err)
		}
		out["name"] = name
		return out
	}
	main4, _ := json.Marshal(byName["main"])
	var want []group
	var mainG group
	if err := json.Unmarshal([]byte(strings.ReplaceAll(string(main4), "160", "400")), &mainG); err != nil {
		t.Fatal(err)
	}
	want = append(want, mainG)
	for g := range 10 { // perf's group(): the receivers, then the senders
		want = append(want, renamed("receiver0", g, fmt.Sprintf("receiver%d", g)),
			renamed("sender0", g, fmt.Sprintf("sender%d", g)))
	}
	if len(g10) != len(want) {
		t.Fatalf("sched-messaging-g10 has %d groups; want %d", len(g10), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(g10[i], want[i]) {
			t.Fatalf("sched-messaging-g10 group %d (%v) is not the -g 4 preset's, renamed (%v)", i, g10[i]["name"], want[i]["name"])
		}
	}
}

// TestMessagingStartUpIsSync: perf's start-up handshake writes one byte
// per worker to the ready pipe or socket and, from main, one byte to the
// wake fd the workers poll(). Both writes wake their readers through
// wake_up_interruptible_sync_poll() (fs/pipe.c, sock_def_readable()), so
// with WF_SYNC; the poll waiters are non-exclusive, so the one write wakes
// every worker. Every `ready` and `go` send of the messaging workloads and
// of the seed's variants says so.
func TestMessagingStartUpIsSync(t *testing.T) {
	ps, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	type body struct {
		where string
		raw   json.RawMessage
	}
	var bodies []body
	for _, name := range ps.Names(Workload) {
		if strings.HasPrefix(name, "sched-messaging") {
			p, _ := ps.Get(Workload, name)
			bodies = append(bodies, body{"workload " + name, p.Body})
		}
	}
	seed, ok := ps.Get(Scenario, "vera-sched-messaging")
	if !ok {
		t.Fatal("no vera-sched-messaging")
	}
	for _, v := range seed.Variants {
		for _, o := range v.Set {
			bodies = append(bodies, body{"vera-sched-messaging variant " + v.Name + " " + o.Path, o.Value})
		}
	}
	seen := 0
	var walk func(where string, v any)
	walk = func(where string, v any) {
		switch x := v.(type) {
		case map[string]any:
			if name, ok := x["send"].(string); ok && (name == "ready" || name == "go") {
				seen++
				if x["sync"] != true {
					t.Errorf("%s: send %q is not WF_SYNC: %v", where, name, x)
				}
			}
			for _, c := range x {
				walk(where, c)
			}
		case []any:
			for _, c := range x {
				walk(where, c)
			}
		}
	}
	for _, b := range bodies {
		var v any
		if err := json.Unmarshal(b.raw, &v); err != nil {
			t.Fatalf("%s: %v", b.where, err)
		}
		walk(b.where, v)
	}
	if seen < 100 {
		t.Errorf("found %d ready/go sends; the presets have hundreds", seen)
	}
}
