package importer_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"strings"
	"testing"

	"schedplay/engine/importer"
	"schedplay/presets"
)

// tarGz builds a tar.gz of the given files (path → content; a content
// starting with "->" is a symbolic link).
func tarGz(t *testing.T, files map[string]string, order []string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, name := range order {
		body := files[name]
		h := &tar.Header{Name: name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg}
		if target, ok := strings.CutPrefix(body, "->"); ok {
			h = &tar.Header{Name: name, Linkname: target, Typeflag: tar.TypeSymlink}
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if h.Typeflag == tar.TypeReg {
			tw.Write([]byte(body))
		}
	}
	tw.Close()
	zw.Close()
	return buf.Bytes()
}

// TestBadInputNamesFileAndLine: every refusal names the file (and the
// line, for text) and returns no result.
func TestBadInputNamesFileAndLine(t *testing.T) {
	ps, _ := presets.Load()
	snapshot := func(coreID string) []byte {
		files := map[string]string{
			"dump/sys/devices/system/cpu/online":                             "0-1\n",
			"dump/sys/devices/system/cpu/cpu0/topology/thread_siblings_list": "0\n",
			"dump/sys/devices/system/cpu/cpu0/topology/core_id":              coreID,
			"dump/sys/devices/system/cpu/cpu1/topology/thread_siblings_list": "1\n",
		}
		return tarGz(t, files, []string{"dump/sys/devices/system/cpu/online", "dump/sys/devices/system/cpu/cpu0/topology/thread_siblings_list",
			"dump/sys/devices/system/cpu/cpu0/topology/core_id", "dump/sys/devices/system/cpu/cpu1/topology/thread_siblings_list"})
	}
	for _, tc := range []struct {
		name, file string
		data       []byte
		want       string
	}{
		{"empty", "x.txt", nil, "x.txt: empty input"},
		{"unknown", "notes.txt", []byte("hello\nworld\n"), "notes.txt: not a format schedplay imports"},
		{"cpuinfo x86", "cpuinfo", []byte("processor\t: 0\nvendor_id\t: GenuineIntel\n"), "cpuinfo: this is /proc/cpuinfo, which does not say which CPUs share a cache or a node: on the machine, import the output of `lscpu -p`"},
		{"cpuinfo arm64", "cpuinfo", []byte("processor\t: 0\nBogoMIPS\t: 50.00\nCPU implementer\t: 0x41\n"), "this is /proc/cpuinfo"},
		{"xz", "d.tar.xz", []byte{0xfd, '7', 'z', 'X', 'Z', 0, 1, 2}, "recompress it with gzip"},
		{"lscpu -p field count", "p.txt", []byte("# CPU,Core,Socket,Node\n0,0,0,0\n1,1,0\n"), "p.txt:3: 3 fields; the header names 4"},
		{"lscpu -p number", "p.txt", []byte("# CPU,Core,Socket,Node\n0,x,0,0\n"), "p.txt:2: core \"x\" is not a number"},
		{"lscpu -e twice", "e.txt", []byte("CPU NODE SOCKET CORE\n0 0 0 0\n0 0 0 1\n"), "e.txt:3: CPU 0 is out of range or listed twice"},
		{"hwloc", "t.xml", []byte("<?xml version=\"1.0\"?>\n<topology version=\"2.0\">\n<object type=\"Machine\" cpuset=\"0x1\">\n<object type=\"PU\" os_index=\"0\" cpuset=\"0xzz\"/>\n</object></topology>\n"), "t.xml:4: object PU cpuset"},
		{"hwloc malformed", "t.xml", []byte("<?xml version=\"1.0\"?>\n<topology version=\"2.0\">\n<object type=\"PU\" os_index=\"0\"\n"), "t.xml:"},
		{"domains span", "d.txt", []byte("CPU0 attaching sched-domain(s):\n domain-0: span=0-x level=MC\n"), "d.txt:2: span \"0-x\""},
		{"domains without spans", "d.txt", []byte("/sys/kernel/debug/sched/domains/cpu0/domain0/name:MC\n"), "d.txt: CPU 0's domain MC has no span"},
		{"snapshot core_id", "snap.tar.gz", snapshot("zero\n"), "snap.tar.gz: sys/devices/system/cpu/cpu0/topology/core_id: \"zero\" is not a number"},
		{"not a snapshot", "t.tar.gz", tarGz(t, map[string]string{"a/b": "c"}, []string{"a/b"}), "t.tar.gz: no sys/devices/system/cpu in it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := importer.Import(tc.file, bytes.NewReader(tc.data), importer.Options{Presets: ps})
			if err == nil || res != nil {
				t.Fatalf("imported: %+v", res)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q; want it to contain %q", err, tc.want)
			}
		})
	}
}

// TestSnapshotFollowsLinks: a tarball's cpufreq link to policyN is
// followed (the maximum frequency reaches the capacities), and a link
// leaving the tree is refused, not followed.
func TestSnapshotFollowsLinks(t *testing.T) {
	ps, _ := presets.Load()
	base := "d/sys/devices/system/cpu/"
	files := map[string]string{
		base + "online": "0-1\n",
		base + "cpu0/topology/thread_siblings_list": "0\n",
		base + "cpu1/topology/thread_siblings_list": "1\n",
		base + "cpufreq/policy0/cpuinfo_max_freq":   "1000000\n",
		base + "cpufreq/policy1/cpuinfo_max_freq":   "2000000\n",
		base + "cpu0/cpufreq":                       "->../cpufreq/policy0",
		base + "cpu1/cpufreq":                       "->../cpufreq/policy1",
	}
	order := []string{base + "online", base + "cpu0/topology/thread_siblings_list", base + "cpu1/topology/thread_siblings_list",
		base + "cpufreq/policy0/cpuinfo_max_freq", base + "cpufreq/policy1/cpuinfo_max_freq", base + "cpu0/cpufreq", base + "cpu1/cpufreq"}
	res, err := importer.Import("links.tar.gz", bytes.NewReader(tarGz(t, files, order)), importer.Options{Presets: ps})
	if err != nil {
		t.Fatal(err)
	}
	r := resolve(t, res)
	if tp := build(t, r.Machine); tp.CPUs[0].Capacity != 512 || tp.CPUs[1].Capacity != 1024 {
		t.Errorf("capacities %v; want [512 1024] from the linked maximum frequencies", capacities(tp))
	}
	files[base+"cpu1/cpufreq"] = "->../../../../../../../etc"
	res, err = importer.Import("links.tar.gz", bytes.NewReader(tarGz(t, files, order)), importer.Options{Presets: ps})
	if err != nil {
		t.Fatal(err)
	}
	if r := resolve(t, res); build(t, r.Machine).CPUs[1].Capacity != 1024 {
		t.Errorf("escaping link followed")
	}
}
