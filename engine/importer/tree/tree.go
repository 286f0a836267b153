// Package tree gives the importers one read-only view of a file tree,
// whether it is a directory on disk or a tar archive (plain, gzip or
// bzip2) held in memory: files by slash-separated path, symbolic links
// followed inside the tree, directories listed.
//
// An archive is read as a stream and only the files a caller asks to
// keep are held (symbolic links are always kept, they are how sysfs
// connects its parts), within the input package's bounds: entries,
// decompressed bytes, bytes kept and bytes per file.
package tree

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"schedplay/engine/importer/input"
)

// Tree is a read-only file tree. Paths are slash-separated and relative
// ("sys/devices/system/cpu/online"); symbolic links inside the tree are
// followed.
type Tree interface {
	// ReadFile returns a file's bytes (fs.ErrNotExist when absent).
	ReadFile(name string) ([]byte, error)
	// ReadDir lists a directory's entry names, sorted.
	ReadDir(name string) ([]string, error)
}

// maxLinkHops bounds symbolic-link resolution (the kernel's MAXSYMLINKS).
const maxLinkHops = 40

// Dir is a directory on disk as a Tree; files over input.MaxFileBytes
// are refused.
func Dir(root string) Tree { return dirTree{root: root} }

type dirTree struct{ root string }

func (d dirTree) ReadFile(name string) ([]byte, error) {
	f, err := os.Open(filepath.Join(d.root, filepath.FromSlash(name)))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return input.ReadAll(name, f, input.MaxFileBytes)
}

func (d dirTree) ReadDir(name string) ([]string, error) {
	es, err := os.ReadDir(filepath.Join(d.root, filepath.FromSlash(name)))
	if err != nil {
		return nil, err
	}
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.Name()
	}
	return out, nil
}

// Mem is a tree held in memory (an archive's kept files).
type Mem struct {
	files map[string][]byte
	links map[string]string // path → link target as written
	dirs  map[string]map[string]bool
}

// NewMem returns an empty in-memory tree.
func NewMem() *Mem {
	return &Mem{files: map[string][]byte{}, links: map[string]string{}, dirs: map[string]map[string]bool{"": {}}}
}

// AddFile stores a file (its parents become directories).
func (m *Mem) AddFile(name string, data []byte) {
	name = clean(name)
	m.files[name] = data
	m.addParents(name)
}

// AddLink stores a symbolic link.
func (m *Mem) AddLink(name, target string) {
	name = clean(name)
	m.links[name] = target
	m.addParents(name)
}

// AddDir records a directory (possibly empty).
func (m *Mem) AddDir(name string) {
	name = clean(name)
	if name == "" {
		return
	}
	if _, ok := m.dirs[name]; !ok {
		m.dirs[name] = map[string]bool{}
	}
	m.addParents(name)
}

func (m *Mem) addParents(name string) {
	for name != "" {
		dir, base := path.Split(name)
		dir = strings.TrimSuffix(dir, "/")
		entries, existed := m.dirs[dir]
		if !existed {
			entries = map[string]bool{}
			m.dirs[dir] = entries
		}
		entries[base] = true
		if existed && dir != "" {
			return // its parents are recorded already
		}
		name = dir
	}
}

func clean(name string) string {
	name = path.Clean("/" + name)
	return strings.TrimPrefix(name, "/")
}

// resolve follows symbolic links in every component of name.
func (m *Mem) resolve(name string) (string, error) {
	parts := strings.Split(clean(name), "/")
	cur := ""
	hops := 0
	for i := 0; i < len(parts); i++ {
		if parts[i] == "" {
			continue
		}
		next := path.Join(cur, parts[i])
		if target, ok := m.links[next]; ok {
			hops++
			if hops > maxLinkHops || strings.HasPrefix(target, "/") {
				return "", fmt.Errorf("%s: cannot follow the link to %s", next, target)
			}
			rest := append(strings.Split(target, "/"), parts[i+1:]...)
			joined := path.Join(append([]string{cur}, rest...)...)
			if strings.HasPrefix(joined, "..") {
				return "", fmt.Errorf("%s: the link to %s leaves the tree", next, target)
			}
			parts, cur, i = strings.Split(joined, "/"), "", -1
			continue
		}
		cur = next
	}
	return cur, nil
}

// ReadFile implements Tree.
func (m *Mem) ReadFile(name string) ([]byte, error) {
	p, err := m.resolve(name)
	if err != nil {
		return nil, err
	}
	if b, ok := m.files[p]; ok {
		return b, nil
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

// ReadDir implements Tree.
func (m *Mem) ReadDir(name string) ([]string, error) {
	p, err := m.resolve(name)
	if err != nil {
		return nil, err
	}
	es, ok := m.dirs[p]
	if !ok {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	}
	out := make([]string, 0, len(es))
	for e := range es {
		out = append(out, e)
	}
	slices.Sort(out)
	return out, nil
}

// IsNotExist reports whether err says a path does not exist.
func IsNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }
