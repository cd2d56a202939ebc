package proxmox

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
)

// The emulator's schema is pveschema.json, cut from PVE's API schema
// (pve-apidata.js) by tools/pveschema. The tests below hold the routes
// and answers to it.

func TestEveryRouteIsInTheSchema(t *testing.T) {
	s := apiSchema()
	routes := SchemaRoutes()
	for _, r := range routes {
		if m := s[r]; m == nil || m.Parameters == nil {
			t.Errorf("route %s is not in pveschema.json; run tools/pveschema", r)
		}
	}
	if len(routes) != len(s) {
		t.Errorf("%d routes served, %d in pveschema.json: cut it again with tools/pveschema", len(routes), len(s))
	}
}

// conforms checks an answer against the schema of what the route returns:
// each value of the type PVE declares (booleans as 0/1 or true/false),
// each property one the schema has (unless it allows more), and each
// property that is not optional there.
func conforms(s *schema, v any, at string) []string {
	if s == nil {
		return nil
	}
	var bad []string
	switch s.Type {
	case "null":
		if v != nil {
			bad = append(bad, fmt.Sprintf("%s: %v, want null", at, v))
		}
	case "integer", "number", "boolean":
		f, ok := v.(float64)
		_, isBool := v.(bool)
		switch {
		case s.Type == "boolean" && (isBool || ok && (f == 0 || f == 1)):
		case s.Type == "integer" && ok && f == float64(int64(f)):
		case s.Type == "number" && ok:
		default:
			bad = append(bad, fmt.Sprintf("%s: %#v, want %s", at, v, s.Type))
		}
	case "string":
		if _, ok := v.(string); !ok {
			bad = append(bad, fmt.Sprintf("%s: %#v, want string", at, v))
		}
	case "array":
		list, ok := v.([]any)
		if !ok {
			return append(bad, fmt.Sprintf("%s: %#v, want array", at, v))
		}
		for i, item := range list {
			bad = append(bad, conforms(s.Items, item, fmt.Sprintf("%s[%d]", at, i))...)
		}
	case "object":
		obj, ok := v.(map[string]any)
		if !ok {
			return append(bad, fmt.Sprintf("%s: %#v, want object", at, v))
		}
		for _, k := range slices.Sorted(maps.Keys(obj)) {
			p := s.lookup(k)
			if p == nil {
				if s.AdditionalProperties == 0 && len(s.Properties) > 0 {
					bad = append(bad, fmt.Sprintf("%s.%s: not in the schema", at, k))
				}
				continue
			}
			bad = append(bad, conforms(p, obj[k], at+"."+k)...)
		}
		for _, k := range slices.Sorted(maps.Keys(s.Properties)) {
			if _, ok := obj[k]; !ok && s.Properties[k].Optional == 0 && !strings.HasSuffix(k, "[n]") {
				bad = append(bad, fmt.Sprintf("%s.%s: missing, and not optional", at, k))
			}
		}
	}
	return bad
}

// answerConforms checks a recorded answer of route against its returns.
func answerConforms(route string, body []byte) []string {
	var env struct{ Data any }
	if err := json.Unmarshal(body, &env); err != nil {
		return []string{err.Error()}
	}
	m := apiSchema()[route]
	if m == nil {
		return []string{route + " is not in the schema"}
	}
	// PVE answers the next id as a string, though its schema says integer.
	if route == "GET /cluster/nextid" {
		return nil
	}
	return conforms(m.Returns, env.Data, "data")
}

// TestAnswersKeepToTheSchema checks what each read route answers against
// the schema of its returns.
func TestAnswersKeepToTheSchema(t *testing.T) {
	e := New(Options{})
	if _, err := e.AddVM(VMSeed{Name: "a", Running: true, Tags: "x"}); err != nil {
		t.Fatal(err)
	}
	e.mu.Lock()
	e.vms[100].lock = "backup"
	e.nodes[0].storage["snippets/a.yaml"] = []byte("#cloud-config\n")
	upid := e.doneTaskLocked("pve1", "qmstart", "100", "root@pam", "OK").upid
	e.mu.Unlock()
	for _, c := range []struct{ route, path string }{
		{"GET /version", "/version"},
		{"GET /nodes", "/nodes"},
		{"GET /nodes/{node}/status", "/nodes/pve1/status"},
		{"GET /nodes/{node}/qemu", "/nodes/pve1/qemu"},
		{"GET /pools", "/pools"},
		{"GET /cluster/status", "/cluster/status"},
		{"GET /cluster/resources", "/cluster/resources"},
		{"GET /nodes/{node}/qemu/{vmid}/config", "/nodes/pve1/qemu/100/config"},
		{"GET /nodes/{node}/qemu/{vmid}/status/current", "/nodes/pve1/qemu/100/status/current"},
		{"GET /nodes/{node}/tasks/{upid}/status", "/nodes/pve1/tasks/" + url.PathEscape(upid) + "/status"},
		{"GET /nodes/{node}/tasks/{upid}/log", "/nodes/pve1/tasks/" + url.PathEscape(upid) + "/log"},
		{"GET /nodes/{node}/storage/{storage}/content", "/nodes/pve1/storage/local/content?content=snippets"},
		{"GET /nodes/{node}/storage/{storage}/content/{volume}", "/nodes/pve1/storage/local-lvm/content/local-lvm:vm-100-disk-0"},
		{"GET /storage/{storage}", "/storage/local"},
	} {
		method, path, _ := strings.Cut(c.route, " ")
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, httptest.NewRequest(method, APIPrefix+c.path, nil))
		if rec.Code != http.StatusOK {
			t.Errorf("%s: %d %s", c.path, rec.Code, rec.Body)
			continue
		}
		for _, b := range answerConforms(method+" "+path, rec.Body.Bytes()) {
			t.Errorf("%s: %s", c.route, b)
		}
	}
}
