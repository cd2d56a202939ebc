package proxmox

import (
	"encoding/json"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// configKeys is the property-string format of config key k.
func configKeys(t *testing.T, k string) map[string]*schema {
	t.Helper()
	s := configKeySchema(k)
	if s == nil {
		t.Fatalf("no schema for %s", k)
	}
	s.compile()
	if s.keys == nil {
		t.Fatalf("%s is not a property string", k)
	}
	return s.keys
}

func TestPropertyStrings(t *testing.T) {
	for _, c := range []struct {
		key, value string
		want       map[string]string
		refused    string // part of the message, "" for a good value
	}{
		// The default key spelled out, with the trailing comma bpg sends.
		{key: "ide2", value: "file=local-lvm:cloudinit,", want: map[string]string{"file": "local-lvm:cloudinit"}},
		// The default key bare.
		{key: "ide2", value: "local-lvm:vm-100-cloudinit,media=cdrom", want: map[string]string{"file": "local-lvm:vm-100-cloudinit", "media": "cdrom"}},
		{key: "scsi0", value: "local-lvm:vm-100-disk-0,size=10G,discard=on", want: map[string]string{"file": "local-lvm:vm-100-disk-0", "size": "10G", "discard": "on"}},
		// A key that is an alias of another, naming what it stands for.
		{key: "net0", value: "virtio=BC:24:11:00:00:64,bridge=vmbr0,firewall=1", want: map[string]string{"model": "virtio", "macaddr": "BC:24:11:00:00:64", "bridge": "vmbr0", "firewall": "1"}},
		{key: "memory", value: "2048", want: map[string]string{"current": "2048"}},
		{key: "agent", value: "enabled=1,fstrim_cloned_disks=0,type=virtio", want: map[string]string{"enabled": "1", "fstrim_cloned_disks": "0", "type": "virtio"}},
		{key: "ide2", value: "local-lvm:a,local-lvm:b", refused: "duplicate key"},
		{key: "ide2", value: "local-lvm:a,colour=blue", refused: "invalid key"},
		{key: "ide2", value: "media=cdrom", refused: "file: property is missing"},
		{key: "ide2", value: "local-lvm:a,media=floppy", refused: "media: value 'floppy' does not have a value in the enumeration"},
		{key: "memory", value: "8", refused: "current: value must have a minimum value of 16"},
		{key: "agent", value: "enabled=maybe", refused: "enabled: type check ('boolean') failed"},
		{key: "net0", value: "virtio=BC:24:11:00:00:64,virtio=BC:24:11:00:00:65", refused: "key alias 'model' is already defined"},
		{key: "net0", value: "virtio=not-a-mac", refused: "macaddr: invalid format"},
		{key: "agent", value: "1,0", refused: "duplicate key"},
		{key: "efidisk0", value: "efitype=4m", refused: "file: property is missing"},
	} {
		got, msg := parsePropertyString(configKeys(t, c.key), c.value)
		switch {
		case c.refused != "" && !strings.Contains(msg, c.refused):
			t.Errorf("%s=%q: %q, want it refused with %q", c.key, c.value, msg, c.refused)
		case c.refused == "" && msg != "":
			t.Errorf("%s=%q refused: %s", c.key, c.value, msg)
		case c.refused == "" && !maps.Equal(got, c.want):
			t.Errorf("%s=%q read %v, want %v", c.key, c.value, got, c.want)
		}
	}
}

func TestPrintPropertyString(t *testing.T) {
	for _, c := range []struct{ key, in, want string }{
		{"ide2", "media=cdrom,file=local-lvm:vm-100-cloudinit", "local-lvm:vm-100-cloudinit,media=cdrom"},
		{"net0", "bridge=vmbr0,virtio=BC:24:11:00:00:64", "virtio=BC:24:11:00:00:64,bridge=vmbr0"},
	} {
		keys := configKeys(t, c.key)
		parsed, msg := parsePropertyString(keys, c.in)
		if msg != "" {
			t.Fatal(msg)
		}
		if got := printPropertyString(keys, parsed); got != c.want {
			t.Errorf("%s=%q printed %q, want %q", c.key, c.in, got, c.want)
		}
	}
}

func TestParameterChecks(t *testing.T) {
	const config = "POST /nodes/{node}/qemu/{vmid}/config"
	for _, c := range []struct {
		route  string
		params url.Values
		bad    string // the parameter refused, "" for none
		reason string
	}{
		{config, url.Values{"balloon": {"0"}, "cpu": {"x86-64-v2-AES"}, "numa": {"0"}, "scsi1": {"local-lvm:8"}}, "", ""},
		{config, url.Values{"colour": {"blue"}}, "colour", notDefined},
		{config, url.Values{"cores": {"0"}}, "cores", "value must have a minimum value of 1"},
		{config, url.Values{"cores": {"two"}}, "cores", "type check ('integer') failed - got 'two'"},
		{config, url.Values{"numa": {"maybe"}}, "numa", "type check ('boolean') failed"},
		{config, url.Values{"ostype": {"plan9"}}, "ostype", "does not have a value in the enumeration"},
		{config, url.Values{"tags": {"a;b c"}}, "", ""},
		{config, url.Values{"tags": {"a;-b"}}, "tags", "invalid format"},
		{config, url.Values{"name": {"web_1"}}, "name", "invalid format"},
		{config, url.Values{"delete": {"ide2,net1"}}, "", ""},
		{config, url.Values{"bootdisk": {"scsi0"}}, "", ""},
		{config, url.Values{"sshkeys": {"ssh-ed25519%20AAAAC3Nz%2B%2F%3D%20me%40host%0A"}}, "", ""},
		{config, url.Values{"sshkeys": {"ssh-ed25519 AAAAC3Nz me@host"}}, "sshkeys", "invalid format"},
		{config, url.Values{"bootdisk": {"xscsi0"}}, "bootdisk", "value does not match the regex pattern"},
		{config, url.Values{"delete": {"ide2,2net"}}, "delete", "invalid format"},
		{config, url.Values{"hookscript": {"not a volume"}}, "hookscript", "invalid format"},
		{"POST /nodes/{node}/qemu/{vmid}/clone", url.Values{"name": {"a"}}, "newid", "property is missing and it is not optional"},
		{"POST /nodes/{node}/qemu/{vmid}/clone", url.Values{"newid": {"99"}}, "newid", "value must have a minimum value of 100"},
		{"GET /cluster/resources", url.Values{"type": {"lxc"}}, "type", "does not have a value in the enumeration 'vm, storage, node, sdn'"},
	} {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.Form = c.params
		err := checkRequest(c.route, r, url.Values{"node": {"pve1"}, "vmid": {"100"}})
		switch {
		case c.bad == "" && err != nil:
			t.Errorf("%s %v refused: %v %v", c.route, c.params, err, err.errors)
		case c.bad != "" && (err == nil || !strings.Contains(err.errors[c.bad], c.reason)):
			t.Errorf("%s %v: %v, want %s refused with %q", c.route, c.params, err, c.bad, c.reason)
		}
	}
	r := httptest.NewRequest(http.MethodGet, "/", nil)
	r.Form = url.Values{}
	if err := checkRequest("GET /version", r, url.Values{"node": {"x"}}); err == nil {
		t.Error("a path value the route does not have was taken")
	}
}

// TestEmptyPathFragments: PVE's router drops empty fragments, so a
// trailing slash or a doubled one names the same route; an escaped slash
// inside a segment stays inside it.
func TestEmptyPathFragments(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"/api2/json/nodes/pve1/qemu/100/", "/api2/json/nodes/pve1/qemu/100"},
		{"/api2/json//nodes//pve1/status", "/api2/json/nodes/pve1/status"},
		{"/api2/json/nodes/pve1/storage/local/content/local:snippets%2Fa.yaml/", "/api2/json/nodes/pve1/storage/local/content/local:snippets%2Fa.yaml"},
		{"/api2/json/version", "/api2/json/version"},
	} {
		u, err := url.Parse(c.in)
		if err != nil {
			t.Fatal(err)
		}
		dropEmptySegments(u)
		if u.EscapedPath() != c.want {
			t.Errorf("%s became %s, want %s", c.in, u.EscapedPath(), c.want)
		}
	}
	e := New(Options{})
	id, err := e.AddVM(VMSeed{Name: "a"})
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, httptest.NewRequest(http.MethodDelete, APIPrefix+"/nodes/pve1/qemu/"+strconv.Itoa(id)+"/?purge=1&destroy-unreferenced-disks=1", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("DELETE with a trailing slash: %d %s", rec.Code, rec.Body)
	}
	if got := e.Stats()["DELETE /nodes/{node}/qemu/{vmid}"]; got != 1 {
		t.Errorf("the delete was counted %d times on its route, want 1 (%v)", got, e.Stats())
	}
}

// TestConfigWriteStoresWhatTheSchemaDefines: keys the emulator has no use
// for are stored and answered typed as the schema types them; a cloud-init
// drive and a new volume are allocated, drives and NICs printed as PVE
// prints them.
func TestConfigWriteStoresWhatTheSchemaDefines(t *testing.T) {
	e := New(Options{})
	id, err := e.AddVM(VMSeed{Name: "a"})
	if err != nil {
		t.Fatal(err)
	}
	vm := APIPrefix + "/nodes/pve1/qemu/" + strconv.Itoa(id) + "/config"
	form := url.Values{
		"balloon": {"0"}, "cpu": {"x86-64-v2-AES"}, "numa": {"0"}, "ide2": {"file=local-lvm:cloudinit,"},
		"scsi1": {"local-lvm:4,discard=on"}, "net1": {"bridge=vmbr1,model=virtio"},
	}
	req := httptest.NewRequest(http.MethodPut, vm, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Fatalf("PUT config: %d %s", rec.Code, rec.Body)
	}
	rec = httptest.NewRecorder()
	e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, vm, nil))
	var got struct{ Data map[string]any }
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"balloon": float64(0), "cpu": "x86-64-v2-AES", "numa": float64(0),
		"ide2":  "local-lvm:vm-" + strconv.Itoa(id) + "-cloudinit,media=cdrom",
		"scsi1": "local-lvm:vm-" + strconv.Itoa(id) + "-disk-1,discard=on,size=4G",
	}
	for k, v := range want {
		if got.Data[k] != v {
			t.Errorf("%s = %#v, want %#v", k, got.Data[k], v)
		}
	}
	if net1, _ := got.Data["net1"].(string); !strings.HasPrefix(net1, "virtio=BC:24:11:") || !strings.HasSuffix(net1, ",bridge=vmbr1") {
		t.Errorf("net1 = %q, want virtio=MAC,bridge=vmbr1 with a MAC made for it", net1)
	}
}

// TestConformsCatchesWhatTheSchemaRefuses holds the shape check to
// account: each broken answer must be caught.
func TestConformsCatchesWhatTheSchemaRefuses(t *testing.T) {
	m := apiSchema()["GET /nodes/{node}/qemu"]
	good := []any{map[string]any{"vmid": float64(100), "status": "running", "template": float64(1)}}
	if bad := conforms(m.Returns, good, "data"); len(bad) > 0 {
		t.Fatalf("a good answer refused: %v", bad)
	}
	for name, answer := range map[string]any{
		"vmid as a string":   []any{map[string]any{"vmid": "100", "status": "running"}},
		"status missing":     []any{map[string]any{"vmid": float64(100)}},
		"a key PVE lacks":    []any{map[string]any{"vmid": float64(100), "status": "running", "colour": "blue"}},
		"an object, no list": map[string]any{"vmid": float64(100), "status": "running"},
		"template as 2":      []any{map[string]any{"vmid": float64(100), "status": "running", "template": float64(2)}},
	} {
		if bad := conforms(m.Returns, answer, "data"); len(bad) == 0 {
			t.Errorf("%s: not caught", name)
		}
	}
	if !slices.Contains(SchemaRoutes(), "GET /nodes/{node}/qemu") {
		t.Error("GET /nodes/{node}/qemu is not served")
	}
}

// TestEveryPatternReads: each pattern of the schema is one Go's regexp
// reads once Perl's spellings are rewritten, so none goes unchecked.
func TestEveryPatternReads(t *testing.T) {
	var walk func(s *schema, at string)
	walk = func(s *schema, at string) {
		if s == nil {
			return
		}
		s.compile()
		if s.Pattern != "" && s.pattern == nil {
			t.Errorf("%s: pattern %q does not compile", at, s.Pattern)
		}
		for k, p := range s.Properties {
			walk(p, at+"."+k)
		}
		for k, p := range s.keys {
			walk(p, at+"."+k)
		}
		walk(s.Items, at+"[]")
	}
	for r, m := range apiSchema() {
		walk(m.Parameters, r+" parameters")
		walk(m.Returns, r+" returns")
	}
}
