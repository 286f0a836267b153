//go:build e2e

package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestImportDropDrawsMachine drops util-linux's `lscpu -p` of a 2-socket
// EPYC 7451 (96 CPUs, 8 NUMA nodes, an L3 per 3-core CCX) on the machine
// editor: the import worker turns it into a machine, the lstopo drawing
// shows its 96 PEs, the domain chain of a CPU is the EPYC's, the link
// carries the machine, and a malformed file gets its line in the notice.
func TestImportDropDrawsMachine(t *testing.T) {
	expected, err := os.ReadFile(filepath.Join("..", "engine", "importer", "testdata", "lscpu", "expected-x86_64-epyc_7451.txt"))
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(expected, []byte("# The following is the parsable format"))
	block := expected[i:]
	block = block[:bytes.Index(block, []byte("\n\n"))+1]
	ctx := newPage(t, 120*time.Second)
	open(t, ctx, "/?preset=hikey960-sysbench")
	click(t, ctx, "#tab-machine")
	run(t, ctx, "import zone", chromedp.WaitVisible("#import-zone", chromedp.ByQuery))
	drop := func(name string, body []byte) {
		js, _ := json.Marshal(string(body))
		run(t, ctx, "drop "+name, chromedp.Evaluate(`(() => {
			const dt = new DataTransfer();
			dt.items.add(new File([`+string(js)+`], "`+name+`", {type: "text/plain"}));
			document.getElementById("import-zone").dispatchEvent(new DragEvent("drop", {dataTransfer: dt, bubbles: true, cancelable: true}));
		})()`, nil))
	}
	drop("lscpu-p.txt", block)
	run(t, ctx, "machine drawn", chromedp.Poll(`document.querySelectorAll(".lstopo .t-pe").length === 96`, nil,
		chromedp.WithPollingTimeout(60*time.Second)))
	if n := eval[string](t, ctx, `(document.querySelector(".notice") || {}).textContent || ""`); !strings.Contains(n, "Imported lscpu -p: 96 CPUs") {
		t.Errorf("notice %q", n)
	}
	click(t, ctx, `.lstopo .t-pe[data-cpu="49"]`)
	run(t, ctx, "domains of CPU 49", chromedp.Poll(`(document.getElementById("domains-title") || {}).textContent === "Sched domains of CPU 49"`, nil,
		chromedp.WithPollingTimeout(10*time.Second)))
	if d := text(t, ctx, "#domains"); !strings.Contains(d, "0-2,48-50") {
		t.Errorf("CPU 49's domains do not show its CCX (0-2,48-50):\n%s", d)
	}
	if h := eval[string](t, ctx, `location.hash`); !strings.HasPrefix(h, "#s=") {
		t.Errorf("the link does not carry the imported machine: %q", h)
	}
	fullShot(t, ctx, "import-epyc-lscpu")
	drop("bad.txt", []byte("# CPU,Core,Socket,Node\n0,0,0,0\n1,1,0\n"))
	run(t, ctx, "error notice", chromedp.Poll(`((document.querySelector(".notice.error") || {}).textContent || "").includes("bad.txt:3:")`, nil,
		chromedp.WithPollingTimeout(30*time.Second)))
}
