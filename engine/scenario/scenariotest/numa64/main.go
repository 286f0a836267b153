// Command numa64 prints scenariotest.NUMA64 (the 64-node, 244-distance
// machine of issue 17's hostile corpus) for scripts: wasm/edge/edge_test.sh
// posts it to the Worker.
package main

import (
	"fmt"

	"schedplay/engine/scenario/scenariotest"
)

func main() { fmt.Print(scenariotest.NUMA64()) }
