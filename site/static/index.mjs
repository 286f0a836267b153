// schedplay page glue: start the engine Web Worker and boot the Go UI.
// The engine (wasm/engine behind syumai/workers) answers Requests; every
// request runs in a fresh Go instance. A new simulate/compare/batch request
// cancels a running one by terminating its worker; a warm spare worker
// takes over so the next run starts at once. The page and the engine are
// one module (wasm/ui: the UI where there is a document, the engine in a
// worker): app.wasm is fetched and compiled once, here, and the compiled
// WebAssembly.Module runs the UI and is posted to every worker (no second
// download or compile, and the workers share the code the engine's hot
// functions tier up to).
const workerURL = new URL("./engine-worker.mjs", import.meta.url);
const engineModule = WebAssembly.compileStreaming(fetch(new URL("./build/app.wasm", import.meta.url)));
// When app.wasm was compiled and when the UI started (ms after navigation
// start, for the first-visit MEASURE lines).
engineModule.then(() => { (globalThis.schedplayPerf ??= {}).moduleCompiledMs = performance.now(); }, () => {});
const pending = new Map();
let seq = 0, runW = null, spareW = null;

function spawn() {
  const w = new Worker(workerURL, { type: "module" });
  engineModule.then((module) => w.postMessage({ module }), (err) => w.postMessage({ moduleError: String(err) }));
  w.onmessage = (e) => {
    const p = pending.get(e.data.id);
    if (!p) return;
    pending.delete(e.data.id);
    if (e.data.sentAt && isRun(p.msg.url)) {
      // Time from the worker's reply to a run to its arrival here (the
      // main thread was busy meanwhile when this is large).
      const perf = (globalThis.schedplayPerf ??= {});
      perf.workerToMainMs = performance.timeOrigin + performance.now() - e.data.sentAt;
      // The worker's phases of each run (ms): waiting for a Go instance,
      // the handler, and the handler's Server-Timing (sim, encode).
      if (e.data.timing) {
        const t = e.data.timing, rec = { wait: t.wait, handle: t.handle };
        if (t.prepared) {
          // page-relative times at which that Go instance started and was ready
          rec.instFrom = t.prepared.from - performance.timeOrigin;
          rec.instReady = t.prepared.ready - performance.timeOrigin;
        }
        for (const m of t.server.matchAll(/(\w+);dur=([\d.]+)/g)) rec[m[1]] = Number(m[2]);
        const runs = (perf.engineRuns ??= []);
        runs.push(rec);
        if (runs.length > 64) runs.splice(1, 1); // keep the page's first run and the latest
      }
    }
    if (e.data.ok) p.resolve({ status: e.data.status, body: e.data.body, ms: e.data.ms });
    else p.resolve({ status: 0, body: JSON.stringify({ error: { message: "engine failed: " + e.data.error } }) });
  };
  w.onerror = (e) => {
    e.preventDefault();
    for (const [id, p] of pending) {
      if (p.worker !== w) continue;
      pending.delete(id);
      p.resolve({ status: 0, body: JSON.stringify({ error: { message: "the engine worker failed: " + (e.message || "unknown error") } }) });
    }
  };
  return w;
}

function isRun(url) { return /\/api\/v1\/(simulate|compare|batch)\b/.test(url); }

function busyRun(w) {
  for (const p of pending.values()) if (p.worker === w && isRun(p.msg.url)) return true;
  return false;
}

// engineCancel stops a running simulation (if any) and reports whether it
// did. Other requests on that worker move to its replacement.
globalThis.engineCancel = () => {
  if (!runW || !busyRun(runW)) return false;
  const old = runW;
  runW = spareW || spawn();
  spareW = null;
  old.terminate();
  for (const [id, p] of pending) {
    if (p.worker !== old) continue;
    if (isRun(p.msg.url)) {
      pending.delete(id);
      p.resolve({ status: 499, cancelled: true, body: JSON.stringify({ error: { message: "cancelled" } }) });
    } else {
      p.worker = runW;
      runW.postMessage(p.msg);
    }
  }
  if (!spareW) spareW = spawn();
  return true;
};

// schedplayFillRects fills n/4 rectangles (x, y, w, h as little-endian
// float64 in the Uint8Array bytes) as one path: the Go canvas code batches
// its rectangles and crosses into JS once per batch (viewkit.Rects).
globalThis.schedplayFillRects = (ctx, style, alpha, bytes, n) => {
  const a = new Float64Array(bytes.buffer, bytes.byteOffset, n);
  ctx.globalAlpha = alpha;
  ctx.fillStyle = style;
  ctx.beginPath();
  for (let i = 0; i + 3 < n; i += 4) ctx.rect(a[i], a[i + 1], a[i + 2], a[i + 3]);
  ctx.fill();
};

// schedplayDrawMachine builds the machine drawing (site/lstopo.go's
// Lstopo, as JSON) inside box in one call: text and attributes only, never
// markup. The Go side keeps the click handling (one listener on box).
globalThis.schedplayDrawMachine = (box, json) => {
  const d = JSON.parse(json);
  const el = (parent, tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    parent.append(e);
    return e;
  };
  for (const n of d.nodes || []) {
    const ne = el(box, "div", "t-node");
    el(ne, "div", "t-title", n.title);
    for (const c of n.clusters || []) {
      const ce = el(ne, "div", "t-cluster");
      if (c.title) el(ce, "div", "t-title", c.title);
      for (const k of c.cores || []) {
        const ke = el(ce, "div", "t-core");
        if (k.class) ke.dataset.class = k.class;
        ke.style.background = k.background;
        ke.title = k.title;
        if (k.heading) el(ke, "div", "t-title", k.heading);
        for (const pe of k.pes || []) {
          const b = el(ke, "button", pe.selected ? "t-pe sel" : "t-pe", pe.label);
          b.title = pe.title;
          b.setAttribute("aria-label", pe.title);
          b.dataset.cpu = String(pe.cpu);
          if (pe.selected) b.setAttribute("aria-pressed", "true");
        }
      }
    }
  }
};

// engineFetch(method, url, body) → Promise<{status, body, ms, cancelled}>.
globalThis.engineFetch = (method, url, body) => new Promise((resolve) => {
  if (!runW) runW = spawn();
  if (isRun(url)) globalThis.engineCancel();
  const w = isRun(url) ? runW : (spareW || runW);
  const id = ++seq;
  const msg = { id, method, url, body: body ?? null };
  pending.set(id, { resolve, worker: w, msg });
  w.postMessage(msg);
});

// engineWarm starts the engine worker and its spare (a worker with a Go
// instance ready, which takes over when a run is cancelled) if they are
// not started yet. The playground calls it once its first result is on
// screen (site/playground's warmEngine).
globalThis.engineWarm = () => {
  if (!runW) runW = spawn();
  if (!spareW) spareW = spawn();
};

// importFetch(name, bytes, query) → Promise<{status, body}>: POST
// /api/v1/import in the import worker (wasm/importer, the same worker
// script with import.wasm), started on the first call: dropping or
// pasting a file on the machine editor. bytes is a Uint8Array; query
// (optional) adds "&machine=…" and the like.
let importW = null, importModule = null;
globalThis.importFetch = (name, bytes, query) => new Promise((resolve) => {
  if (!importW) {
    importModule = WebAssembly.compileStreaming(fetch(new URL("./build/import.wasm", import.meta.url)));
    importW = new Worker(workerURL, { type: "module" });
    importModule.then((module) => importW.postMessage({ module }), (err) => importW.postMessage({ moduleError: String(err) }));
    importW.onmessage = (e) => {
      const p = pending.get(e.data.id);
      if (!p) return;
      pending.delete(e.data.id);
      if (e.data.ok) p.resolve({ status: e.data.status, body: e.data.body });
      else p.resolve({ status: 0, body: JSON.stringify({ error: { message: "the import failed: " + e.data.error } }) });
    };
  }
  const id = ++seq;
  const url = "/api/v1/import?name=" + encodeURIComponent(name) + (query || "");
  const msg = { id, method: "POST", url, body: bytes };
  pending.set(id, { resolve, worker: importW, msg });
  importW.postMessage(msg);
});

// A seed link (?preset=NAME in the playground) fetches its precomputed
// first frame now (first/NAME.txt, made by ./build.sh build with the
// native engine: the playground draws it when it answers exactly the
// playground's first request; site/playground/firstframe.go). Without one,
// the link starts its quick first run while the page boots: the request
// the playground would send once booted (repetition 0, intervals only),
// by name. The playground adopts that reply when its first run is exactly
// that (takeSpeculative) and otherwise ignores it.
// otherView says the page is the embed, compare or step view, not the
// playground.
const pageQuery = new URLSearchParams(location.search);
const otherView = ["embed", "compare", "step"].some((k) => pageQuery.has(k));
{
  const name = pageQuery.get("preset");
  if (name && !location.hash.startsWith("#s=") && !otherView) {
    const text = /^[\w.-]+$/.test(name)
      ? fetch(new URL("./first/" + name + ".txt", import.meta.url)).then((r) => r.ok ? r.text() : "", () => "")
      : Promise.resolve("");
    text.then(() => { (globalThis.schedplayPerf ??= {}).firstFrameFetchedMs = performance.now(); });
    globalThis.schedplayFirstFrame = { name, text };
    globalThis.schedplaySpeculative = {
      name,
      reply: text.then((t) => t ? null : globalThis.engineFetch("POST", "/api/v1/simulate", JSON.stringify({ scenario: name, reps: 1, timeline: "runs" }))),
    };
  }
}

// The engine worker starts now, unless this is a playground seed link,
// which fetches its precomputed first frame: its workers start once the
// first figures are on screen (engineWarm) or with its first request (the
// quick first run above when there is no frame). On a small computer a
// worker's Go instance starting beside the page's own start took the cores
// the first figures needed (docs/speed.md). The playground's spare waits
// for its first result (engineWarm); the embed, compare and step views
// start theirs now, as before.
if (!globalThis.schedplayFirstFrame) runW = spawn();
if (otherView) spareW = spawn();

const go = new Go();
go.env = { GODEBUG: "memprofilerate=0" }; // as in engine-worker.mjs
let instance;
try {
  // The module imports syumai/workers' ready(), which only a worker calls.
  instance = await WebAssembly.instantiate(await engineModule, { ...go.importObject, workers: { ready() {} } });
} catch (err) {
  const root = document.getElementById("root");
  const p = document.createElement("p");
  p.className = "notice error";
  p.textContent = "Could not load the playground: " + err;
  root.append(p);
  throw err;
}
// The page runs Go's own wasm_exec.js (syumai's proxies the global object,
// which DOM methods refuse as their receiver). syumai/workers' package
// initialisation reads globalThis.context.binding; the page gives it an
// empty one while the program starts (go.run runs every package's init
// before it returns) and takes it away again.
globalThis.schedplayPerf.uiStartMs = performance.now();
globalThis.context = { binding: {} };
go.run(instance);
delete globalThis.context;
