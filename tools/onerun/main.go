// Command onerun runs one simulated second of a docs/speed.md case once
// (repetition 0, no timeline), for instruction counts that a shared
// machine cannot disturb:
//
//	go build -o /tmp/onerun ./tools/onerun
//	GOMAXPROCS=1 GOGC=off GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind \
//		--callgrind-out-file=/dev/null /tmp/onerun sgemm
//
// Cases: sgemm (Vera + sgemm-nvpl) and full (Vera, 352 hogs), as
// BenchmarkSpeed runs them.
package main

import (
	"context"
	"fmt"
	"os"

	"schedplay/engine/scenario"
	"schedplay/engine/sim"
	"schedplay/presets"
)

// cases are BenchmarkSpeed's vera-sgemm-nvpl-1s and vera-full-352-1s.
var cases = map[string]string{
	"sgemm": `{"schedplay":1,"machine":{"preset":"vera"},"policy":{"preset":"mainline"},"workload":{"preset":"sgemm-nvpl"},"run":{"duration":"1s","until":"duration","seed":1,"reps":1}}`,
	"full":  `{"schedplay":1,"machine":{"preset":"vera"},"policy":{"preset":"mainline"},"workload":{"groups":[{"name":"hog","count":352,"program":[{"repeat":100000,"do":[{"compute":"10ms","jitter":0.05},{"sleep":"200us"}]}]}]},"run":{"duration":"1s","until":"duration","seed":1,"reps":1}}`,
}

func main() {
	if len(os.Args) != 2 || cases[os.Args[1]] == "" {
		fmt.Fprintln(os.Stderr, "usage: onerun sgemm|full")
		os.Exit(2)
	}
	ps, err := presets.Load()
	if err != nil {
		panic(err)
	}
	sc, err := scenario.Decode([]byte(cases[os.Args[1]]))
	if err != nil {
		panic(err)
	}
	if sc, err = scenario.Apply(sc, ps, nil); err != nil {
		panic(err)
	}
	r, err := scenario.Resolve(sc, ps)
	if err != nil {
		panic(err)
	}
	res, err := sim.Run(context.Background(), r, sim.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Fprintln(os.Stderr, len(res.Reps), "repetition")
}
