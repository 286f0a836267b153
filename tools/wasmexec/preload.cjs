// Preload for Go wasm tests under node: give syumai/workers the global it
// reads at init, then hand over to Go's stock node runner.
globalThis.context = { binding: {} };
require(process.env.GOROOT + "/lib/wasm/wasm_exec_node.js");
