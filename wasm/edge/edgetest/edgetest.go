//go:build !js

// Package edgetest starts the Cloudflare Worker build (dist-worker/, made
// by ./build.sh worker) under `wrangler dev` (workerd, from
// wasm/edge/node_modules) for tests: on a free 127.0.0.1 port, stopped
// when the test ends. Tests that use it carry the build tag workerd.
package edgetest

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Wrangler is one `wrangler dev` process group (wrangler and its workerd).
type Wrangler struct {
	URL string
	cmd *exec.Cmd
	mu  sync.Mutex
	log bytes.Buffer
}

// root is the repository's root (this file is wasm/edge/edgetest/edgetest.go).
func root(t testing.TB) string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("edgetest: no caller information")
	}
	return filepath.Join(filepath.Dir(file), "../../..")
}

// Start runs `wrangler dev` on a free port with the given Worker
// variables ("NAME:value", as --var takes them) and waits for its
// /api/v1/health.
func Start(t testing.TB, vars ...string) *Wrangler {
	t.Helper()
	r := root(t)
	bin := filepath.Join(r, "wasm/edge/node_modules/.bin/wrangler")
	dir := filepath.Join(r, "dist-worker")
	for _, f := range []string{bin, filepath.Join(dir, "build/app.wasm")} {
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("%s missing: run ./build.sh worker and (cd wasm/edge && npm install) first", f)
		}
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	w := &Wrangler{URL: fmt.Sprintf("http://127.0.0.1:%d", port)}
	args := []string{"dev", "--ip", "127.0.0.1", "--port", strconv.Itoa(port)}
	for _, v := range vars {
		args = append(args, "--var", v)
	}
	w.cmd = exec.Command(bin, args...)
	w.cmd.Dir = dir
	w.cmd.Env = append(os.Environ(), "WRANGLER_SEND_METRICS=false", "CI=true", "CLOUDFLARE_CF_FETCH_ENABLED=false")
	w.cmd.Stdout, w.cmd.Stderr = w, w
	w.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := w.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Stop(syscall.SIGINT) })
	deadline := time.Now().Add(90 * time.Second)
	for {
		res, err := http.Get(w.URL + "/api/v1/health")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				return w
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("wrangler on %s not ready after 90 s:\n%s", w.URL, w.Log())
		}
		time.Sleep(300 * time.Millisecond)
	}
}

// Write collects wrangler's output.
func (w *Wrangler) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.log.Write(b)
}

// Log is wrangler's output so far.
func (w *Wrangler) Log() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.log.String()
}

// Stop signals the process group and waits for it (SIGKILL after 5 s).
func (w *Wrangler) Stop(sig syscall.Signal) {
	if w.cmd.Process == nil || w.cmd.ProcessState != nil {
		return
	}
	syscall.Kill(-w.cmd.Process.Pid, sig)
	done := make(chan struct{})
	go func() { w.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		syscall.Kill(-w.cmd.Process.Pid, syscall.SIGKILL)
		<-done
	}
}
