#!/usr/bin/env bash
# schedplay build script. Subcommands:
#   ./build.sh build     build the site into dist/ (UI wasm, engine worker wasm, static files)
#   ./build.sh serve     build (uncompressed), then serve the playground on 127.0.0.1:8080 (ADDR=… to change)
#   ./build.sh test      every check and test suite: gofmt, vet (native + js), staticcheck,
#                        go test (native), wasm tests under node, browser end-to-end tests
#   ./build.sh bench     engine benchmarks (go test -bench), written to bench.txt
#   ./build.sh worker    build the Cloudflare Worker into dist-worker/ (runtime cloudflare)
#   ./build.sh fuzz      run every fuzz target for FUZZTIME (default 30s) each
#   ./build.sh fidelity  run every published figure (engine/fidelity/figures.json): published vs model
#   ./build.sh mutants   break each kernel rule of engine/sim/testdata/mutants.json in turn; every one must fail a test
#   ./build.sh outputs DIR  write every seed run's output into DIR (tools/seedoutputs); diff -r two commits'
# Each installs what it needs on a fresh Debian machine and says what it is doing.
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$PWD
# CACHE keeps build outputs by input (compressed files, wasm binaries).
CACHE="$ROOT/.cache/build"
export GOFLAGS="${GOFLAGS:--buildvcs=false}"

say() { printf '\033[1m==> %s\033[0m\n' "$*"; }

need_go() {
	command -v go >/dev/null || { echo "Go 1.26 is required (https://go.dev/dl/)"; exit 1; }
}

need_node() {
	if ! command -v node >/dev/null; then
		say "installing node (apt)"
		apt_install nodejs npm
	fi
}

apt_updated=""
apt_install() {
	if [ "$(id -u)" != 0 ]; then
		echo "need root to apt-get install $*; install them and retry"; exit 1
	fi
	if [ -z "$apt_updated" ]; then
		DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null
		apt_updated=1
	fi
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@" >/dev/null
}

need_chromium() {
	if ! command -v chromium >/dev/null; then
		say "installing chromium for the browser tests (apt, ~1 min)"
		apt_install chromium
	fi
}

# build_site builds the site into dist/. $1 is "release" (./build.sh build,
# the tests: gzip -9 and brotli q11 siblings) or "dev" (./build.sh serve:
# no compression, the server is on the same machine). Slow steps are cached
# under .cache/ by input: the Go build cache keeps compiled packages and
# linked binaries (-trimpath makes them independent of the clone's path),
# and compressed files are kept by the hash of their content.
build_site() {
	local mode="${1:-release}"
	need_go
	say "building the site into dist/ ($mode)"
	rm -rf dist
	mkdir -p dist/ui dist/build "$CACHE/wasm"
	# workers-assets-gen rm -rf's its -o directory: generate into the cache,
	# then copy.
	go tool workers-assets-gen -mode=go -runtime=browser -o "$CACHE/assets"
	cp -r "$CACHE/assets/." dist/build/
	# Let the worker script live anywhere (toolchain.md §2).
	sed -i 's#fetch("./build/app.wasm")#fetch(new URL("./app.wasm", import.meta.url))#' dist/build/runtime.mjs
	# One wasm module for the page and its engine workers (wasm/ui: the UI
	# where there is a document, the engine in a worker): one download and
	# one compile, and the Go runtime and shared packages shipped once
	# (docs/speed.md).
	GOOS=js GOARCH=wasm go build -trimpath -ldflags="-s -w $(stamp)" -o "$CACHE/wasm/ui" ./wasm/ui
	cp "$CACHE/wasm/ui" dist/build/app.wasm
	# The import worker (wasm/importer): its own module, fetched only when
	# a file is first dropped on the machine editor (docs/import.md).
	GOOS=js GOARCH=wasm go build -trimpath -ldflags="-s -w $(stamp)" -o "$CACHE/wasm/importer" ./wasm/importer
	cp "$CACHE/wasm/importer" dist/build/import.wasm
	cp "$(go env GOROOT)/lib/wasm/wasm_exec.js" dist/ui/wasm_exec.js
	cp index.html dist/
	if [ -d site/static ]; then cp -r site/static/. dist/; fi
	# The compare view links kernel function names to their KERNEL-MAP entries.
	mkdir -p dist/docs && cp docs/KERNEL-MAP.md dist/docs/
	# The embed example host page (docs/embed.md), served beside the site.
	cp docs/embed-example.html docs/embed-example.css docs/embed-example.js dist/docs/
	# The guide (/guide/): docs/guide/*.md rendered by goldmark, with live
	# playgrounds (tools/guide; guide.js and guide.css come from site/static).
	go run ./tools/guide -o dist/guide docs/guide
	if [ "$mode" = release ]; then
		# Every seed link's first result, computed by the native engine: the
		# page draws it while its engine starts (docs/speed.md).
		say "precomputed first frames of the seed links (dist/first)"
		go run ./tools/firstframe dist/first
		compress_site
	fi
	say "site built: $(du -sh dist | cut -f1) in dist/"
}

# compress_site writes precompressed siblings next to the wasm and text
# files of dist/: .gz (gzip -9) and .br (brotli, quality BROTLI_Q, default 11:
# ~25% smaller than gzip for the wasm). `schedplay serve` and the browser
# tests send the best one the browser accepts (Chromium asks for br even on
# http://127.0.0.1). Each compressed file is cached under .cache/z by the
# hash of its input and the settings, so an unchanged file costs a copy.
compress_site() {
	if ! command -v brotli >/dev/null && [ "$(id -u)" = 0 ]; then
		say "installing brotli (apt) for the precompressed site"
		apt_install brotli || true
	fi
	local q="${BROTLI_Q:-11}" have_br=""
	command -v brotli >/dev/null && have_br=1
	[ -n "$have_br" ] || echo "brotli not found: serving gzip only (apt-get install brotli)"
	mkdir -p "$CACHE/z"
	local f h pids=() todo=0
	while IFS= read -r f; do
		h=$(sha256sum "$f" | cut -c1-32)
		if [ ! -f "$CACHE/z/$h.gz" ]; then
			gzip -9 -c "$f" >"$CACHE/z/$h.gz.tmp" && mv "$CACHE/z/$h.gz.tmp" "$CACHE/z/$h.gz"
		fi
		cp "$CACHE/z/$h.gz" "$f.gz"
		[ -n "$have_br" ] || continue
		if [ -f "$CACHE/z/$h.q$q.br" ]; then
			cp "$CACHE/z/$h.q$q.br" "$f.br"
		else
			todo=$((todo + 1))
			(brotli -q "$q" --lgwin=24 -c "$f" >"$CACHE/z/$h.q$q.br.tmp" &&
				mv "$CACHE/z/$h.q$q.br.tmp" "$CACHE/z/$h.q$q.br" && cp "$CACHE/z/$h.q$q.br" "$f.br") &
			pids+=($!)
		fi
	done < <(find dist -type f \( -name '*.wasm' -o -name '*.mjs' -o -name '*.js' -o -name '*.css' -o -name '*.html' -o -name '*.md' -o -name '*.txt' \))
	if [ "$todo" -gt 0 ]; then
		say "brotli -q $q for $todo changed files (the wasm takes ~20 s at quality 11; BROTLI_Q=5 is quick)"
	fi
	for p in "${pids[@]}"; do wait "$p"; done
}

# stamp is the linker flag naming the source revision, which
# GET /api/v1/health reports (a sweep compares its backends' with its own).
stamp() {
	local rev
	rev=$(git describe --always --dirty --abbrev=12 2>/dev/null || echo dev)
	echo "-X schedplay/site/api.commit=$rev"
}

build_worker() {
	need_go
	say "building the Cloudflare Worker into dist-worker/"
	rm -rf dist-worker/build
	mkdir -p dist-worker
	go tool workers-assets-gen -mode=go -runtime=cloudflare -o dist-worker/build
	GOOS=js GOARCH=wasm go build -trimpath -ldflags="-s -w $(stamp)" -o dist-worker/build/app.wasm ./wasm/edge
	cp wasm/edge/wrangler.jsonc dist-worker/wrangler.jsonc
	local gz
	gz=$(gzip -9 -c dist-worker/build/app.wasm | wc -c)
	say "Worker built: dist-worker/build/app.wasm, $(( $(wc -c <dist-worker/build/app.wasm) / 1024 )) KiB, $(( gz / 1024 )) KiB gzipped (docs/sweep.md)"
	echo "To deploy it to your Cloudflare account (after 'npx wrangler@4.86.0 login'; set ALLOWED_ORIGINS to your playground's origin):"
	echo "  npx --yes wrangler@4.86.0 deploy --config dist-worker/wrangler.jsonc --var ALLOWED_ORIGINS:https://your-playground.example"
}

cmd_test() {
	need_go
	say "gofmt"
	bad=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './dist*'))
	if [ -n "$bad" ]; then echo "gofmt would change:"; echo "$bad"; exit 1; fi
	say "go vet (native, and the e2e suite)"
	go vet ./...
	go vet -tags e2e ./e2e/
	go vet -tags workerd ./cmd/schedplay/
	go vet -tags e2e,workerd ./e2e/
	say "go vet (js/wasm)"
	GOOS=js GOARCH=wasm go vet ./...
	say "staticcheck (native and js/wasm)"
	SC=$(go tool -n staticcheck)
	"$SC" ./...
	"$SC" -tags e2e ./e2e/
	"$SC" -tags workerd ./cmd/schedplay/
	"$SC" -tags e2e,workerd ./e2e/
	GOOS=js GOARCH=wasm "$SC" ./...
	say "go test (native)"
	go test -count=1 ./...
	need_node
	say "go test (js/wasm under node)"
	GOOS=js GOARCH=wasm go test -count=1 -exec="$ROOT/tools/wasmexec/go_js_wasm_exec" ./engine/... ./site/api/...
	build_site
	if [ -d e2e ]; then
		need_chromium
		say "browser end-to-end tests (headless chromium)"
		SCHEDPLAY_DIST="$ROOT/dist" go test -count=1 -tags e2e ./e2e/...
	fi
	if [ -f wasm/edge/edge_test.sh ]; then
		say "Cloudflare Worker under wrangler dev (workerd)"
		build_worker
		bash wasm/edge/edge_test.sh
		say "sweep over two wrangler dev (workerd) and one schedplay serve, one Worker killed mid-sweep"
		go test -count=1 -tags workerd -run Workerd -v ./cmd/schedplay/
		if [ -d e2e ]; then
			say "the compare view's sweep on a Worker URL (headless chromium + workerd)"
			SCHEDPLAY_DIST="$ROOT/dist" go test -count=1 -tags e2e,workerd -run Worker ./e2e/...
		fi
	fi
	say "all tests passed"
}

cmd_serve() {
	need_go
	# The server builds (native) while the site builds (js/wasm).
	mkdir -p "$CACHE/bin"
	go build -o "$CACHE/bin/schedplay" ./cmd/schedplay &
	local srv=$!
	build_site dev
	wait "$srv"
	addr="${ADDR:-127.0.0.1:8080}"
	say "serving the playground on http://$addr (Ctrl-C stops)"
	exec "$CACHE/bin/schedplay" serve --addr "$addr" --dir dist
}

cmd_bench() {
	need_go
	say "engine benchmarks (go test -bench, -benchmem); results in bench.txt"
	# BenchmarkSpeed and BenchmarkScaling are docs/speed.md's tables: each
	# case reports the heap-loop floor measured around it (floor-ns) and
	# its ratio to it (×floor, sim-s/s@floor), since these machines are noisy.
	go test -run '^$' -bench "${BENCH:-.}" -benchmem -count "${COUNT:-3}" ./engine/... | tee bench.txt
	if [ -z "${BENCH:-}" ] || [ -n "${WASM:-}" ]; then
		need_node
		say "engine speed under wasm (node): BenchmarkHeapFloor and BenchmarkSpeed/vera; results in bench-wasm.txt"
		GOOS=js GOARCH=wasm go test -exec="$ROOT/tools/wasmexec/go_js_wasm_exec" -run '^$' \
			-bench "${WASM_BENCH:-HeapFloor|Speed/vera-(sgemm-nvpl|full)}" -benchmem -count "${COUNT:-3}" ./engine/sim/ | tee bench-wasm.txt
	fi
	say "summarise with: go run golang.org/x/perf/cmd/benchstat@latest bench.txt"
}

cmd_fidelity() {
	need_go
	say "every published figure vs the model (docs/calibration.md is generated from the same table)"
	go run ./cmd/schedplay fidelity
}

cmd_mutants() {
	need_go
	say "every engine mutant (engine/sim/testdata/mutants.json) against go test -short ./engine/sim (about 10 s each)"
	go run ./tools/mutants
}

cmd_outputs() {
	need_go
	[ -n "${1:-}" ] || { echo "usage: ./build.sh outputs DIR"; exit 2; }
	say "every seed scenario × variant × policy, at most 2 repetitions, with its timeline, into $1 (about 15 min)"
	go run ./tools/seedoutputs "$1"
}

cmd_fuzz() {
	need_go
	t="${FUZZTIME:-30s}"
	for pkg in $(go list ./...); do
		for f in $(go test -list '^Fuzz' "$pkg" 2>/dev/null | grep '^Fuzz' || true); do
			say "fuzzing $pkg $f for $t"
			log=$(mktemp)
			# Go minimises every new interesting input for up to 60 s by
			# default, which took whole targets' time on large seeds
			# (the importer's traces); 5 s keeps most of it for fuzzing.
			if go test -run '^$' -fuzz "^$f\$" -fuzztime "$t" -fuzzminimizetime 5s "$pkg" 2>&1 | tee "$log"; then
				rm -f "$log"
				continue
			fi
			# Go before 1.27 can fail a target with a bare "context
			# deadline exceeded" as -fuzztime runs out (go.dev/issue/75804):
			# no failing input is written then, and it is not one.
			if grep -q '^    context deadline exceeded$' "$log" && ! grep -q 'Failing input written' "$log"; then
				say "$f: stopped by Go's fuzztime race (go.dev/issue/75804), not by an input"
				rm -f "$log"
				continue
			fi
			rm -f "$log"
			exit 1
		done
	done
}

case "${1:-}" in
build) build_site release ;;
serve) cmd_serve ;;
test) cmd_test ;;
bench) cmd_bench ;;
worker) build_worker ;;
fuzz) cmd_fuzz ;;
fidelity) cmd_fidelity ;;
mutants) cmd_mutants ;;
outputs) cmd_outputs "${2:-}" ;;
*)
	sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
	exit 2
	;;
esac
