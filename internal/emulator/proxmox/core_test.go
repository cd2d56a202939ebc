package proxmox_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/proxmox"
)

func TestAuth(t *testing.T) {
	h := start(t, proxmox.Options{})
	h.ok("GET", "/version")
	h.token = ""
	expectError(t, h.call("GET", "/version"), http.StatusUnauthorized, "No ticket")
	h.token = "PVEAPIToken=" + tokenID + "=wrong"
	expectError(t, h.call("GET", "/version"), http.StatusUnauthorized, "authentication failure")
	h.token = "PVEAPIToken=root@pam!other=" + tokenSecret
	expectError(t, h.call("GET", "/version"), http.StatusUnauthorized, "authentication failure")
	if got := h.e.Authorized(); got != 3 {
		t.Fatalf("Authorized() = %d, want 3 (the request without a header is not counted)", got)
	}
}

func TestCloneConfigStartDelete(t *testing.T) {
	h := start(t, proxmox.Options{})
	desc := "user text\ncompute-managed: v1\ncompute-key: 0123"
	upid := h.mustTask("POST", "/nodes/pve1/qemu/9000/clone", "newid", "100123", "name", "web-1", "description", desc, "target", "pve2")
	if !strings.HasPrefix(upid, "UPID:pve1:") || !strings.Contains(upid, ":qmclone:9000:root@pam!tf:") {
		t.Fatalf("UPID %q not in PVE's shape", upid)
	}
	conf := h.ok("GET", "/nodes/pve2/qemu/100123/config").(map[string]any)
	if conf["description"] != desc || conf["name"] != "web-1" || conf["lock"] != nil {
		t.Fatalf("config after clone: %v", conf)
	}
	if conf["scsi0"] != "local-lvm:base-9000-disk-0/vm-100123-disk-0,size=10G" || conf["ide2"] != "local-lvm:vm-100123-cloudinit,media=cdrom" {
		t.Fatalf("disks after a linked clone: %v %v", conf["scsi0"], conf["ide2"])
	}
	digest := conf["digest"].(string)
	h.ok("POST", "/nodes/pve2/qemu/100123/config", "cores", "4", "memory", "4096", "tags", "compute;cm-c-abc;cm-new", "digest", digest)
	expectError(t, h.call("PUT", "/nodes/pve2/qemu/100123/config", "cores", "2", "digest", digest), 500,
		"detected modified configuration - file changed by other user? Try again.")
	h.ok("PUT", "/nodes/pve2/qemu/100123/config", "delete", "tags")
	conf = h.ok("GET", "/nodes/pve2/qemu/100123/config").(map[string]any)
	if conf["cores"] != float64(4) || conf["memory"] != "4096" || conf["tags"] != nil {
		t.Fatalf("config after writes: %v", conf)
	}
	h.mustTask("POST", "/nodes/pve2/qemu/100123/status/start")
	st := h.ok("GET", "/nodes/pve2/qemu/100123/status/current").(map[string]any)
	if st["status"] != "running" || st["agent"] != float64(1) {
		t.Fatalf("status after start: %v", st)
	}
	expectError(t, h.call("DELETE", "/nodes/pve2/qemu/100123", "purge", "1"), 500, "VM 100123 is running - destroy failed")
	h.mustTask("POST", "/nodes/pve2/qemu/100123/status/stop")
	h.mustTask("DELETE", "/nodes/pve2/qemu/100123", "purge", "1", "destroy-unreferenced-disks", "1")
	expectError(t, h.call("GET", "/nodes/pve2/qemu/100123/config"), 500,
		"Configuration file 'nodes/pve2/qemu-server/100123.conf' does not exist")
	for _, r := range h.ok("GET", "/cluster/resources", "type", "vm").([]any) {
		if r.(map[string]any)["vmid"] == float64(100123) {
			t.Fatal("deleted VM still listed")
		}
	}
}

func TestWrongNodeIsAbsent(t *testing.T) {
	h := start(t, proxmox.Options{})
	expectError(t, h.call("GET", "/nodes/pve2/qemu/9000/config"), 500,
		"Configuration file 'nodes/pve2/qemu-server/9000.conf' does not exist")
}

// TestUnknownTaskRefused: both task reads answer a task they do not know
// as PVE does, with its reason and no data.
func TestUnknownTaskRefused(t *testing.T) {
	h := start(t, proxmox.Options{})
	upid := "UPID:pve1:00001000:0012F00D:00000000:qmclone:9000:root@pam:"
	for _, path := range []string{"/status", "/log"} {
		expectError(t, h.call("GET", "/nodes/pve1/tasks/"+url.PathEscape(upid)+path), 500, "no such task")
		expectError(t, h.call("GET", "/nodes/pve1/tasks/not-a-upid"+path), 500, "unable to parse worker upid 'not-a-upid'")
	}
}

func TestUnknownParameterRefused(t *testing.T) {
	h := start(t, proxmox.Options{})
	a := h.call("POST", "/nodes/pve1/qemu/9000/clone", "newid", "101", "bogus", "1")
	expectError(t, a, 400, "Parameter verification failed.")
	if errs, _ := a.body["errors"].(map[string]any); errs["bogus"] == nil {
		t.Fatalf("errors %v do not name bogus", a.body["errors"])
	}
}

func TestResizeRefusesShrinking(t *testing.T) {
	h := start(t, proxmox.Options{})
	h.mustTask("POST", "/nodes/pve1/qemu/9000/clone", "newid", "200", "name", "a")
	h.mustTask("PUT", "/nodes/pve1/qemu/200/resize", "disk", "scsi0", "size", "20G")
	if _, exit := h.task("PUT", "/nodes/pve1/qemu/200/resize", "disk", "scsi0", "size", "15G"); exit != "shrinking disks is not supported" {
		t.Fatalf("shrinking task ended %q", exit)
	}
	h.mustTask("PUT", "/nodes/pve1/qemu/200/resize", "disk", "scsi0", "size", "+5G")
	conf := h.ok("GET", "/nodes/pve1/qemu/200/config").(map[string]any)
	if !strings.HasSuffix(conf["scsi0"].(string), ",size=25G") {
		t.Fatalf("scsi0 = %v, want 25G", conf["scsi0"])
	}
}
