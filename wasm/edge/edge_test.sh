#!/usr/bin/env bash
# Runs the Cloudflare Worker build (dist-worker/, made by ./build.sh worker)
# under wrangler dev (workerd from npm) on 127.0.0.1 and checks that
# POST /api/v1/simulate replies byte for byte what the native CLI prints
# (`schedplay run --json`) for the same scenario and seed. Also checks one
# validation error and the presets listing. When dist/ holds the browser
# build, wasm/engine/browser_test.mjs checks it against the same reference. Installs wrangler 4.86.0 into
# wasm/edge/node_modules when it is missing (the newest that runs on Node 20).
set -euo pipefail
EDGE="$(cd -P "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$EDGE/../.." && pwd)"
WORK="$ROOT/dist-worker"
SCEN="$ROOT/site/api/testdata/golden-scenario.json"
export WRANGLER_SEND_METRICS=false CI=true CLOUDFLARE_CF_FETCH_ENABLED=false

[ -f "$WORK/build/app.wasm" ] || { echo "edge_test: $WORK/build/app.wasm missing; run ./build.sh worker first"; exit 1; }
if [ ! -x "$EDGE/node_modules/.bin/wrangler" ]; then
	echo "edge_test: installing wrangler@4.86.0 into wasm/edge/node_modules (npm)"
	(cd "$EDGE" && npm install --no-audit --no-fund --no-package-lock --loglevel=error)
fi

tmp="$(mktemp -d)"
pid=""
cleanup() {
	if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
		kill -INT "$pid" 2>/dev/null || true
		for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
		kill -KILL "$pid" 2>/dev/null || true
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT

port="$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
echo "edge_test: native reference (schedplay run --json)"
(cd "$ROOT" && go run ./cmd/schedplay run --json "$SCEN") >"$tmp/native.json"

echo "edge_test: wrangler dev on 127.0.0.1:$port"
(cd "$WORK" && exec "$EDGE/node_modules/.bin/wrangler" dev --ip 127.0.0.1 --port "$port" >"$tmp/wrangler.log" 2>&1) &
pid=$!
base="http://127.0.0.1:$port"
for i in $(seq 120); do
	if curl -fsS -o /dev/null "$base/api/v1/presets" 2>/dev/null; then break; fi
	if ! kill -0 "$pid" 2>/dev/null; then cat "$tmp/wrangler.log"; echo "edge_test: wrangler exited"; exit 1; fi
	[ "$i" = 120 ] && { cat "$tmp/wrangler.log"; echo "edge_test: wrangler not ready after 60s"; exit 1; }
	sleep 0.5
done

fail=0
curl -sS -X POST --data-binary @"$SCEN" "$base/api/v1/simulate" >"$tmp/edge.json"
if cmp -s "$tmp/native.json" "$tmp/edge.json"; then
	echo "edge_test: simulate under workerd == native CLI ($(wc -c <"$tmp/edge.json") bytes)"
else
	echo "edge_test: FAIL: simulate under workerd differs from the native CLI"
	echo "native: $(head -c 400 "$tmp/native.json")"
	echo "edge:   $(head -c 400 "$tmp/edge.json")"
	fail=1
fi

code="$(curl -sS -o "$tmp/err.json" -w '%{http_code}' -X POST --data-binary '{"schedplay": 1, "machine": {"preset": "vera", "nodez": 1}}' "$base/api/v1/validate")"
if [ "$code" = 400 ] && grep -q '"path":"machine.nodez"' "$tmp/err.json"; then
	echo "edge_test: validate error located at machine.nodez (400)"
else
	echo "edge_test: FAIL: validate replied $code: $(cat "$tmp/err.json")"
	fail=1
fi
if curl -fsS "$base/api/v1/presets" | grep -q '"kind":"machine","name":"vera"'; then
	echo "edge_test: presets listed"
else
	echo "edge_test: FAIL: presets listing lacks vera"
	fail=1
fi
# Issue 17: the Worker budget refuses a heavy request at once (422, the
# field and the budget) instead of letting Cloudflare kill it, and a page
# of another origin may not call the Worker (403).
(cd "$ROOT" && go run ./engine/scenario/scenariotest/numa64) >"$tmp/numa.json"
code="$(curl -sS -o "$tmp/numa-reply.json" -w '%{http_code}' -X POST --data-binary @"$tmp/numa.json" "$base/api/v1/simulate")"
if [ "$code" = 422 ] && grep -q '"path":"machine.distances","budget":"domains"' "$tmp/numa-reply.json"; then
	echo "edge_test: the 64-node NUMA machine is refused by the Worker budget (422, machine.distances, domains)"
else
	echo "edge_test: FAIL: the 64-node NUMA machine replied $code: $(head -c 300 "$tmp/numa-reply.json")"
	fail=1
fi
code="$(curl -sS -o /dev/null -w '%{http_code}' -H 'Origin: https://evil.example' "$base/api/v1/presets")"
if [ "$code" = 403 ]; then
	echo "edge_test: a page of another origin is refused (403)"
else
	echo "edge_test: FAIL: a page of another origin got $code"
	fail=1
fi
# The browser build of the same handler (dist/, ./build.sh build), when present.
if [ -f "$ROOT/dist/build/worker.mjs" ]; then
	node "$ROOT/wasm/engine/browser_test.mjs" "$ROOT/dist" "$tmp/native.json" || fail=1
fi
exit "$fail"
