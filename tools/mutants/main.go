// Command mutants checks that the engine's tests notice when a kernel
// mechanism breaks. Each mutant of engine/sim/testdata/mutants.json is one
// change to one engine file (a rule of fair.c dropped or bent, e.g.
// update_curr() without did_preempt_short()); the command applies it,
// runs the package's short tests, puts the file back and reports which
// tests failed. A mutant that no test kills, one that only crashes the
// test binary or runs it out of time or memory, one whose text is no
// longer in its file (the list is stale), and one that does not build
// are errors:
//
//	./build.sh mutants                  (every mutant: about 10 s each)
//	go run ./tools/mutants -only util_est
//
// The files are restored after each mutant, and on an interrupt.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"regexp"
	"strings"
	"sync"
	"syscall"
)

// mutant is one change: new replaces old, which occurs exactly once in file.
type mutant struct {
	Name string `json:"name"`
	File string `json:"file"`
	Old  string `json:"old"`
	New  string `json:"new"`
}

// mutate returns src with m applied, or why it cannot be.
func mutate(src string, m mutant) (string, error) {
	switch n := strings.Count(src, m.Old); n {
	case 1:
		return strings.Replace(src, m.Old, m.New, 1), nil
	case 0:
		return "", fmt.Errorf("%s: its text is no longer in %s (update the list)", m.Name, m.File)
	default:
		return "", fmt.Errorf("%s: its text occurs %d times in %s (make it unique)", m.Name, n, m.File)
	}
}

var failLine = regexp.MustCompile(`(?m)^\s*--- FAIL: (\S+)`)

// verdict reads go test's output for a mutant: the tests that killed it,
// or an error when it survived or did not build.
func verdict(name string, out []byte, err error) ([]string, error) {
	if err == nil {
		return nil, fmt.Errorf("%s: SURVIVED: no test failed", name)
	}
	var killed []string
	for _, m := range failLine.FindAllSubmatch(out, -1) {
		killed = append(killed, string(m[1]))
	}
	if len(killed) == 0 {
		if strings.Contains(string(out), "[build failed]") || strings.Contains(string(out), "[setup failed]") {
			return nil, fmt.Errorf("%s: does not build", name)
		}
		// a crash, the OOM killer or the timeout: the tests noticed only
		// by not finishing, which a test should turn into a clean failure
		return nil, fmt.Errorf("%s: no test failed, the test binary did not finish (%s)", name, firstLine(out))
	}
	return killed, nil
}

func firstLine(b []byte) string {
	s, _, _ := strings.Cut(strings.TrimSpace(string(b)), "\n")
	return s
}

// restorer puts a mutated file back, once, from the main flow or a signal.
type restorer struct {
	mu   sync.Mutex
	path string
	orig []byte
}

func (r *restorer) set(path string, orig []byte) {
	r.mu.Lock()
	r.path, r.orig = path, orig
	r.mu.Unlock()
}

func (r *restorer) restore() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.path == "" {
		return nil
	}
	err := os.WriteFile(r.path, r.orig, 0o644)
	r.path, r.orig = "", nil
	return err
}

func main() {
	list := flag.String("list", "engine/sim/testdata/mutants.json", "the mutants")
	pkg := flag.String("pkg", "./engine/sim", "the package whose tests must kill them")
	only := flag.String("only", "", "run the mutants whose name contains this text")
	flag.Parse()
	b, err := os.ReadFile(*list)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mutants:", err)
		os.Exit(2)
	}
	var ms []mutant
	if err := json.Unmarshal(b, &ms); err != nil {
		fmt.Fprintf(os.Stderr, "mutants: %s: %v\n", *list, err)
		os.Exit(2)
	}
	release, err := lockTree(lockFile)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mutants:", err)
		os.Exit(2)
	}
	code := run(ms, *only, *pkg, release)
	release()
	os.Exit(code)
}

// lockFile, in the directory the command runs from (the repository's
// root), marks a run in progress.
const lockFile = ".mutants.lock"

// lockTree makes sure one run at a time mutates the tree: a second run
// would read a file the first has mutated and put it back as the mutant.
func lockTree(path string) (release func(), err error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("%s exists: another run is mutating this tree (if none is, one was killed: check git status, then remove the file)", path)
	}
	if err != nil {
		return nil, err
	}
	fmt.Fprintln(f, os.Getpid())
	if err := f.Close(); err != nil {
		return nil, err
	}
	var once sync.Once
	return func() { once.Do(func() { os.Remove(path) }) }, nil
}

// run applies the mutants whose name contains only, one after the other,
// and returns the exit code.
func run(ms []mutant, only, pkg string, release func()) int {
	var r restorer
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-sig
		if err := r.restore(); err != nil {
			fmt.Fprintln(os.Stderr, "mutants: restoring:", err)
		}
		release()
		os.Exit(130)
	}()
	var bad []string
	ran := 0
	for _, m := range ms {
		if !strings.Contains(m.Name, only) {
			continue
		}
		ran++
		orig, err := os.ReadFile(m.File)
		if err != nil {
			bad = append(bad, err.Error())
			continue
		}
		mut, err := mutate(string(orig), m)
		if err != nil {
			bad = append(bad, err.Error())
			fmt.Println("STALE   ", m.Name)
			continue
		}
		r.set(m.File, orig)
		if err := os.WriteFile(m.File, []byte(mut), 0o644); err != nil {
			bad = append(bad, err.Error())
			if err := r.restore(); err != nil { // a write that failed part-way
				fmt.Fprintln(os.Stderr, "mutants: restoring", m.File+":", err)
				return 2
			}
			continue
		}
		out, testErr := exec.Command("go", "test", "-short", "-count=1", "-timeout", "5m", pkg).CombinedOutput()
		if err := r.restore(); err != nil {
			fmt.Fprintln(os.Stderr, "mutants: restoring", m.File+":", err)
			return 2
		}
		killed, err := verdict(m.Name, out, testErr)
		if err != nil {
			bad = append(bad, err.Error())
			fmt.Println("FAILED  ", m.Name)
			continue
		}
		fmt.Printf("killed   %s by %s\n", m.Name, strings.Join(killed, ", "))
	}
	fmt.Printf("%d mutants, %d not killed or not applicable\n", ran, len(bad))
	if len(bad) > 0 {
		for _, e := range bad {
			fmt.Fprintln(os.Stderr, "  "+e)
		}
		return 1
	}
	return 0
}
