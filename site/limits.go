package site

import "fmt"

// MaxStepCPUs is the largest machine step mode shows: the step endpoint's
// limit (site/api.MaxStepCPUs; the step view's tests keep them equal).
const MaxStepCPUs = 64

// StepRefusal says why step mode cannot show a machine of n CPUs (nil when
// it can). The step view shows it; the playground's Step button is
// disabled with it.
func StepRefusal(n int) error {
	if n > MaxStepCPUs {
		return fmt.Errorf("step mode shows every runqueue, so it runs on machines of at most %d CPUs; this machine has %d. Try a smaller machine (e.g. hikey960), or click a slice in the playground's timeline for the decision that put it there", MaxStepCPUs, n)
	}
	return nil
}
