// The engine Web Worker: answers {id, method, url, body} messages by calling
// the Go API handler (wasm/engine through syumai/workers' browser runtime).
//
// syumai/workers runs every request in a fresh Go instance (toolchain.md
// §2): build/worker.mjs instantiates app.wasm, runs main() (Go runtime and
// package init, presets.Load, workers.Serve) and then hands the request to
// the binding main() registered. This file does the same steps, but starts
// the NEXT request's instance as soon as the previous reply is sent, so a
// request only pays for its own work. Each instance still serves exactly
// one request. The page posts the compiled module ({module}) first.
import "./build/wasm_exec.js";

// syumai/workers' Go side calls this global (build/worker.mjs defines it).
globalThis.tryCatch = (fn) => {
  try {
    return { result: fn() };
  } catch (e) {
    return { error: e };
  }
};

let gotModule, moduleFailed;
const engineModule = new Promise((resolve, reject) => { gotModule = resolve; moduleFailed = reject; });

// prepare instantiates app.wasm and runs main() up to workers.Serve; it
// resolves to the binding whose handleRequest serves one request.
async function prepare() {
  const mod = await engineModule;
  const t0 = performance.timeOrigin + performance.now();
  const go = new Go();
  const binding = {};
  let ready;
  const readyPromise = new Promise((resolve) => { ready = resolve; });
  const instance = new WebAssembly.Instance(mod, {
    ...go.importObject,
    workers: { ready: () => ready() },
  });
  // syumai's runtime context for the browser is just the binding.
  go.run(instance, { binding });
  await readyPromise;
  // When the module arrived and when this instance was ready (epoch ms).
  binding.prepared = { from: t0, ready: performance.timeOrigin + performance.now() };
  return binding;
}

// next is the instance waiting for the next request.
let next = warm();

// warm starts preparing an instance (a failure is reported to the request
// that takes it).
function warm() {
  const p = prepare();
  p.catch(() => {});
  return p;
}

self.onmessage = async (e) => {
  if (e.data.module || e.data.moduleError) {
    if (e.data.module) gotModule(e.data.module);
    else moduleFailed(new Error("could not load the engine (app.wasm): " + e.data.moduleError));
    return;
  }
  const { id, method, url, body } = e.data;
  const t0 = performance.now();
  try {
    // The prepared instance, or (when requests overlap) a new one.
    const p = next || prepare();
    next = null;
    const binding = await p.catch(prepare); // a failed warm-up: once more, now
    const t1 = performance.now();
    const init = { method, headers: { "content-type": "application/json" } };
    if (body != null && method !== "GET" && method !== "HEAD") init.body = body;
    const res = await binding.handleRequest(new Request(new URL(url, "http://engine.local"), init));
    const text = await res.text();
    const t2 = performance.now();
    // timing: waiting for a Go instance, the handler (with its own
    // Server-Timing phases), all in ms.
    const timing = { wait: t1 - t0, handle: t2 - t1, server: res.headers.get("server-timing") || "", prepared: binding.prepared };
    self.postMessage({ id, ok: true, status: res.status, body: text, ms: t2 - t0, timing, sentAt: performance.timeOrigin + performance.now() });
  } catch (err) {
    self.postMessage({ id, ok: false, error: String((err && err.stack) || err) });
  }
  // Warm the next request's instance while the page draws this reply.
  if (!next) next = warm();
};
