package proxmox

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"
)

// testdata/pve-schema-subset.json is cut from PVE's API schema
// (/work/shared/specs/pve-apidata.js, the apiSchema array) for the routes
// the emulator serves: each route's parameter names and the property names
// of what it returns. The tests below hold the emulator to it.
type schemaMethod struct {
	Parameters        []string `json:"parameters"`
	ReturnsType       string   `json:"returns_type"`
	ReturnsProperties []string `json:"returns_properties"`
}

func loadSchema(t *testing.T) map[string]map[string]schemaMethod {
	t.Helper()
	b, err := os.ReadFile("testdata/pve-schema-subset.json")
	if err != nil {
		t.Fatal(err)
	}
	var s map[string]map[string]schemaMethod
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// schemaRoutes expands the emulator's routes into the schema's paths
// (status/{action} is one path per action there).
func schemaRoutes(e *Emulator) map[string]bool {
	out := map[string]bool{}
	for pattern := range e.handlers() {
		if strings.Contains(pattern, "{action}") {
			for a := range actionParams {
				out[strings.Replace(pattern, "{action}", a, 1)] = true
			}
			continue
		}
		out[pattern] = true
	}
	return out
}

func TestEveryRouteIsInTheSchema(t *testing.T) {
	s := loadSchema(t)
	routes := schemaRoutes(New(Options{}))
	for r := range routes {
		method, path, _ := strings.Cut(r, " ")
		if _, ok := s[path][method]; !ok {
			t.Errorf("route %s is not in PVE's schema", r)
		}
	}
	if len(routes) != 22 {
		t.Errorf("%d routes, want the 22 the design lists (each status action and config method counted)", len(routes))
	}
}

// paramsRead are the parameters each route reads, by its schema route.
func paramsRead() map[string][]string {
	out := map[string][]string{
		"POST /nodes/{node}/qemu/{vmid}/clone":        cloneParams,
		"POST /nodes/{node}/qemu/{vmid}/config":       append(slices.Clone(configParams), "background_delay"),
		"PUT /nodes/{node}/qemu/{vmid}/config":        configParams,
		"GET /nodes/{node}/qemu/{vmid}/config":        {"current", "snapshot"},
		"PUT /nodes/{node}/qemu/{vmid}/resize":        {"disk", "size", "digest", "skiplock"},
		"DELETE /nodes/{node}/qemu/{vmid}":            {"purge", "destroy-unreferenced-disks", "skiplock"},
		"GET /cluster/resources":                      {"type"},
		"GET /cluster/nextid":                         {"vmid"},
		"GET /nodes/{node}/storage/{storage}/content": {"content", "vmid"},
	}
	for a, p := range actionParams {
		out["POST /nodes/{node}/qemu/{vmid}/status/"+a] = p
	}
	return out
}

func TestEveryParameterReadIsInTheSchema(t *testing.T) {
	s := loadSchema(t)
	for r, params := range paramsRead() {
		method, path, _ := strings.Cut(r, " ")
		m, ok := s[path][method]
		if !ok {
			t.Errorf("%s not in the schema", r)
			continue
		}
		for _, p := range params {
			if !slices.Contains(m.Parameters, p) {
				t.Errorf("%s reads %q, which PVE's schema does not define", r, p)
			}
		}
	}
}

// TestAnswersKeepToTheSchema checks every key the emulator answers with
// against the properties PVE's schema gives the route's answer.
func TestAnswersKeepToTheSchema(t *testing.T) {
	s := loadSchema(t)
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
		{"GET /cluster/status", "/cluster/status"},
		{"GET /cluster/resources", "/cluster/resources"},
		{"GET /nodes/{node}/qemu/{vmid}/status/current", "/nodes/pve1/qemu/100/status/current"},
		{"GET /nodes/{node}/tasks/{upid}/status", "/nodes/pve1/tasks/" + url.PathEscape(upid) + "/status"},
		{"GET /nodes/{node}/tasks/{upid}/log", "/nodes/pve1/tasks/" + url.PathEscape(upid) + "/log"},
		{"GET /nodes/{node}/storage/{storage}/content", "/nodes/pve1/storage/local/content?content=snippets"},
	} {
		method, path, _ := strings.Cut(c.route, " ")
		want := s[path][method].ReturnsProperties
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, httptest.NewRequest(method, APIPrefix+c.path, nil))
		if rec.Code != http.StatusOK {
			t.Fatalf("%s: %d %s", c.path, rec.Code, rec.Body)
		}
		var body struct{ Data any }
		if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
			t.Fatal(err)
		}
		objects := []any{body.Data}
		if list, ok := body.Data.([]any); ok {
			objects = list
		}
		if len(objects) == 0 {
			t.Fatalf("%s answered no objects to check", c.path)
		}
		for _, o := range objects {
			for k := range o.(map[string]any) {
				if !slices.Contains(want, k) {
					t.Errorf("%s answers %q, not in the schema's %v", c.route, k, want)
				}
			}
		}
	}
}
