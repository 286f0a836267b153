// The guide's live playgrounds: each <iframe class="guide-embed"> is the
// embed view (?embed=1); buttons in the prose drive it through the
// postMessage API (docs/embed.md) and the status line under each frame
// says what it is doing. The frames are on this page's own origin.
const frames = [...document.querySelectorAll("iframe.guide-embed")];
const status = (f, text) => {
  const s = document.getElementById(f.id + "-status");
  if (s) s.textContent = text;
};
let next = 1;

window.addEventListener("message", (ev) => {
  const f = frames.find((x) => x.contentWindow === ev.source);
  const m = ev.data;
  if (!f || ev.origin !== location.origin || !m || typeof m.type !== "string") return;
  switch (m.type) {
    case "schedplay:ready":
      f.dataset.ready = "1";
      status(f, "ready: " + (m.scenario || ""));
      break;
    case "schedplay:ack":
      status(f, "running " + m.scenario + "…");
      break;
    case "schedplay:result":
      f.dataset.results = String(Number(f.dataset.results || 0) + 1);
      status(f, "done: " + m.scenario);
      break;
    case "schedplay:error":
      status(f, "error: " + (m.path ? m.path + ": " : "") + m.message);
      break;
  }
});

for (const b of document.querySelectorAll(".guide-control button")) {
  b.addEventListener("click", () => {
    const f = document.getElementById(b.dataset.frame);
    if (!f) return;
    const msg = JSON.parse(b.dataset.message);
    msg.id = next++;
    f.scrollIntoView({ block: "nearest", behavior: "smooth" });
    f.contentWindow.postMessage(msg, location.origin);
  });
}
