package sim

import (
	"fmt"
	"math"
	"testing"
)

// deviceIRQSim is one node of two spatial-SMT cores, CPUs 0-1 the PE0s and
// 2-3 their PE1s, with two device vectors firing every 50 ms for 10 µs.
func deviceIRQSim(t *testing.T) *sim {
	t.Helper()
	return simOf(t, `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":2,"threads_per_core":2,"numbering":"sibling-major",
		"smt":{"model":"spatial","yield":[1,1.064],"qual":"3us","hold":"1ms","partitioned_single":0.6},
		"device_irqs":{"vectors":2,"period":"50ms","run":"10us"}},
		"workload":{"preset":"idle"},"run":{"duration":"1s","seed":1}}`)
}

// TestDeviceIRQTargets: group_cpus_evenly(2) gives each vector a core
// ({0,2} and {1,3}) and the GIC routes it to the group's first CPU, the
// PE0.
func TestDeviceIRQTargets(t *testing.T) {
	s := deviceIRQSim(t)
	if len(s.irqTarget) != 2 || s.irqTarget[0] != 0 || s.irqTarget[1] != 1 {
		t.Fatalf("vector CPUs %v; want [0 1] (the PE0s)", s.irqTarget)
	}
	// two nodes of two cores (node 0 = CPUs 0,1,4,5): three vectors give
	// node 0 one group and node 1 two, by their shares of the CPUs
	two := simOf(t, `{"schedplay":1,"machine":{"nodes":2,"cores_per_node":2,"threads_per_core":2,"numbering":"sibling-major",
		"device_irqs":{"vectors":3,"period":"50ms","run":"10us"}},"workload":{"preset":"idle"},"run":{"duration":"1s","seed":1}}`)
	if fmt.Sprint(two.irqTarget) != "[0 2 3]" {
		t.Fatalf("two nodes, three vectors: CPUs %v; want [0 2 3]", two.irqTarget)
	}
}

// TestDeviceIRQOnIdlePE: an interrupt on an idle CPU keeps its PE busy for
// the handler's run, so the core leaves ST when the sibling computes, while
// the scheduler still sees the CPU idle; then the PE is idle again.
func TestDeviceIRQOnIdlePE(t *testing.T) {
	s := deviceIRQSim(t)
	s.computeOn(0, 2) // core 0's PE1 computes; its PE0 (CPU 0) is idle
	s.evalAt(1_000_000)
	if Mode(s.cores[0].mode) != ModeST {
		t.Fatalf("core 0 mode %d with one PE busy; want ST", s.cores[0].mode)
	}
	s.now = 1_000_000
	s.deviceIRQ(0)
	if !s.cpus[0].irqBusy || s.cores[0].busy&1 == 0 {
		t.Fatal("the interrupt left CPU 0's PE idle")
	}
	if !s.availableIdle(0) {
		t.Fatal("CPU 0 is not idle to the scheduler while it handles an interrupt on the idle task")
	}
	s.evalAt(1_005_000)
	if Mode(s.cores[0].mode) == ModeST {
		t.Fatalf("core 0 still in ST 5 µs into the interrupt on its idle PE0")
	}
	s.now = s.cpus[0].irqEnd
	s.cpus[0].irqBusy = false // evIRQEnd
	s.peBusyChanged(&s.cpus[0])
	if s.cores[0].busy&1 != 0 {
		t.Fatal("CPU 0's PE still busy after the handler")
	}
}

// TestDeviceIRQOnBusyCPU: on a CPU that runs a task the handler's run is
// taken from the task: 1 ms later it has done 10 µs less work.
func TestDeviceIRQOnBusyCPU(t *testing.T) {
	ref := deviceIRQSim(t)
	p0 := ref.computeOn(0, 1)
	ref.now = 1_000_000
	ref.syncCPU(&ref.cpus[1])

	s := deviceIRQSim(t)
	p := s.computeOn(0, 1)
	s.now = 200_000
	s.deviceIRQ(1)
	s.now = 1_000_000
	s.syncCPU(&s.cpus[1])
	lost := p0.done - p.done
	if want := 10_000 * s.cpus[1].rate; math.Abs(lost-want) > 1 {
		t.Fatalf("the task lost %.0f of work to a 10 µs interrupt; want %.0f", lost, want)
	}
}
