"use strict";
// The example page's script: a file of its own, not inline, so the page
// works under the site's Content-Security-Policy (script-src 'self').
const FRAGMENT = "#s=qlYqKEotTi1RslLKyMxOrbQ0M9AtzsgvKtEtrixOSs1LzlDSUSpOzkhNKchJrFSyMqwFBAAA__8";
const frame = document.getElementById("frame");
const baseInput = document.getElementById("base");
const logBox = document.getElementById("log");
let target = null; // origin of the playground, where messages go
let nextID = 1;

// Served with the playground (dist/docs/), the playground is one level up.
const given = new URLSearchParams(location.search).get("base");
if (given) baseInput.value = given;
else if (location.protocol === "http:" || location.protocol === "https:") baseInput.value = new URL("../", location.href).href;

function log(dir, msg) {
  const line = document.createElement("div");
  line.textContent = dir + " " + JSON.stringify(msg); // textContent: names stay text
  logBox.appendChild(line);
  logBox.scrollTop = logBox.scrollHeight;
}

function loadFrame() {
  const u = new URL(baseInput.value);
  u.searchParams.set("embed", "1");
  // Restrict the frame to this page's origin when it has one. A file: page
  // has none a frame can name (Chromium spells it "file://", and refuses
  // it as a postMessage target): send no parent then.
  if (location.protocol !== "file:" && location.origin !== "null") u.searchParams.set("parent", location.origin);
  u.hash = FRAGMENT;
  target = u.origin;
  frame.src = u.href;
}

function send(msg) {
  if (!target) return;
  msg.id = nextID++;
  log("→", msg);
  frame.contentWindow.postMessage(msg, target); // only the playground may read it
}

function scenarioValue() {
  return JSON.parse(document.getElementById("scenario").value);
}

window.addEventListener("message", (ev) => {
  // Accept only the frame's own replies.
  if (ev.source !== frame.contentWindow || ev.origin !== target) return;
  const m = ev.data;
  if (!m || typeof m.type !== "string" || !m.type.startsWith("schedplay:")) return;
  if (m.type !== "schedplay:progress") log("←", m);
  switch (m.type) {
  case "schedplay:ready":
  case "schedplay:ack":
    document.getElementById("f-name").textContent = m.scenario || "–";
    break;
  case "schedplay:progress":
    document.getElementById("f-prog").value = m.done;
    break;
  case "schedplay:result": {
    const s = m.summary, fmt = (st, unit) => st.mean.toPrecision(4) + " ± " + st.stddev.toPrecision(2) + " " + unit;
    document.getElementById("f-name").textContent = m.scenario;
    document.getElementById("f-thr").textContent = fmt(s.throughput, m.unit);
    document.getElementById("f-mode").textContent = fmt(s.mode_transitions, "");
    // No wake-ups recorded (latency_max_ns.max 0): there is no p99 to show.
    document.getElementById("f-p99").textContent = s.latency_max_ns.max > 0 ? (s.latency_p99_ns.mean / 1000).toFixed(1) + " µs" : "—";
    document.getElementById("f-prog").value = 1;
    break;
  }
  case "schedplay:error":
    document.getElementById("f-thr").textContent = "error at " + (m.path || "(scenario)") + ": " + m.message;
    break;
  }
});

document.getElementById("load").addEventListener("click", loadFrame);
document.getElementById("set").addEventListener("click", () => send({type: "schedplay:set", scenario: scenarioValue()}));
document.getElementById("setrun").addEventListener("click", () => send({type: "schedplay:set", scenario: scenarioValue(), run: true}));
document.getElementById("run").addEventListener("click", () => send({type: "schedplay:run"}));
document.getElementById("ping").addEventListener("click", () => send({type: "schedplay:ping"}));
document.getElementById("bad").addEventListener("click", () =>
  send({type: "schedplay:set", scenario: {schedplay: 1, preset: "hikey960-short-sysbench", run: {reps: 1000}}}));
loadFrame();
