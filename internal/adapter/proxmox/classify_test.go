package proxmox

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// TestClassify sends each error answer through the real client as
// pveproxy writes it (the message in the HTTP reason phrase, {"data":null}
// or the parameter errors as the body) and checks its one code and field;
// the last assertion is that every adapter code is covered.
func TestClassify(t *testing.T) {
	tests := []struct {
		name, route, reason, body string
		status                    int
		code                      adapter.Code
		field                     string
	}{
		{"bad token", "GET /version", "authentication failure", "", 401, adapter.AccessDenied, settingAPIToken},
		{"no ticket", "GET /version", "No ticket", "", 401, adapter.AccessDenied, settingAPIToken},
		{"permission", "GET /version", "Permission check failed (/vms/100, VM.Allocate)", "", 403, adapter.AccessDenied, settingAPIToken},
		{"parameter", "GET /version", "Parameter verification failed.", `{"errors":{"name":"invalid format - value does not look like a valid DNS name\n"},"data":null}`, 400, adapter.InvalidInput, adapter.FieldName},
		{"parameter unmapped", "GET /version", "Parameter verification failed.", `{"errors":{"bwlimit":"value must have a minimum value of 0\n"},"data":null}`, 400, adapter.InvalidInput, ""},
		{"config does not exist", "GET /nodes/{node}/qemu/{vmid}/config", "Configuration file 'nodes/pve1/qemu-server/100123.conf' does not exist", "", 500, adapter.NotFound, ""},
		{"no such VM", "GET /nodes/{node}/qemu/{vmid}/config", "no such VM ('100123')", "", 500, adapter.NotFound, ""},
		{"no configuration file", "GET /nodes/{node}/qemu/{vmid}/config", "unable to find configuration file for VM 100123 - no such machine", "", 500, adapter.NotFound, ""},
		{"storage does not exist", "GET /version", "storage 'fast' does not exist", "", 500, adapter.InvalidConfig, settingStorage},
		{"a snapshot missing is not a VM missing", "GET /nodes/{node}/qemu/{vmid}/config", "snapshot 'pre-upgrade' does not exist", "", 500, adapter.Transient, ""},
		{"locked", "GET /version", "VM 100123 is locked (clone)", "", 500, adapter.Transient, ""},
		{"lock timeout", "GET /version", "can't lock file '/var/lock/qemu-server/lock-9000.conf' - got timeout", "", 500, adapter.Transient, ""},
		{"already exists", "GET /version", "unable to create VM 100123 - VM 100123 already exists", "", 500, adapter.Conflict, ""},
		{"not running", "GET /version", "VM 100123 not running", "", 500, adapter.InvalidState, ""},
		{"storage full is not a storage missing", "GET /version", "storage 'local-lvm': not enough space", "", 500, adapter.QuotaExceeded, ""},
		{"no space", "GET /version", "lvcreate 'pve/vm-100123-disk-0' error:   Volume group \"pve\" has insufficient free space (2559 extents): 5120 required.", "", 500, adapter.QuotaExceeded, ""},
		{"not implemented", "GET /version", "Method 'GET /nodes/pve1/foo' not implemented", "", 501, adapter.Unsupported, ""},
		{"proxy refused", "GET /version", "Connection refused", "", 595, adapter.Transient, ""},
		{"node unreachable", "GET /version", "Connection timed out", "", 596, adapter.Transient, ""},
		{"rate limit of a proxy", "GET /version", "Too many requests, slow down", "", 429, adapter.RateLimited, ""},
		{"not the API", "GET /version", "Not Found", "<html>", 404, adapter.InvalidConfig, settingEndpoint},
		{"other 500", "GET /version", "got unexpected control message", "", 500, adapter.Transient, ""},
	}
	seen := map[adapter.Code]bool{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t)
			f.failRoute, f.failN, f.failStatus, f.failReason, f.failBody = tt.route, 1, tt.status, tt.reason, tt.body
			a := testAccount(t, f, nil)
			var err error
			if strings.HasPrefix(tt.route, "GET /version") {
				err = a.Check(context.Background())
			} else {
				err = fail("read", a.c.Get(context.Background(), "/nodes/{node}/qemu/{vmid}/config", nil, "pve1", "100123"))
			}
			var e *adapter.Error
			if !errors.As(err, &e) {
				t.Fatalf("%v is not classified", err)
			}
			if e.Code != tt.code || e.Field != tt.field {
				t.Errorf("got code %s field %q, want %s %q (%v)", e.Code, e.Field, tt.code, tt.field, err)
			}
			if tt.reason != "" && tt.status != 404 && !strings.Contains(e.Message, tt.reason[:min(10, len(tt.reason))]) {
				t.Errorf("message %q does not carry PVE's %q", e.Message, tt.reason)
			}
			seen[e.Code] = true
		})
	}
	for _, c := range adapter.Codes {
		if !seen[c] {
			t.Errorf("no case classifies as %s", c)
		}
	}
}

// A listing that answers "does not exist" is not absence of anything.
func TestClassifyListingNeverNotFound(t *testing.T) {
	f := newFake(t)
	f.failRoute, f.failN, f.failStatus, f.failReason = "GET /cluster/resources", 1, 500, "Configuration file 'x' does not exist"
	a := testAccount(t, f, nil)
	_, err := a.List(context.Background())
	if adapter.IsNotFound(err) {
		t.Fatalf("a failed listing read as absence: %v", err)
	}
}

// A storage that does not exist is the account's storage setting when it
// sets one; else it is where the template keeps its disks, so the image.
func TestMissingStorageNamesTheSetting(t *testing.T) {
	for _, tc := range []struct {
		settings map[string]string
		code     adapter.Code
		field    string
	}{
		{map[string]string{"storage": "fast"}, adapter.InvalidConfig, settingStorage},
		{nil, adapter.InvalidInput, adapter.FieldImage},
	} {
		f := newFake(t)
		f.failRoute, f.failN, f.failStatus, f.failReason = "POST /nodes/{node}/qemu/{vmid}/config", 1, 500, "storage 'fast' does not exist"
		a := testAccount(t, f, tc.settings)
		_, err := a.Create(context.Background(), callFor(a, "st"), createReq("st"))
		var e *adapter.Error
		if !errors.As(err, &e) || e.Code != tc.code || e.Field != tc.field || !strings.Contains(e.Message, "storage 'fast' does not exist") {
			t.Errorf("settings %v: %v (%+v), want %s on %s", tc.settings, err, e, tc.code, tc.field)
		}
	}
}

// A clone of a template that went away since the cluster was listed is
// refused on the image, not retried as if the VM were busy.
func TestCloneOfATemplateGone(t *testing.T) {
	f := newFake(t)
	f.failRoute, f.failN, f.failStatus, f.failReason = routeClone, 1, 500, "unable to find configuration file for VM 9000 - no such machine"
	a := testAccount(t, f, nil)
	_, err := a.Create(context.Background(), callFor(a, "gone"), createReq("gone"))
	var e *adapter.Error
	if !errors.As(err, &e) || e.Code != adapter.InvalidInput || e.Field != adapter.FieldImage || !strings.Contains(e.Message, "ubuntu-24.04-cloud") {
		t.Errorf("%v, want InvalidInput on image naming the template", err)
	}
}
