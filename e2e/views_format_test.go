//go:build e2e

package e2e

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"schedplay/site"
)

// Issue 16, bug 6: one formatter for every surface. The same short Vera
// SGEMM run shows the same headline in the playground and in its embed
// (TFLOP/s in both; the embed said GFLOP/s), and the same migrations.
func TestEmbedFiguresMatchPlayground(t *testing.T) {
	cat, err := site.EmbeddedCatalog()
	if err != nil {
		t.Fatal(err)
	}
	d, ok := cat.ScenarioDoc("vera-sgemm-nvpl")
	if !ok {
		t.Fatal("no vera-sgemm-nvpl")
	}
	for path, v := range map[string]any{"run.duration": "600ms", "run.reps": json.Number("2")} {
		if d, err = d.Edit(path, v, cat); err != nil {
			t.Fatal(err)
		}
	}
	frag := site.EncodeFragment(d)
	figures := func(path, sel string) map[string]string {
		ctx := newPage(t, 180*time.Second)
		if sel != "" {
			openView(t, ctx, path, sel)
		} else {
			open(t, ctx, path)
		}
		waitAttr(t, ctx, "#figures", "data-status", "done")
		return eval[map[string]string](t, ctx, `Object.fromEntries([...document.querySelectorAll("#figures .fig, #figures [id^=fig-]")]
			.filter(e => e.id).map(e => [e.id, (e.querySelector(".v, dd") || e).textContent.trim()]))`)
	}
	page := figures("/#"+frag, "")
	emb := figures("/?embed=1#"+frag, ".embed-page")
	t.Logf("playground %v\nembed %v", page, emb)
	if !strings.HasSuffix(page["fig-throughput"], " TFLOP/s") {
		t.Errorf("playground headline %q", page["fig-throughput"])
	}
	for _, id := range []string{"fig-throughput", "fig-migrations"} {
		if page[id] == "" || emb[id] != page[id] {
			t.Errorf("%s: playground %q, embed %q", id, page[id], emb[id])
		}
	}
}
