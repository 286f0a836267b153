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
// resolves to {go, binding, exited}: binding.handleRequest serves one
// request, exited resolves to the Go program's exit code.
async function prepare() {
  const mod = await engineModule;
  const t0 = performance.timeOrigin + performance.now();
  const go = new Go();
  // No heap-profile sampling: Go's js/wasm runtime can throw "invalid
  // runtime symbol table" when a sampled allocation unwinds the stack
  // from the scheduler (seen under node, about once in 11 runs of
  // site/api's tests); nothing here reads the profile.
  go.env = { GODEBUG: "memprofilerate=0" };
  const binding = {};
  let ready, failed, exited;
  const readyPromise = new Promise((resolve, reject) => { ready = resolve; failed = reject; });
  const exitedPromise = new Promise((resolve) => { exited = resolve; });
  const warn = go.exit;
  go.exit = (code) => {
    // wasm_exec.js leaves the runtime's pending timers (its setTimeouts
    // for Go timers: after a large run, the runtime's ~1 s one) scheduled
    // when the program exits. Firing later, each resumed the dead instance
    // and threw "Go program has already exited" as an uncaught error in
    // this worker, which the page took for the failure of whatever
    // request was running then (the third point of a Vera sweep). A dead
    // instance's timers are cleared here, so nothing resumes it (and its
    // memory can be freed).
    const timers = go._scheduledTimeouts;
    if (timers) {
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
    }
    warn(code);
    failed(new Error(`the engine exited (code ${code}) while starting`));
    exited(code);
  };
  const instance = new WebAssembly.Instance(mod, {
    ...go.importObject,
    workers: { ready: () => ready() },
  });
  // syumai's runtime context for the browser is just the binding.
  go.run(instance, { binding }).catch(failed);
  await readyPromise;
  // When the module arrived and when this instance was ready (epoch ms).
  binding.prepared = { from: t0, ready: performance.timeOrigin + performance.now() };
  return { go, binding, exited: exitedPromise };
}

// next is the instance waiting for the next request (each instance serves
// one request: after it, its Go program exits).
let next = warm();

// warm starts preparing an instance (a failure is reported to the request
// that takes it).
function warm() {
  const p = prepare();
  p.catch(() => {});
  return p;
}

// live is a Go instance ready for one request: the prepared one unless it
// failed or its program has exited, else a new one.
async function live(p) {
  const inst = await p.catch(prepare);
  return inst.go.exited ? prepare() : inst;
}

// stopped rejects when the instance's Go program exits with a non-zero
// code (a panic) before the reply is read; a normal exit (0) follows the
// end of the reply's body and never rejects.
function stopped(inst) {
  return inst.exited.then((code) => code === 0 ? new Promise(() => {}) :
    Promise.reject(new Error(`the engine stopped (Go exit code ${code}) before it answered`)));
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
    // The prepared instance, or (when requests overlap) a new one; a
    // failed warm-up or an exited instance is replaced, never reused.
    const p = next || prepare();
    next = null;
    const inst = await live(p);
    const { binding } = inst;
    const t1 = performance.now();
    const init = { method, headers: { "content-type": "application/json" } };
    if (body != null && method !== "GET" && method !== "HEAD") init.body = body;
    const died = stopped(inst);
    died.catch(() => {});
    const res = await Promise.race([binding.handleRequest(new Request(new URL(url, "http://engine.local"), init)), died]);
    const text = await Promise.race([res.text(), died]);
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
