package proxmox_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/proxmox"
)

func control(t *testing.T, e *proxmox.Emulator, method, path, body string) (int, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, httptest.NewRequest(method, proxmox.ControlPrefix+path, strings.NewReader(body)))
	return rec.Code, rec.Body.String()
}

func TestControlAPI(t *testing.T) {
	e := proxmox.New(proxmox.Options{})
	if code, body := control(t, e, "POST", "/vms", `{"Name":"legacy","Node":"pve2","Tags":"prod"}`); code != http.StatusCreated || !strings.Contains(body, `"vmid":100`) {
		t.Fatalf("POST /vms: %d %s", code, body)
	}
	code, body := control(t, e, "GET", "/vms", "")
	var vms []proxmox.VMInfo
	if err := json.Unmarshal([]byte(body), &vms); err != nil || code != 200 || len(vms) != 2 || vms[0].Config["tags"] != "prod" || !vms[1].Template {
		t.Fatalf("GET /vms: %d %s", code, body)
	}
	if code, body := control(t, e, "POST", "/vms", `{"Nmae":"x"}`); code != 400 || !strings.Contains(body, "send") {
		t.Fatalf("a misspelt seed: %d %s", code, body)
	}
	for _, c := range [][3]string{
		{"POST", "/clones/hold", ""},
		{"POST", "/agent", `{"vmid":0,"fault":"hang"}`},
		{"POST", "/nodes", `{"name":"pve2","online":false}`},
		{"POST", "/locks", `{"vmid":100,"lock":"backup"}`},
	} {
		if code, body := control(t, e, c[0], c[1], c[2]); code != http.StatusNoContent {
			t.Fatalf("%s %s: %d %s", c[0], c[1], code, body)
		}
	}
	if v, _ := e.VM(100); v.Lock != "backup" {
		t.Fatalf("lock %q", v.Lock)
	}
	if _, body := control(t, e, "POST", "/clones/release", ""); !strings.Contains(body, `"released":0`) {
		t.Fatalf("release: %s", body)
	}
	if code, _ := control(t, e, "POST", "/agent", `{"fault":"sleepy"}`); code != 400 {
		t.Fatalf("unknown agent fault: %d", code)
	}
	if _, body := control(t, e, "GET", "/counters", ""); !strings.Contains(body, `"lock_waits":0`) {
		t.Fatalf("counters: %s", body)
	}
}
