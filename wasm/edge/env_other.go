//go:build !(js && wasm)

package main

import "os"

// envVar is the environment variable name (the native fallback server
// syumai/workers runs outside a Worker).
func envVar(name string) string { return os.Getenv(name) }
