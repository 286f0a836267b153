//go:build unix

package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestFIFOIsReadWithALimit: a FIFO fed without end is read through a
// size-limited reader and refused at the limit (1.73 GB of a 500 MB FIFO
// were read before).
func TestFIFOIsReadWithALimit(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	written := make(chan int64, 1)
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			written <- -1
			return
		}
		defer f.Close()
		n, _ := io.Copy(f, io.LimitReader(zeroReader{}, 500<<20)) // stops when the reader is gone
		written <- n
	}()
	code, _, errOut := run(t, "", "validate", fifo)
	if code != exitInvalid || !strings.Contains(errOut, "larger than the limit") {
		t.Errorf("validate FIFO: exit %d: %s", code, errOut)
	}
	if n := <-written; n > 4<<20 {
		t.Errorf("the FIFO was read for %d bytes; want about the 1 MiB limit", n)
	}
}

type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
