package budget

import "time"

// The three profiles. docs/limits.md gives the arithmetic behind every
// figure; TestLimitsDoc checks that it quotes these values.

// Serve is the budget of `schedplay serve` and of the CLI: the native
// binary. Every machine the format allows builds its topology within it
// (4096 CPUs × (4 + 254 distinct distances) = 1,056,768 domains, 1.5 s
// and 300 MB); events cost about 0.05 µs each natively on up to 600 CPUs,
// so 400 million events are about 20 s, under the two-minute deadline
// with room for 4096-CPU machines (their budget shrinks as their events
// cost more). One repetition may take all of it, the simulator's own cap
// (sim.DefaultMaxEvents), so a repetition the budget admits is one the
// simulator runs to its end.
var Serve = Profile{
	Name:         "serve",
	Domains:      1.1e6,
	EventsPerRep: 400e6,
	Events:       400e6,
	Timeline:     400_000,
	Decisions:    400_000,
	ReplyBytes:   192 << 20,
	Memory:       1 << 30,
	Overrides:    1024,
	Deadline:     2 * time.Minute,
}

// Browser is the budget of the page's engine worker: a user's own tab,
// opening links anyone may send. The run is off the page's main thread,
// shows its progress and can be cancelled, so it keeps the format's event
// limits (an event costs about 0.45 µs in wasm: 400 million are three
// minutes, all of it in one repetition if need be: the simulator's cap), but
// its memory stays under a gigabyte and it refuses the topologies that
// would take seconds to build (300,000 domains: about 90 MB and 4 s in
// wasm).
var Browser = Profile{
	Name:         "browser",
	Domains:      300_000,
	EventsPerRep: 400e6,
	Events:       400e6,
	Timeline:     400_000,
	Decisions:    400_000,
	ReplyBytes:   192 << 20,
	Memory:       1 << 30,
	Overrides:    1024,
}

// WorkerCPUMillis is limits.cpu_ms of wasm/edge/wrangler.jsonc: the CPU
// time Cloudflare gives one request before it kills it.
const WorkerCPUMillis = 30_000

// Worker is the budget of the Cloudflare Worker (wasm/edge): at most
// WorkerCPUMillis of CPU and 128 MB of memory per request, or Cloudflare
// kills it. Its worst admitted request is about 40 million events × 0.45 µs
// = 18 s, plus 100,000 domains × 12 µs = 1.2 s of topology build, about
// 1 s to decode and apply a 2 MiB body and 1 s to encode a 16 MiB reply:
// 21 s, a margin of 1.4 under 30 s for a slower CPU. Its 64 MiB memory
// budget leaves the other half of the 128 MB to the wasm module and the
// Go runtime.
var Worker = Profile{
	Name:         "Worker",
	Domains:      100_000,
	EventsPerRep: 40e6,
	Events:       40e6,
	Timeline:     100_000,
	Decisions:    20_000,
	ReplyBytes:   16 << 20,
	Memory:       64 << 20,
	Overrides:    1024,
	Deadline:     WorkerCPUMillis * time.Millisecond,
}
