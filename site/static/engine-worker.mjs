// The engine Web Worker: answers {id, method, url, body} messages by calling
// the Go API handler (wasm/engine through syumai/workers' browser runtime).
import handlers from "./build/worker.mjs";

self.onmessage = async (e) => {
  const { id, method, url, body } = e.data;
  const t0 = performance.now();
  try {
    const init = { method, headers: { "content-type": "application/json" } };
    if (body != null && method !== "GET" && method !== "HEAD") init.body = body;
    const res = await handlers.fetch(new Request(new URL(url, "http://engine.local"), init));
    const text = await res.text();
    self.postMessage({ id, ok: true, status: res.status, body: text, ms: performance.now() - t0 });
  } catch (err) {
    self.postMessage({ id, ok: false, error: String((err && err.stack) || err) });
  }
};
