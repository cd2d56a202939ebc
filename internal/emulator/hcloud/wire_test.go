package hcloud

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// requiredKeys are the "required" lists of the OpenAPI description
// (specs/hcloud-cloud-openapi.json) for each object the emulator returns.
var requiredKeys = map[string][]string{
	"server": {"id", "name", "status", "created", "public_net", "private_net", "server_type", "location", "datacenter",
		"image", "iso", "rescue_enabled", "locked", "backup_window", "outgoing_traffic", "ingoing_traffic",
		"included_traffic", "protection", "labels", "primary_disk_size"},
	"server_type": {"id", "name", "description", "cores", "memory", "disk", "deprecated", "prices", "storage_type",
		"cpu_type", "architecture", "locations"},
	"location":   {"id", "name", "description", "country", "city", "latitude", "longitude", "network_zone"},
	"datacenter": {"id", "name", "description", "location", "server_types"},
	"image": {"id", "type", "status", "name", "description", "image_size", "disk_size", "created", "created_from",
		"bound_to", "os_flavor", "os_version", "protection", "deprecated", "deleted", "labels", "architecture"},
	"action":     {"id", "command", "status", "progress", "started", "finished", "resources", "error"},
	"ssh_key":    {"id", "name", "fingerprint", "public_key", "labels", "created"},
	"pagination": {"page", "per_page", "previous_page", "next_page", "last_page", "total_entries"},
	"public_net": {"ipv4", "ipv6", "floating_ips"},
}

// droppedKeys are keys the API no longer sends, though clients still know
// them: an emulator sending them would hide a client relying on them.
var droppedKeys = map[string][]string{
	"server_type": {"included_traffic"},
}

func call(t *testing.T, e *Emulator, method, path, body string) map[string]json.RawMessage {
	t.Helper()
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	e.ServeHTTP(rec, req)
	if rec.Code >= 300 {
		t.Fatalf("%s %s: %d %s", method, path, rec.Code, rec.Body)
	}
	var out map[string]json.RawMessage
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	return out
}

func checkKeys(t *testing.T, kind string, raw json.RawMessage) map[string]json.RawMessage {
	t.Helper()
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		t.Fatalf("%s: %v in %s", kind, err, raw)
	}
	for _, k := range requiredKeys[kind] {
		if _, ok := obj[k]; !ok {
			t.Errorf("%s lacks required key %q", kind, k)
		}
	}
	for _, k := range droppedKeys[kind] {
		if _, ok := obj[k]; ok {
			t.Errorf("%s carries %q, which the API no longer sends", kind, k)
		}
	}
	return obj
}

func TestResponsesCarryTheSpecsRequiredKeys(t *testing.T) {
	e := New(Options{})
	created := call(t, e, http.MethodPost, "/v1/servers", `{"name":"shape","server_type":"cpx11","image":"rocky-9","location":"sin"}`)
	for _, k := range []string{"server", "action", "next_actions", "root_password"} {
		if _, ok := created[k]; !ok {
			t.Errorf("create response lacks %q", k)
		}
	}
	srv := checkKeys(t, "server", created["server"])
	checkKeys(t, "public_net", srv["public_net"])
	checkKeys(t, "server_type", srv["server_type"])
	checkKeys(t, "location", srv["location"])
	checkKeys(t, "datacenter", srv["datacenter"])
	checkKeys(t, "image", srv["image"])
	checkKeys(t, "action", created["action"])

	list := call(t, e, http.MethodGet, "/v1/servers", "")
	var meta struct{ Pagination json.RawMessage }
	if err := json.Unmarshal(list["meta"], &meta); err != nil {
		t.Fatal(err)
	}
	checkKeys(t, "pagination", meta.Pagination)

	for path, kind := range map[string]string{
		"/v1/server_types/22": "server_type",
		"/v1/locations/6":     "location",
		"/v1/datacenters/7":   "datacenter",
		"/v1/images/76766499": "image",
	} {
		checkKeys(t, kind, call(t, e, http.MethodGet, path, "")[kind])
	}
	dcs := call(t, e, http.MethodGet, "/v1/datacenters", "")
	if _, ok := dcs["recommendation"]; !ok {
		t.Error("datacenter list lacks recommendation")
	}
	key := call(t, e, http.MethodPost, "/v1/ssh_keys",
		`{"name":"k","public_key":"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGJ3mDIsdtWOFgRdA2wK0wsXxJCEMAdD3mEmxoMrhWc0"}`)
	checkKeys(t, "ssh_key", key["ssh_key"])
}

func TestPrices(t *testing.T) {
	if got := price("0.0060", "1"); got.Net != "0.0060000000" || got.Gross != "0.0071400000000000" {
		t.Errorf("EU price %+v", got)
	}
	if got := price("4.3500", "1.15"); got.Net != "5.0025000000" {
		t.Errorf("US price %+v", got)
	}
}

func TestAddressesComeFromDocumentationRanges(t *testing.T) {
	var p addressPool
	seen := map[string]bool{}
	for range hostsPerRange * len(v4Ranges) {
		a := p.takeV4()
		if seen[a] {
			t.Fatalf("%s handed out twice before the pool ran dry", a)
		}
		seen[a] = true
		if !strings.HasPrefix(a, "203.0.113.") && !strings.HasPrefix(a, "198.51.100.") && !strings.HasPrefix(a, "192.0.2.") {
			t.Fatalf("%s is not a documentation address", a)
		}
		if strings.HasSuffix(a, ".0") || strings.HasSuffix(a, ".1") || strings.HasSuffix(a, ".255") {
			t.Fatalf("%s is a network, gateway or broadcast address", a)
		}
	}
	p = addressPool{}
	a := p.takeV4()
	p.releaseV4(a)
	if b := p.takeV4(); b != a {
		t.Errorf("released %s, next was %s", a, b)
	}
	if v6 := p.takeV6(); !strings.HasPrefix(v6, "2001:db8:") || !strings.HasSuffix(v6, "::/64") {
		t.Errorf("IPv6 %s", v6)
	}
}
