// Loads the browser build of the engine worker (dist/build/worker.mjs, made
// by ./build.sh build) under node, the way engine-worker.mjs does in the
// page, and checks that POST /api/v1/simulate on the golden scenario
// replies exactly what the native CLI prints (`schedplay run --json`), or
// the bytes of REFERENCE when given.
// Run: node wasm/engine/browser_test.mjs [distdir [REFERENCE]]
import { readFile } from "node:fs/promises";
import { fileURLToPath, pathToFileURL } from "node:url";
import path from "node:path";
import { execFileSync } from "node:child_process";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const dist = path.resolve(process.argv[2] || path.join(root, "dist"));

// runtime.mjs fetches app.wasm relative to itself; node's fetch has no file:.
const realFetch = globalThis.fetch;
globalThis.fetch = async (url, ...rest) => {
  const u = new URL(String(url));
  if (u.protocol === "file:") {
    return new Response(await readFile(fileURLToPath(u)), { headers: { "content-type": "application/wasm" } });
  }
  return realFetch(url, ...rest);
};

const { default: handlers } = await import(pathToFileURL(path.join(dist, "build/worker.mjs")).href);
const scenarioFile = path.join(root, "site/api/testdata/golden-scenario.json");
const scenario = await readFile(scenarioFile);
const want = process.argv[3]
  ? await readFile(process.argv[3], "utf8")
  : execFileSync("go", ["run", "./cmd/schedplay", "run", "--json", scenarioFile], { cwd: root, encoding: "utf8" });
const res = await handlers.fetch(new Request("http://engine.local/api/v1/simulate", { method: "POST", body: scenario }));
const got = await res.text();
if (res.status !== 200 || got !== want) {
  console.error(`browser worker: status ${res.status}; reply differs from the native CLI`);
  console.error("got:  " + got.slice(0, 400));
  console.error("want: " + want.slice(0, 400));
  process.exit(1);
}
const bad = await handlers.fetch(new Request("http://engine.local/api/v1/validate", { method: "POST", body: '{"schedplay": 1, "machine": {"preset": "vera", "nodez": 1}}' }));
const badText = await bad.text();
if (bad.status !== 400 || !badText.includes('"path":"machine.nodez"')) {
  console.error(`browser worker: validate replied ${bad.status}: ${badText}`);
  process.exit(1);
}
console.log(`browser worker (dist/build, runtime browser) under node: simulate == native CLI (${Buffer.byteLength(got)} bytes), validate error located`);
