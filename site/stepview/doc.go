// Package stepview is the step mode (?step=1 with #s= or ?preset=): the
// scenario advanced one scheduling event at a time on a small machine,
// showing every runqueue (current task, queued tasks with vruntime,
// deadline and lag), the LLCs' idle-core hints and idle CPUs, the last
// event with the decision path it recorded, and a small timeline of what
// ran so far.
//
// The engine worker keeps no state between requests, so every step is a
// deterministic replay: POST /api/v1/step with the scenario and the number
// of events (site/api/step.go). Back replays one event fewer. See
// docs/step.md.
package stepview
