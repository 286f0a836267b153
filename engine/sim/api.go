package sim

// Options steer one Run.
type Options struct {
	// Timeline records repetition 0's timeline and decision records.
	Timeline bool
	// NoDecisions, with Timeline, records only the run and mode intervals:
	// no decision records and none of the path detail they need, which
	// makes a traced run almost as cheap as an untraced one.
	NoDecisions bool
	// TimelineCap and DecisionCap are the most intervals and decision
	// records the timeline keeps (0: DefaultTimelineCap); past them it is
	// marked truncated and the result warns where.
	TimelineCap, DecisionCap int
	// MaxEvents is the event budget per repetition; 0 means DefaultMaxEvents,
	// which also bounds any larger value (the runtimes pass their profile's
	// budget.Profile.RepEventCap). A run that exceeds it stops with
	// ErrEventBudget.
	MaxEvents int64
	// Progress, when set, is called now and then with the fraction done
	// (0..1) over all repetitions. It must not block.
	Progress func(done float64)
	// verifySums checks every read of the group sums against a walk of
	// the group's span (tests).
	verifySums bool
}

// DefaultMaxEvents is the per-repetition event budget when Options.MaxEvents
// is 0: the page's and serve's per-request budget (engine/budget), so one
// repetition may take all of a request (perf bench sched messaging -g 16
// over pipes, 2160 loops, runs about 240 million events).
const DefaultMaxEvents = 400_000_000
