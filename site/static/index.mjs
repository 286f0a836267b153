// schedplay page glue: start the engine Web Workers and boot the Go UI.
// The engine (wasm/engine behind syumai/workers) answers Requests; every
// request runs in a fresh Go instance. A new simulate/compare request
// cancels a running one by terminating its worker; a warm spare worker
// (wasm already compiled) takes over so the next run starts at once.
const workerURL = new URL("./engine-worker.mjs", import.meta.url);
const pending = new Map();
let seq = 0, runW = null, spareW = null;

function spawn() {
  const w = new Worker(workerURL, { type: "module" });
  w.onmessage = (e) => {
    const p = pending.get(e.data.id);
    if (!p) return;
    pending.delete(e.data.id);
    if (e.data.ok) p.resolve({ status: e.data.status, body: e.data.body, ms: e.data.ms });
    else p.resolve({ status: 0, body: JSON.stringify({ error: { message: "engine failed: " + e.data.error } }) });
  };
  w.onerror = (e) => {
    e.preventDefault();
    failWorker(w, "the engine worker failed to start: " + (e.message || "unknown error"));
  };
  return w;
}

function failWorker(w, msg) {
  for (const [id, p] of pending) {
    if (p.worker !== w) continue;
    pending.delete(id);
    p.resolve({ status: 0, body: JSON.stringify({ error: { message: msg } }) });
  }
}

function workers() {
  if (!runW) runW = spawn();
  if (!spareW) spareW = spawn();
}

function busy(w) {
  for (const p of pending.values()) if (p.worker === w) return true;
  return false;
}

// engineCancel stops a running simulation (if any) and reports whether it did.
globalThis.engineCancel = () => {
  workers();
  if (!busy(runW)) return false;
  const old = runW;
  runW = spareW;
  spareW = spawn();
  old.terminate();
  for (const [id, p] of pending) {
    if (p.worker !== old) continue;
    pending.delete(id);
    p.resolve({ status: 499, cancelled: true, body: JSON.stringify({ error: { message: "cancelled" } }) });
  }
  return true;
};

// engineFetch(method, url, body) → Promise<{status, body, ms, cancelled}>.
globalThis.engineFetch = (method, url, body) => new Promise((resolve) => {
  workers();
  const isRun = /\/api\/v1\/(simulate|compare)\b/.test(url);
  if (isRun) globalThis.engineCancel();
  const w = isRun ? runW : spareW;
  const id = ++seq;
  pending.set(id, { resolve, worker: w });
  w.postMessage({ id, method, url, body: body ?? null });
});

workers();

const go = new Go();
const wasmURL = new URL("./ui/ui.wasm", import.meta.url);
let result;
try {
  result = await WebAssembly.instantiateStreaming(fetch(wasmURL), go.importObject);
} catch (err) {
  const root = document.getElementById("root");
  const p = document.createElement("p");
  p.className = "notice error";
  p.textContent = "Could not load the playground: " + err;
  root.append(p);
  throw err;
}
go.run(result.instance);
