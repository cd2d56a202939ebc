package proxmox_test

import (
	"context"
	"errors"
	"net/url"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/proxmox"
)

func TestConformanceFailNext(t *testing.T) {
	for _, c := range []struct {
		op, class, method, path string
		status                  int
		phrase                  string
	}{
		{"list", "server_error", "GET", "/cluster/resources", 500, "got unexpected error (emulated)"},
		{"get", "auth_refused", "GET", "/cluster/resources", 403, "Permission check failed (/vms, VM.Audit)"},
		{"get", "locked", "GET", "/nodes/pve1/qemu/100/status/current", 500, "can't lock file '/var/lock/qemu-server/lock-100.conf' - got timeout"},
		{"create", "locked", "POST", "/nodes/pve1/qemu/9000/clone", 500, "can't lock file '/var/lock/qemu-server/lock-100.conf' - got timeout"},
		{"delete", "server_error", "DELETE", "/nodes/pve1/qemu/100", 500, "got unexpected error (emulated)"},
		{"power", "auth_refused", "POST", "/nodes/pve1/qemu/100/status/start", 403, "Permission check failed (/vms, VM.Audit)"},
		{"update", "locked", "POST", "/nodes/pve1/qemu/100/config", 500, "can't lock file '/var/lock/qemu-server/lock-100.conf' - got timeout"},
	} {
		t.Run(c.op+"/"+c.class, func(t *testing.T) {
			h := start(t, proxmox.Options{})
			if _, err := h.e.AddVM(proxmox.VMSeed{Name: "a"}); err != nil {
				t.Fatal(err)
			}
			if err := h.e.Conformance().FailNext(c.op, c.class, 1); err != nil {
				t.Fatal(err)
			}
			var kv []string
			if c.op == "create" {
				kv = []string{"newid", "101"}
			}
			expectError(t, h.call(c.method, c.path, kv...), c.status, c.phrase)
			if a := h.call(c.method, c.path, kv...); a.status != 200 {
				t.Fatalf("second call %d %s: the fault outlived its count", a.status, a.phrase)
			}
		})
	}
}

func TestConformanceFaultsPVECannotShow(t *testing.T) {
	c := proxmox.New(proxmox.Options{}).Conformance()
	for _, f := range [][2]string{{"list", "partial_listing"}, {"get", "rate_limited"}, {"list", "locked"}} {
		if err := c.FailNext(f[0], f[1], 1); !errors.Is(err, errors.ErrUnsupported) {
			t.Errorf("FailNext(%s, %s) = %v, want ErrUnsupported", f[0], f[1], err)
		}
	}
	if err := c.FailNext("nope", "server_error", 1); err == nil || errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("unknown op: %v", err)
	}
	if err := c.FailNext("get", "nope", 1); err == nil || errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("unknown class: %v", err)
	}
}

func TestConformanceHangAndDrop(t *testing.T) {
	h := start(t, proxmox.Options{})
	c := h.e.Conformance()
	if err := c.FailNext("create", "hang", 1); err != nil {
		t.Fatal(err)
	}
	if err := leaveOnceHeld(h, "POST", "/nodes/pve1/qemu/9000/clone", url.Values{"newid": {"700"}}); err == nil {
		t.Fatal("a hung clone answered")
	}
	if _, ok := h.e.VM(700); ok {
		t.Fatal("a hung clone committed")
	}
	if err := c.FailNext("create", "drop_after_commit", 1); err != nil {
		t.Fatal(err)
	}
	if _, err := h.do(context.Background(), "POST", "/nodes/pve1/qemu/9000/clone", url.Values{"newid": {"701"}}); err == nil {
		t.Fatal("a dropped clone answered")
	}
	if _, ok := h.e.VM(701); !ok {
		t.Fatal("a dropped clone did not commit")
	}
}

// leaveOnceHeld sends a request and leaves once the emulator has counted
// it, so its fault is spent however slowly the request got there (a
// deadline of the client's own could pass before the request arrived and
// leave the fault for the next one). It returns the client's error, nil
// when the request was answered before it left.
func leaveOnceHeld(h *harness, method, path string, form url.Values) error {
	h.t.Helper()
	route := method + " " + proxmox.Route(path)
	before := h.e.Stats()[route]
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := h.do(ctx, method, path, form)
		done <- err
	}()
	poll := time.NewTicker(time.Millisecond)
	defer poll.Stop()
	for h.e.Stats()[route] == before {
		select {
		case err := <-done:
			// It ended on its own: answered, or never got there.
			if h.e.Stats()[route] == before {
				h.t.Fatalf("%s %s ended before the emulator counted it: %v", method, path, err)
			}
			return err
		case <-poll.C:
		}
	}
	cancel()
	return <-done
}

func TestConformanceRevokeAndClear(t *testing.T) {
	h := start(t, proxmox.Options{})
	c := h.e.Conformance()
	before := c.Requests()
	if err := c.Revoke(); err != nil {
		t.Fatal(err)
	}
	expectError(t, h.call("GET", "/version"), 401, "authentication failure")
	c.Clear()
	h.ok("GET", "/version")
	if got := c.Requests() - before; got != 2 {
		t.Fatalf("Requests() grew by %d, want 2", got)
	}
}

func TestConformanceStage(t *testing.T) {
	for _, c := range []struct {
		situation, raw, status, lock string
	}{
		{"provisioning", "stopped (locked: clone)", "stopped", "clone"},
		{"unaddressed", "running (guest agent: not running)", "running", ""},
		{"stopping", "running (guest agent: not running)", "running", ""},
		{"deleting", "stopped (locked: destroyed)", "stopped", "destroyed"},
		{"unrecognised", "hibernating", "hibernating", ""},
	} {
		t.Run(c.situation, func(t *testing.T) {
			h := start(t, proxmox.Options{BootDuration: time.Nanosecond})
			if _, err := h.e.AddVM(proxmox.VMSeed{Name: "a", Tags: "compute"}); err != nil {
				t.Fatal(err)
			}
			raw, err := h.e.Conformance().Stage("100", c.situation)
			if err != nil || raw != c.raw {
				t.Fatalf("Stage = %q, %v; want %q", raw, err, c.raw)
			}
			var entry map[string]any
			for _, r := range h.ok("GET", "/cluster/resources", "type", "vm").([]any) {
				if r := r.(map[string]any); r["vmid"] == float64(100) {
					entry = r
				}
			}
			lock, _ := entry["lock"].(string)
			if entry["status"] != c.status || lock != c.lock {
				t.Fatalf("listed %v", entry)
			}
			switch c.situation {
			case "provisioning":
				if entry["tags"] != "cm-new;compute" {
					t.Fatalf("tags %v", entry["tags"])
				}
			case "unaddressed", "stopping":
				expectError(t, h.call("GET", "/nodes/pve1/qemu/100/agent/network-get-interfaces"), 500, "QEMU guest agent is not running")
			}
			if c.situation == "stopping" {
				if st := h.ok("GET", "/nodes/pve1/qemu/100/status/current").(map[string]any); st["qmpstatus"] != "shutdown" {
					t.Fatalf("qmpstatus %v", st["qmpstatus"])
				}
			}
		})
	}
}
