package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"schedplay/engine/sweep"
)

// A sweep directory holds:
//
//	manifest.json   the sweep's key and definition (what it computes)
//	results.jsonl   one line per unit, in unit order (sweep.Plan.Line)
//	summary.csv     mean ± stddev, n, diff and Welch p per point, policy, metric
//	plot.svg        the plotted metric against the first varied field
//
// results.jsonl is always a prefix of the sweep's units, so resuming is
// counting its whole lines.

const (
	manifestName = "manifest.json"
	resultsName  = "results.jsonl"
	summaryName  = "summary.csv"
	plotName     = "plot.svg"
)

// sweepKey is the hex SHA-256 of the sweep's definition: a directory
// holds the results of one key.
func sweepKey(plan *sweep.Plan) string {
	sum := sha256.Sum256(plan.Definition())
	return hex.EncodeToString(sum[:])
}

// manifest is manifest.json.
type manifest struct {
	Version    int             `json:"schedplay_sweep"`
	Key        string          `json:"key"`
	Units      int             `json:"units"`
	Points     int             `json:"points"`
	Policies   []string        `json:"policies"`
	Reps       int             `json:"reps"`
	Seed       string          `json:"seed"`
	Command    []string        `json:"command"`
	Definition json.RawMessage `json:"definition"`
}

// openSweepDir prepares dir for plan: it writes the manifest of a new
// sweep, or checks that an existing one is the same sweep. It returns
// the number of units already done (the whole lines of results.jsonl,
// after cutting a partial last line).
func openSweepDir(dir string, plan *sweep.Plan, command []string) (int, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, err
	}
	mpath := filepath.Join(dir, manifestName)
	old, err := os.ReadFile(mpath)
	switch {
	case err == nil:
		var m manifest
		if json.Unmarshal(old, &m) != nil || m.Key == "" {
			return 0, fmt.Errorf("%s is not a sweep manifest; give another --out", mpath)
		}
		if m.Key != sweepKey(plan) {
			return 0, fmt.Errorf("%s holds another sweep (key %.12s, this one is %.12s: its scenario, overrides, values, policies, repetitions or seed differ); give another --out", dir, m.Key, sweepKey(plan))
		}
	case errors.Is(err, os.ErrNotExist):
		if err := checkEmptyish(dir); err != nil {
			return 0, err
		}
		m := manifest{Version: 1, Key: sweepKey(plan), Units: plan.NumUnits(), Points: plan.NumPoints(), Policies: plan.Policies(),
			Reps: plan.Reps(), Seed: strconv.FormatUint(plan.Seed(), 10), Command: command, Definition: plan.Definition()}
		b, _ := json.MarshalIndent(m, "", "  ")
		if err := writeFileAtomic(mpath, append(b, '\n')); err != nil {
			return 0, err
		}
	default:
		return 0, err
	}
	return resumePoint(filepath.Join(dir, resultsName))
}

// checkEmptyish refuses a directory holding results without a manifest.
func checkEmptyish(dir string) error {
	if _, err := os.Stat(filepath.Join(dir, resultsName)); err == nil {
		return fmt.Errorf("%s has %s but no %s; give another --out", dir, resultsName, manifestName)
	}
	return nil
}

// resumePoint counts the whole lines of results.jsonl, each starting
// {"unit":N with N its index, and cuts whatever follows them (a line an
// interrupted run left half written).
func resumePoint(path string) (int, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<16)
	n, good := 0, int64(0)
	for {
		line, err := r.ReadBytes('\n')
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, err
		}
		if !bytes.HasPrefix(line, []byte(`{"unit":`+strconv.Itoa(n)+`,`)) {
			break
		}
		n++
		good += int64(len(line))
	}
	if st, err := f.Stat(); err == nil && st.Size() != good {
		if err := f.Truncate(good); err != nil {
			return 0, err
		}
	}
	return n, nil
}

// writeFileAtomic writes b to a temporary file beside path and renames it.
func writeFileAtomic(path string, b []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// summarise reads results.jsonl of dir and writes summary.csv and
// plot.svg. It returns the summary (its counts and metrics).
func summarise(dir string, plan *sweep.Plan, metric string) (*sweep.Summary, error) {
	f, err := os.Open(filepath.Join(dir, resultsName))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	spath := filepath.Join(dir, summaryName)
	out, err := os.Create(spath + ".tmp")
	if err != nil {
		return nil, err
	}
	defer out.Close()
	bw := bufio.NewWriterSize(out, 1<<16)
	s := plan.NewSummary(bw, metric)
	r := bufio.NewReaderSize(f, 1<<16)
	for {
		line, err := r.ReadBytes('\n')
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		rec, err := sweep.ParseLine(line)
		if err == nil {
			err = s.Add(rec)
		}
		if err != nil {
			return nil, fmt.Errorf("%s line %d: %w", resultsName, s.Done()+1, err)
		}
	}
	if err := s.Close(); err != nil {
		return nil, err
	}
	if err := bw.Flush(); err != nil {
		return nil, err
	}
	if err := out.Close(); err != nil {
		return nil, err
	}
	if err := os.Rename(spath+".tmp", spath); err != nil {
		return nil, err
	}
	var svg bytes.Buffer
	if _, err := s.Plot(&svg); err != nil {
		return nil, err
	}
	return s, writeFileAtomic(filepath.Join(dir, plotName), svg.Bytes())
}
