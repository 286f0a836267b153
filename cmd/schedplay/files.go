package main

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// errTooLarge says a file is over the size a verb reads.
var errTooLarge = errors.New("file too large")

// readFileLimited reads at most limit bytes of the file name, whatever its
// type: a regular file, a FIFO or a device such as /dev/zero is read
// through a limited reader, never stat'ed and trusted, so reading stops at
// limit+1 bytes. A larger file is refused (errTooLarge), a directory too.
func readFileLimited(name string, limit int64) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return nil, fmt.Errorf("%s is a directory", name)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s is larger than the limit of %d bytes: %w", name, limit, errTooLarge)
	}
	return data, nil
}
