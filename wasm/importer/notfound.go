package main

import "schedplay/engine/scenario"

// notFound is the error of a path this worker does not serve.
func notFound(path string) error {
	return &scenario.Error{Msg: "no such endpoint: " + path + "; this worker serves /api/v1/import"}
}
