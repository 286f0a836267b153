package importer

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"schedplay/engine/importer/hw"
	"schedplay/engine/importer/hwloc"
	"schedplay/engine/importer/lscpu"
	"schedplay/engine/scenario"
	"schedplay/presets"
)

// fuzzForm is one way FuzzImport reads an input: through Import's
// detection, or straight into one reader so that mutations which break
// the format's head still reach its body.
type fuzzForm struct {
	name string
	read func(data []byte, opt Options) (*Result, error)
}

var lscpuForms = []lscpu.Form{lscpu.Parse, lscpu.Extended, lscpu.JSONTable, lscpu.Summary, lscpu.JSONSummary}

func fuzzForms() []fuzzForm {
	forms := []fuzzForm{
		{"detect", func(d []byte, opt Options) (*Result, error) { return Import(fuzzName, bytes.NewReader(d), opt) }},
		traceForm("ftrace", FormatFtrace, func(*Options) {}),
		traceForm("ftrace on hikey960", FormatFtrace, func(o *Options) { o.Machine = []byte(`{"preset": "hikey960"}`) }),
		traceForm("ftrace, strict", FormatFtrace, func(o *Options) { o.Strict = true }),
		traceForm("chrome", FormatChrome, func(*Options) {}),
		{"rt-app", func(d []byte, opt Options) (*Result, error) { return importRTApp(fuzzName, d, opt) }},
		machineForm("hwloc", FormatHwloc, hwloc.Read),
		{"domains", func(d []byte, opt Options) (*Result, error) { return importDomains(fuzzName, d, opt) }},
	}
	for _, f := range lscpuForms {
		forms = append(forms, machineForm(string(f), Format(f), func(d []byte, file string) (*hw.Topology, error) {
			return lscpu.Read(f, d, file)
		}))
	}
	return forms
}

// traceForm reads an input as a trace of format f, with set applied to
// the options.
func traceForm(name string, f Format, set func(*Options)) fuzzForm {
	return fuzzForm{name, func(d []byte, opt Options) (*Result, error) {
		set(&opt)
		return importTrace(fuzzName, f, bufio.NewReader(bytes.NewReader(d)), opt)
	}}
}

// machineForm reads an input with a machine reader and maps it.
func machineForm(name string, f Format, read func([]byte, string) (*hw.Topology, error)) fuzzForm {
	return fuzzForm{name, func(d []byte, opt Options) (*Result, error) {
		t, err := read(d, fuzzName)
		if err != nil {
			return nil, err
		}
		return machineResult(fuzzName, f, t, nil, opt)
	}}
}

const fuzzName = "in.txt"

// formOf is the form a test file is read as (besides detection).
func formOf(forms []fuzzForm, p string, data []byte) int {
	want := ""
	switch filepath.Base(filepath.Dir(p)) {
	case "trace":
		want = "ftrace"
		if bytes.HasPrefix(bytes.TrimSpace(data), []byte("{")) {
			want = "chrome"
		}
	case "rtapp":
		want = "rt-app"
	case "hwloc":
		want = "hwloc"
	case "domains":
		want = "domains"
	case "lscpu":
		want = string(lscpu.Detect(data))
	}
	for i, f := range forms {
		if f.name == want {
			return i
		}
	}
	return 0
}

// FuzzImport: any input, read by detection or by any one reader, imports
// or fails with an error naming the file, and never panics; an import's
// scenario decodes and resolves.
func FuzzImport(f *testing.F) {
	ps, err := presets.Load()
	if err != nil {
		f.Fatal(err)
	}
	forms := fuzzForms()
	err = filepath.WalkDir("testdata", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, ".md") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		f.Add(uint8(0), data)
		if strings.HasSuffix(p, ".txt.gz") {
			z, err := gzip.NewReader(bytes.NewReader(data))
			if err != nil {
				return err
			}
			if data, err = io.ReadAll(z); err != nil {
				return err
			}
		}
		if i := formOf(forms, p, data); i > 0 {
			f.Add(uint8(i), data)
		}
		return nil
	})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, form uint8, data []byte) {
		fm := forms[int(form)%len(forms)]
		res, err := fm.read(data, Options{Presets: ps})
		if err != nil {
			if !strings.HasPrefix(err.Error(), fuzzName) {
				t.Fatalf("%s: error without the file's name: %v", fm.name, err)
			}
			return
		}
		sc, err := scenario.Decode(res.Scenario)
		if err != nil {
			t.Fatalf("%s: the scenario written does not decode: %v\n%s", fm.name, err, res.Scenario)
		}
		if _, err := scenario.Resolve(sc, ps); err != nil {
			t.Fatalf("%s: the scenario written does not resolve: %v\n%s", fm.name, err, res.Scenario)
		}
	})
}
