package tree

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"errors"
	"fmt"
	"io"

	"schedplay/engine/importer/input"
)

// Compression names what IsArchive recognised.
type Compression string

// The archive forms read.
const (
	NotArchive Compression = ""
	PlainTar   Compression = "tar"
	GzipTar    Compression = "tar.gz"
	Bzip2Tar   Compression = "tar.bz2"
)

// Sniff recognises an archive by its first bytes (gzip and bzip2 magic
// numbers; a tar header's "ustar" at offset 257). xz and zstd are named
// so the caller can say what to do instead.
func Sniff(head []byte) (Compression, string) {
	switch {
	case bytes.HasPrefix(head, []byte{0x1f, 0x8b}):
		return GzipTar, ""
	case bytes.HasPrefix(head, []byte("BZh")):
		return Bzip2Tar, ""
	case bytes.HasPrefix(head, []byte{0xfd, '7', 'z', 'X', 'Z', 0}):
		return NotArchive, "xz"
	case bytes.HasPrefix(head, []byte{0x28, 0xb5, 0x2f, 0xfd}):
		return NotArchive, "zstd"
	case len(head) >= 262 && string(head[257:262]) == "ustar":
		return PlainTar, ""
	}
	return NotArchive, ""
}

// ReadArchive reads a tar archive (plain, gzip or bzip2, recognised by
// Sniff) and keeps the regular files keep accepts plus every symbolic
// link and directory. file names the archive in errors.
func ReadArchive(file string, r io.Reader, keep func(name string) bool) (*Mem, error) {
	br := bufio.NewReaderSize(r, 512)
	head, _ := br.Peek(262)
	kind, other := Sniff(head)
	var plain io.Reader
	switch kind {
	case GzipTar:
		z, err := gzip.NewReader(br)
		if err != nil {
			return nil, input.Errorf(file, 0, "not a readable gzip file: %v", err)
		}
		z.Multistream(false)
		plain = z
	case Bzip2Tar:
		plain = bzip2.NewReader(br)
	case PlainTar:
		plain = br
	default:
		if other != "" {
			return nil, input.Errorf(file, 0, "an %s archive: schedplay reads tar, tar.gz and tar.bz2; recompress it with gzip", other)
		}
		return nil, input.Errorf(file, 0, "not a tar archive")
	}
	counted := &limitCounter{r: plain, left: input.MaxArchiveBytes}
	tr := tar.NewReader(counted)
	m := NewMem()
	kept, entries := 0, 0
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			if counted.over {
				return nil, input.Errorf(file, 0, "expands to more than the limit of %d bytes", input.MaxArchiveBytes)
			}
			return nil, input.Errorf(file, 0, "damaged archive after %d entries: %v", entries, err)
		}
		entries++
		if entries > input.MaxArchiveEntries {
			return nil, input.Errorf(file, 0, "more than the limit of %d entries", input.MaxArchiveEntries)
		}
		switch h.Typeflag {
		case tar.TypeDir:
			m.AddDir(h.Name)
		case tar.TypeSymlink:
			m.AddLink(h.Name, h.Linkname)
		case tar.TypeReg, tar.TypeLink:
			if !keep(clean(h.Name)) {
				continue
			}
			if h.Typeflag == tar.TypeLink {
				if b, err := m.ReadFile(h.Linkname); err == nil {
					m.AddFile(h.Name, b)
				}
				continue
			}
			if h.Size > input.MaxFileBytes {
				return nil, input.Errorf(file, 0, "%s is %d bytes; the limit per file is %d", h.Name, h.Size, input.MaxFileBytes)
			}
			b, err := io.ReadAll(io.LimitReader(tr, input.MaxFileBytes+1))
			if err != nil {
				return nil, input.Errorf(file, 0, "reading %s: %v", h.Name, err)
			}
			kept += len(b)
			if kept > input.MaxKeptBytes {
				return nil, input.Errorf(file, 0, "the files schedplay needs exceed %d bytes", input.MaxKeptBytes)
			}
			m.AddFile(h.Name, b)
		}
	}
	if counted.over {
		return nil, input.Errorf(file, 0, "expands to more than the limit of %d bytes", input.MaxArchiveBytes)
	}
	return m, nil
}

// limitCounter fails a read past left bytes (a decompression bomb).
type limitCounter struct {
	r    io.Reader
	left int64
	over bool
}

func (l *limitCounter) Read(p []byte) (int, error) {
	if l.left <= 0 {
		l.over = true
		return 0, fmt.Errorf("decompressed size limit reached")
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	return n, err
}
