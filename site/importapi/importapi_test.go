package importapi_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"schedplay/presets"
	"schedplay/site/api"
	"schedplay/site/importapi"
)

func TestImportEndpoint(t *testing.T) {
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(api.New(ps, api.WithEndpoint(importapi.Path, importapi.New(ps), importapi.Memory)))
	defer srv.Close()
	post := func(query string, body io.Reader) (int, map[string]any) {
		t.Helper()
		res, err := http.Post(srv.URL+importapi.Path+query, "application/octet-stream", body)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var m map[string]any
		if err := json.NewDecoder(res.Body).Decode(&m); err != nil {
			t.Fatal(err)
		}
		return res.StatusCode, m
	}
	snap, err := os.Open(filepath.Join("..", "..", "engine", "importer", "testdata", "sysfs", "x86_64-epyc_7451.tar.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Close()
	code, m := post("?name=epyc.tar.gz", snap)
	if code != 200 || m["format"] != "sysfs snapshot" || !strings.HasPrefix(m["share"].(string), "s=") || !strings.Contains(m["summary"].(string), "96 CPUs") {
		t.Fatalf("%d %v", code, m)
	}
	if sc := m["scenario"].(map[string]any); sc["machine"].(map[string]any)["nodes"] != 8.0 {
		t.Errorf("scenario %v", sc)
	}
	code, m = post("?name=bad.txt", strings.NewReader("# CPU,Core,Socket,Node\n0,0,0,0\n1,1,0\n"))
	if msg := m["error"].(map[string]any)["message"].(string); code != 400 || !strings.HasPrefix(msg, "bad.txt:3:") {
		t.Errorf("bad file: %d %q", code, msg)
	}
	code, m = post("?name=u.json&machine=nosuch", strings.NewReader(`{"tasks":{"t":{"run":5}}}`))
	if code != 400 || !strings.Contains(m["error"].(map[string]any)["message"].(string), `unknown machine preset "nosuch"`) {
		t.Errorf("bad machine: %d %v", code, m)
	}
	code, m = post("?name=u.json&machine=hikey960&policy=%7B%22preset%22%3A%22v6-on%22%7D", strings.NewReader(`{"tasks":{"t":{"run":5}}}`))
	if code != 200 || m["format"] != "rt-app JSON" {
		t.Errorf("rt-app with a machine and a policy object: %d %v", code, m)
	}
	code, _ = post("", strings.NewReader(strings.Repeat("x", importapi.MaxImportBody+1)))
	if code != http.StatusRequestEntityTooLarge {
		t.Errorf("an oversized file: %d", code)
	}
	res, err := http.Get(srv.URL + importapi.Path)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusMethodNotAllowed || res.Header.Get("Allow") != "POST" {
		t.Errorf("GET: %d", res.StatusCode)
	}
}
